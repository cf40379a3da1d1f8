import { eq } from "drizzle-orm";
import type { z } from "zod";
import type { resubmitTaskInput, Task } from "../../../shared/schemas/tasks";
import { tasks } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { queuePlan } from "../../engine/jobs";
import { AppError } from "../../errors";
import { recordActivity } from "../../plan/activity";
import { getOwnedRow } from "../../plan/owned";
import type { UserRow } from "../auth/sessions";
import { countMonthlyUse, monthlyUseApplies } from "./allowance";
import { getTask } from "./get-task";

export async function resubmitTask(
  deps: Deps,
  user: UserRow,
  id: string,
  input: z.output<typeof resubmitTaskInput>,
): Promise<Task> {
  const row = await getOwnedRow(deps, user.id, id);
  if (row.parentId || row.status !== "rejected")
    throw new AppError("CONFLICT", "Only a rejected task can be resubmitted.");
  const applies = await monthlyUseApplies(deps, user.id);
  await deps.db.transaction(async (tx) => {
    // A resubmitted plan is decomposed again from scratch: one more use of the monthly allowance.
    await countMonthlyUse(tx, user.id, { applies, allPlanning: deps.config.MONTHLY_LIMIT_ALL_PLANNING });
    await tx.delete(tasks).where(eq(tasks.parentId, id));
    const { approved_at: _a, approved_by: _b, ...options } = row.options ?? {};
    await tx
      .update(tasks)
      .set({
        description: input.description,
        status: "pending",
        rejectionReason: null,
        failureReason: null,
        complexityScore: null,
        storyPoints: null,
        implementationDetails: null,
        options,
        updatedAt: new Date(),
      })
      .where(eq(tasks.id, id));
    await queuePlan(deps.jobs, id, tx);
    await recordActivity(tx, {
      rootId: id,
      taskId: id,
      kind: "review",
      summary: "resubmitted the plan with a new description: it is planned again",
    });
  });
  // Read at once, as restarting does: the decomposition's worker is woken by the commit.
  const task = await getTask(deps, user.id, id);
  await deps.events.publish({
    type: "task.rejected",
    userId: user.id,
    taskId: id,
    rootTaskId: id,
    status: "pending",
    message: "Task rejected and resubmitted",
    data: { reason: row.rejectionReason, new_description: input.description },
  });
  return task;
}
