import type { z } from "zod";
import type { submitCompositionInput } from "../../../shared/schemas/agent-planning";
import type { Deps } from "../../deps";
import * as agent from "../../engine/agent";
import { projectOf } from "./project-of";

/** The agent's epics, user stories and event model for the caller's planned project. */
export async function submitComposition(
  deps: Deps,
  userId: string,
  { id, ...answer }: z.output<typeof submitCompositionInput>,
) {
  return agent.submitComposition(deps, await projectOf(deps, userId, id), answer);
}
