import { and, eq } from "drizzle-orm";
import type { z } from "zod";
import type { rejectTaskInput, resubmitTaskInput, Task } from "../../../shared/schemas/tasks";
import { tasks } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { queuePlan, resumePlan, stopPlan } from "../../engine/jobs";
import { AppError } from "../../errors";
import { recordActivity } from "../../plan/activity";
import { getOwnedRow } from "../../plan/owned";
import type { UserRow } from "../auth/sessions";
import { countMonthlyUse, monthlyUseApplies } from "./allowance";
import { getTask } from "./read";

/**
 * Review before commit (requires_approval): the pipeline stops after the first-level plan with status
 * `submitted`; the owner approves (decomposition continues), rejects with a reason, or resubmits a
 * rejected task with an edited description.
 */
export async function approveTask(deps: Deps, user: UserRow, id: string): Promise<Task> {
  const row = await getOwnedRow(deps, user.id, id);
  if (row.parentId || row.status !== "submitted") {
    throw new AppError("CONFLICT", "Only a plan waiting for review can be approved.");
  }
  await deps.db.transaction(async (tx) => {
    const updated = await tx
      .update(tasks)
      .set({
        status: "processing",
        options: { ...(row.options ?? {}), approved_at: new Date().toISOString(), approved_by: user.id },
        updatedAt: new Date(),
      })
      .where(and(eq(tasks.id, id), eq(tasks.status, "submitted")))
      .returning({ id: tasks.id });
    if (updated.length === 0)
      throw new AppError("CONFLICT", "Only a plan waiting for review can be approved.");
    const first = await tx.select().from(tasks).where(eq(tasks.parentId, id));
    await resumePlan(
      deps.jobs,
      id,
      first.filter((t) => !t.isAtomic).map((t) => t.id),
      tx,
    );
    await recordActivity(tx, {
      rootId: id,
      taskId: id,
      kind: "review",
      summary: "approved the first level of the plan: planning goes on",
    });
  });
  const who = user.fullName || user.email;
  await deps.events.publish({
    type: "task.approved",
    userId: user.id,
    taskId: id,
    rootTaskId: id,
    status: "processing",
    message: `Task approved: ${id} by ${who}`,
    data: { approved_by: who },
  });
  await deps.events.publish({
    type: "task.status_changed",
    userId: user.id,
    taskId: id,
    rootTaskId: id,
    status: "processing",
  });
  return getTask(deps, user.id, id);
}

export async function rejectTask(
  deps: Deps,
  user: UserRow,
  id: string,
  input: z.output<typeof rejectTaskInput>,
): Promise<Task> {
  const row = await getOwnedRow(deps, user.id, id);
  if (row.parentId || !["submitted", "processing", "pending"].includes(row.status)) {
    throw new AppError(
      "CONFLICT",
      "Only a plan waiting for review or still being decomposed can be rejected.",
    );
  }
  await deps.db.transaction(async (tx) => {
    await stopPlan(deps.jobs, id, tx);
    await tx
      .update(tasks)
      .set({ status: "rejected", rejectionReason: input.reason, updatedAt: new Date() })
      .where(eq(tasks.id, id));
    await recordActivity(tx, {
      rootId: id,
      taskId: id,
      kind: "review",
      summary: `rejected the plan: “${input.reason.slice(0, 200)}”`,
    });
  });
  await deps.events.publish({
    type: "task.rejected",
    userId: user.id,
    taskId: id,
    rootTaskId: id,
    status: "rejected",
    message: `Task rejected: ${input.reason}`,
    data: { reason: input.reason },
  });
  return getTask(deps, user.id, id);
}

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
