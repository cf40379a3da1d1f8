import type { Deps } from "../../deps";
import * as agent from "../../engine/agent";
import { projectOf } from "./project-of";

/** Planning with the client's model stopped: the project says why, and that the tools can finish it. */
export async function samplingStopped(deps: Deps, userId: string, projectId: string, reason: string) {
  await agent.noteStopped(deps, await projectOf(deps, userId, projectId), reason);
}
