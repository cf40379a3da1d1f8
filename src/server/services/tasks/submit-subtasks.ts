import type { z } from "zod";
import type { submitSubtasksInput } from "../../../shared/schemas/agent-planning";
import type { Deps } from "../../deps";
import * as agent from "../../engine/agent";
import { getOwnedRow } from "../../plan/owned";

/** The agent's subtasks for one node of the caller's project, checked and written; then the next step. */
export async function submitSubtasks(
  deps: Deps,
  userId: string,
  { node_id, ...answer }: z.output<typeof submitSubtasksInput>,
) {
  const node = await getOwnedRow(deps, userId, node_id);
  const root = node.rootTaskId ? await getOwnedRow(deps, userId, node.rootTaskId) : node;
  return agent.submitSplit(deps, root, node.id, answer);
}
