import type { Deps } from "../../deps";
import { getOwnedRow } from "../../plan/owned";
import type { TaskRow } from "../../plan/rows";

/**
 * The project (root) of a task the caller may see, whichever of its tasks `id` names; each is checked as
 * `getOwnedRow` checks a task. A coding agent planning a project (engine/agent.ts) names it so.
 */
export async function projectOf(
  deps: Deps,
  userId: string,
  id: string,
  need?: "read" | "write",
): Promise<TaskRow> {
  const row = await getOwnedRow(deps, userId, id, need);
  return row.rootTaskId ? getOwnedRow(deps, userId, row.rootTaskId, need) : row;
}
