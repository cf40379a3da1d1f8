import type { Deps } from "../../deps";
import * as agent from "../../engine/agent";
import { AppError } from "../../errors";
import { projectOf } from "./project-of";

/** The next node to split in the caller's project, with its brief and the answer's schema; or done. */
export async function nextPlanningStep(deps: Deps, userId: string, projectId: string) {
  const root = await projectOf(deps, userId, projectId);
  if (root.status === "awaiting_review") {
    throw new AppError(
      "CONFLICT",
      "This project waits for a check of its reading: read it with get_reading, change it with set_reading if needed, then start planning with plan_project.",
    );
  }
  return agent.nextStep(deps, root);
}
