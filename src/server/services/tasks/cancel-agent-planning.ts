import type { Deps } from "../../deps";
import * as agent from "../../engine/agent";
import { getTask } from "./get-task";
import { projectOf } from "./project-of";

/** The caller cancels their agent's planning: the project stops where it is. */
export async function cancelAgentPlanning(deps: Deps, userId: string, projectId: string) {
  const root = await projectOf(deps, userId, projectId);
  await agent.cancelPlanning(deps, root);
  return getTask(deps, userId, root.id);
}
