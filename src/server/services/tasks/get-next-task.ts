import type { NextTask } from "../../../shared/schemas/agent";
import type { Deps } from "../../deps";
import {
  heldByOthers,
  leafProgress,
  planAt,
  planningState,
  refOf,
  subtreeIds,
  taskWithTitles,
} from "./agent-view";
import { activeClaims, type Claimer } from "./claims";
import { ownedPlanVersion } from "./tree-reads";

/**
 * The ready leaf of a project (or of one subtree) to take next: critical path first, and a task nobody
 * started before one already in progress. With nothing ready, says why (planning, all done, or waiting).
 */
export async function getNextTask(
  deps: Deps,
  userId: string,
  id: string,
  claimer: Claimer | null = null,
): Promise<NextTask> {
  const { root: rootId, version } = await ownedPlanVersion(deps, userId, id);
  const plan = await planAt(deps, rootId, version);
  const top = { id };
  const inside = subtreeIds(plan, id);
  // What others hold is theirs (issue 41): two agents asking are not given the same task.
  const held = heldByOthers(
    await activeClaims(deps.db, rootId),
    plan.ready,
    claimer ?? { userId, name: "", token: null },
  );
  const ready = plan.ready.filter((r) => inside.has(r) && !held.has(r));
  const notStarted = ready.filter((r) => plan.byId.get(r)?.status !== "in_progress");
  const chosen = notStarted[0] ?? ready[0] ?? null;
  const progress = leafProgress(plan, top.id);
  const root = plan.byId.get(rootId)!;
  const planning = planningState(root, plan.children.has(rootId));
  let message: string;
  if (chosen) {
    message =
      chosen === notStarted[0]
        ? `${ready.length} task${ready.length === 1 ? " is" : "s are"} ready; this one ${plan.critical.has(chosen) ? "is on the critical path" : "comes first"}.`
        : "Every ready task is already in progress; this one is the first of them.";
    if (planning) message += ` ${planning}: more tasks may appear.`;
  } else if (planning) {
    message = `${planning}; ask again in a moment.`;
  } else if (progress.leaves_done === progress.leaves_total) {
    message = "Everything in this plan is done.";
  } else if (!plan.schedule) {
    message = "This plan's dependencies form a cycle; remove one of them to schedule it.";
  } else {
    const waiting = progress.leaves_total - progress.leaves_done;
    message = `Nothing is ready: the ${waiting} remaining task${waiting === 1 ? " waits" : "s wait"} for work outside this part of the plan.`;
  }
  const alsoReady = ready.filter((r) => r !== chosen).slice(0, 10);
  const inProgress = ready.filter((r) => plan.byId.get(r)?.status === "in_progress").slice(0, 10);
  const task = await taskWithTitles(deps, plan, chosen, [...alsoReady, ...inProgress]);
  return {
    project_id: top.id,
    task,
    message,
    also_ready: alsoReady.map((r) => refOf(plan.byId.get(r)!)),
    in_progress: inProgress.map((r) => refOf(plan.byId.get(r)!)),
    progress,
  };
}
