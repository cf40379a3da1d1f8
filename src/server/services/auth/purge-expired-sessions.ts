import { lt } from "drizzle-orm";
import { refreshTokens, sessions } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { announceSessionsEnded } from "./sessions";

/** Housekeeping: drops expired sessions and refresh tokens. */
export async function purgeExpiredSessions(deps: Deps): Promise<void> {
  const now = new Date();
  const ended = await deps.db
    .delete(sessions)
    .where(lt(sessions.expiresAt, now))
    .returning({ id: sessions.id });
  await announceSessionsEnded(
    deps,
    ended.map((s) => s.id),
  );
  await deps.db.delete(refreshTokens).where(lt(refreshTokens.expiresAt, now));
}
