import { eq } from "drizzle-orm";
import { sessions, users } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { secretMatches, splitToken } from "../../lib/secret-tokens";
import { announceSessionsEnded, DAY, type ValidSession } from "./sessions";

/** Sliding expiry is written back at most this often, so a busy client does not write on every request. */
const TOUCH_INTERVAL_MS = 60 * 60 * 1000;

/** Checks an access token; extends its idle expiry (sliding) and returns its user, or null. */
export async function validateAccessToken(deps: Deps, token: string): Promise<ValidSession | null> {
  const parts = splitToken(token);
  if (!parts) return null;
  const [row] = await deps.db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.id, parts.id))
    .limit(1);
  if (!row) return null;
  const now = Date.now();
  // The secret a refresh just replaced keeps working for the grace window (requests in flight, other tabs).
  const previous =
    row.session.previousSecretHash !== null &&
    row.session.previousSecretExpiresAt !== null &&
    row.session.previousSecretExpiresAt.getTime() > now &&
    secretMatches(parts.secret, row.session.previousSecretHash);
  if (!secretMatches(parts.secret, row.session.secretHash) && !previous) return null;
  if (row.session.expiresAt.getTime() <= now) {
    await deps.db.delete(sessions).where(eq(sessions.id, parts.id));
    await announceSessionsEnded(deps, [parts.id]);
    return null;
  }
  if (row.user.disabled) return null;
  let expiresAt = row.session.expiresAt;
  if (now - row.session.lastUsedAt.getTime() > TOUCH_INTERVAL_MS) {
    expiresAt = new Date(now + deps.config.SESSION_IDLE_DAYS * DAY);
    await deps.db
      .update(sessions)
      .set({ lastUsedAt: new Date(now), expiresAt })
      .where(eq(sessions.id, parts.id));
  }
  return { sessionId: row.session.id, user: row.user, expiresAt };
}
