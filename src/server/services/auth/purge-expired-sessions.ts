import { lt } from "drizzle-orm";
import { refreshTokens, sessions } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { endSessions } from "./sessions";

/** Housekeeping: drops expired sessions and refresh tokens. */
export async function purgeExpiredSessions(deps: Deps): Promise<void> {
  const now = new Date();
  await endSessions(deps, lt(sessions.expiresAt, now));
  await deps.db.delete(refreshTokens).where(lt(refreshTokens.expiresAt, now));
}
