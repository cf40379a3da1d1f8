import type { Deps } from "../../deps";
import * as agent from "../../engine/agent";
import { projectOf } from "./agent-planning";
import { getTask } from "./get-task";

/** The caller cancels their agent's planning: the project stops where it is. */
export async function cancelAgentPlanning(deps: Deps, userId: string, projectId: string) {
  const root = await projectOf(deps, userId, projectId);
  await agent.cancelPlanning(deps, root);
  return getTask(deps, userId, root.id);
}
