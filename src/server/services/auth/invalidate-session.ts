import { eq } from "drizzle-orm";
import { sessions } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { announceSessionsEnded } from "./sessions";

export async function invalidateSession(deps: Deps, sessionId: string): Promise<void> {
  await deps.db.delete(sessions).where(eq(sessions.id, sessionId));
  await announceSessionsEnded(deps, [sessionId]);
}
