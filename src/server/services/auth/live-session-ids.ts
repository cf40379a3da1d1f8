import { and, gt, inArray } from "drizzle-orm";
import { sessions } from "../../db/schema/index";
import type { Deps } from "../../deps";

/** Whether a session still exists and has not expired (sockets re-check this; cheaper than a token). */
/** Which of these session ids are sessions that have not expired (up to a few hundred at a time). */
export async function liveSessionIds(deps: Pick<Deps, "db">, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const live = await deps.db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(inArray(sessions.id, ids), gt(sessions.expiresAt, new Date())));
  return new Set(live.map((r) => r.id));
}
