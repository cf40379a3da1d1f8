import { and, eq, isNull } from "drizzle-orm";
import { authCodes, users } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { hashSecret } from "../../lib/secret-tokens";
import { HOUR_MS } from "./accounts";
import { consumeRateLimit, perAddress } from "./rate-limit";
import { createSession, type IssuedTokens, type SessionMeta, type UserRow } from "./sessions";

/** Codes are 160-bit and single-use; the per-address budget only bounds the sessions an address can mint. */
export async function exchangeAuthCode(
  deps: Deps,
  code: string,
  meta: SessionMeta = {},
): Promise<{ user: UserRow; tokens: IssuedTokens }> {
  await consumeRateLimit(
    deps,
    {
      key: perAddress("exchange-auth-code", meta.ip),
      max: deps.config.ANONYMOUS_WRITES_PER_IP_PER_HOUR,
      windowMs: HOUR_MS,
    },
    "Too many sign-in attempts from your network. Please try again later.",
  );
  const [row] = await deps.db
    .update(authCodes)
    .set({ usedAt: new Date() })
    .where(and(eq(authCodes.codeHash, hashSecret(code)), isNull(authCodes.usedAt)))
    .returning();
  if (!row || row.expiresAt.getTime() < Date.now()) {
    throw new AppError("BAD_REQUEST", "Authorization code expired or invalid. Please try logging in again.");
  }
  const [user] = await deps.db.select().from(users).where(eq(users.id, row.userId)).limit(1);
  if (!user || user.disabled)
    throw new AppError("UNAUTHORIZED", "Invalid user data received from OAuth provider");
  const tokens = await createSession(deps, user.id, meta);
  return { user, tokens };
}
