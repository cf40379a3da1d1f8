import type { z } from "zod";
import type { StatusChange, setStatusInput } from "../../../shared/schemas/agent";
import type { Deps } from "../../deps";
import { readyLeaves } from "../../plan/graph";
import { getOwnedRow } from "../../plan/owned";
import { leafProgress, loadPlan, planOf, refOf, withTitles } from "./agent-view";
import { updateTask } from "./update-task";

/**
 * Sets a task's status (pending, in progress, completed) as the app's own edit does (live in every open
 * tab, `task.ready` for what it unblocks) and says which leaves became ready with it.
 */
export async function setTaskStatus(
  deps: Deps,
  userId: string,
  id: string,
  input: z.output<typeof setStatusInput>,
): Promise<StatusChange> {
  const row = await getOwnedRow(deps, userId, id);
  const rootId = row.rootTaskId ?? row.id;
  // The plan is read once: the change is made in memory too (only this task's status and done mark move),
  // so what became ready, and the progress, come from the same rows (issue 32: was four reads).
  const plan = await loadPlan(deps, rootId, { titles: false });
  const before = new Set(readyLeaves(plan.graph).map((i) => plan.graph.nodes[i]!.id));
  const task = await updateTask(
    deps,
    userId,
    id,
    {
      status: input.status,
      ...(input.actual_hours === undefined ? {} : { actual_hours: input.actual_hours }),
    },
    { graph: plan.graph },
  );
  const mine = plan.byId.get(id);
  if (mine) mine.status = task.status;
  const after = planOf(plan.rows, plan.graph, rootId);
  const unblocked = after.ready.filter((r) => !before.has(r) && r !== id);
  await withTitles(deps, after, [id, ...unblocked]);
  return {
    task: refOf(after.byId.get(id) ?? { id, description: task.description, status: task.status }),
    unblocked: unblocked.map((r) => refOf(after.byId.get(r)!)),
    progress: leafProgress(after, rootId),
    actual_hours: task.actual_hours,
  };
}
