import { and, eq } from "drizzle-orm";
import type { Task } from "../../../shared/schemas/tasks";
import { tasks } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { resumePlan } from "../../engine/jobs";
import { AppError } from "../../errors";
import { recordActivity } from "../../plan/activity";
import { getOwnedRow } from "../../plan/owned";
import type { UserRow } from "../auth/sessions";
import { getTask } from "./get-task";

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
