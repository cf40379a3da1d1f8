import type { Deps } from "../../deps";
import { getOwnedRow } from "../../plan/owned";
import type { TaskRow } from "../../plan/rows";

/**
 * A coding agent planning one of the caller's projects (engine/agent.ts): each call checks that the
 * project is the caller's, whichever of its tasks the call names.
 */

export async function projectOf(deps: Deps, userId: string, id: string): Promise<TaskRow> {
  const row = await getOwnedRow(deps, userId, id);
  return row.rootTaskId ? getOwnedRow(deps, userId, row.rootTaskId) : row;
}
