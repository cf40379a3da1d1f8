import type { z } from "zod";
import type { submitCompositionInput, submitSubtasksInput } from "../../../shared/schemas/agent-planning";
import type { Deps } from "../../deps";
import * as agent from "../../engine/agent";
import { AppError } from "../../errors";
import { getOwnedRow } from "../../plan/owned";
import type { TaskRow } from "../../plan/rows";
import { getTask } from "./read";

/**
 * A coding agent planning one of the caller's projects (engine/agent.ts): each call checks that the
 * project is the caller's, whichever of its tasks the call names.
 */

async function projectOf(deps: Deps, userId: string, id: string): Promise<TaskRow> {
  const row = await getOwnedRow(deps, userId, id);
  return row.rootTaskId ? getOwnedRow(deps, userId, row.rootTaskId) : row;
}

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

/** The agent's epics, user stories and event model for the caller's planned project. */
export async function submitComposition(
  deps: Deps,
  userId: string,
  { id, ...answer }: z.output<typeof submitCompositionInput>,
) {
  return agent.submitComposition(deps, await projectOf(deps, userId, id), answer);
}

/** Planning with the client's model stopped: the project says why, and that the tools can finish it. */
export async function samplingStopped(deps: Deps, userId: string, projectId: string, reason: string) {
  await agent.noteStopped(deps, await projectOf(deps, userId, projectId), reason);
}

/** The step the caller's agent-planned project waits on (for the page that shows it). */
export async function agentPlanningStatus(deps: Deps, userId: string, projectId: string) {
  return agent.waitingOn(deps, await projectOf(deps, userId, projectId));
}

/** The caller stops their agent's planning: the offline planner plans the rest and the plan completes. */
export async function stopAgentPlanning(deps: Deps, userId: string, projectId: string) {
  return agent.finishWithOutline(deps, await projectOf(deps, userId, projectId));
}

/** The caller cancels their agent's planning: the project stops where it is. */
export async function cancelAgentPlanning(deps: Deps, userId: string, projectId: string) {
  const root = await projectOf(deps, userId, projectId);
  await agent.cancelPlanning(deps, root);
  return getTask(deps, userId, root.id);
}
