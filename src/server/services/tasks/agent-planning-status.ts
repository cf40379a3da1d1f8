import type { Deps } from "../../deps";
import * as agent from "../../engine/agent";
import { projectOf } from "./project-of";

/** The step the caller's agent-planned project waits on (for the page that shows it). */
export async function agentPlanningStatus(deps: Deps, userId: string, projectId: string) {
  return agent.waitingOn(deps, await projectOf(deps, userId, projectId));
}
