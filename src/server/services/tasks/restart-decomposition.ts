import { eq } from "drizzle-orm";
import type { Task } from "../../../shared/schemas/tasks";
import { epics, eventModels, tasks, userStories } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { queueNodeSplit, queuePlan, stopPlan } from "../../engine/jobs";
import { AppError } from "../../errors";
import { refreshAttentionWarning } from "../../plan/attention";
import { getOwnedRow } from "../../plan/owned";
import { countMonthlyUse, monthlyUseApplies } from "./allowance";
import { getTask } from "./get-task";

/**
 * Drops what a decomposition produced below a task and runs it again (stopping any run in progress).
 * On a subtask, only its own subtree is redone. Uses one of the monthly allowance, like a new task.
 */
export async function restartDecomposition(deps: Deps, userId: string, id: string): Promise<Task> {
  const row = await getOwnedRow(deps, userId, id);
  const root = row.rootTaskId ? await getOwnedRow(deps, userId, row.rootTaskId) : row;
  if (root.status === "awaiting_review") {
    // Nothing was planned yet: the project starts when its owner plans it from the checked reading.
    throw new AppError(
      "CONFLICT",
      "This project has not been planned yet: check its reading and plan it (POST /api/tasks/{id}/plan).",
    );
  }
  const rootId = row.rootTaskId ?? row.id;
  const applies = await monthlyUseApplies(deps, userId);
  await deps.db.transaction(async (tx) => {
    await countMonthlyUse(tx, userId, { applies, allPlanning: deps.config.MONTHLY_LIMIT_ALL_PLANNING });
    // A project's run stops first, so no split of it commits between the delete and the restart.
    if (!row.parentId) await stopPlan(deps.jobs, id, tx);
    await tx.delete(tasks).where(eq(tasks.parentId, id));
    if (!row.parentId) {
      await tx.delete(epics).where(eq(epics.rootTaskId, id));
      await tx.delete(userStories).where(eq(userStories.rootTaskId, id));
      await tx.delete(eventModels).where(eq(eventModels.rootTaskId, id));
      const { approved_at: _dropped, ...options } = row.options ?? {};
      await tx
        .update(tasks)
        .set({
          status: "pending",
          rejectionReason: null,
          failureReason: null,
          isAtomic: false,
          completedAt: null,
          complexityScore: null,
          storyPoints: null,
          implementationDetails: null,
          predictions: null,
          warnings: [],
          options,
          updatedAt: new Date(),
        })
        .where(eq(tasks.id, id));
      await queuePlan(deps.jobs, id, tx);
    } else {
      await tx
        .update(tasks)
        .set({
          isAtomic: false,
          completedAt: null,
          needsAttention: false,
          attentionReason: null,
          updatedAt: new Date(),
        })
        .where(eq(tasks.id, id));
      // Flags in the dropped subtree went with it: the root's warning counts what is left.
      await refreshAttentionWarning(tx, rootId);
      await queueNodeSplit(deps.jobs, rootId, id, tx);
    }
  });
  const task = await getTask(deps, userId, id);
  await deps.events.publish({
    type: "task.updated",
    userId,
    taskId: id,
    rootTaskId: rootId,
    status: task.status,
    message: "Decomposition restarted",
  });
  return task;
}
