import type { Deps } from "../../deps";
import * as agent from "../../engine/agent";
import { projectOf } from "./project-of";

/** The caller stops their agent's planning: the offline planner plans the rest and the plan completes. */
export async function stopAgentPlanning(deps: Deps, userId: string, projectId: string) {
  return agent.finishWithOutline(deps, await projectOf(deps, userId, projectId));
}
