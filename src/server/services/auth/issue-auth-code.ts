import { lt } from "drizzle-orm";
import { authCodes } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { hashSecret, randomToken } from "../../lib/secret-tokens";

const AUTH_CODE_TTL_MS = 60_000;

/** One-time code for the /oauth-callback screen, redeemed once within a minute. */
export async function issueAuthCode(deps: Deps, userId: string): Promise<string> {
  const code = randomToken(20);
  await deps.db.delete(authCodes).where(lt(authCodes.expiresAt, new Date()));
  await deps.db.insert(authCodes).values({
    codeHash: hashSecret(code),
    userId,
    expiresAt: new Date(Date.now() + AUTH_CODE_TTL_MS),
  });
  return code;
}
