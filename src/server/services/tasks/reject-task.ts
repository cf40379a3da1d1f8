import { eq } from "drizzle-orm";
import type { z } from "zod";
import type { rejectTaskInput, Task } from "../../../shared/schemas/tasks";
import { tasks } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { stopPlan } from "../../engine/jobs";
import { AppError } from "../../errors";
import { recordActivity } from "../../plan/activity";
import { getOwnedRow } from "../../plan/owned";
import type { UserRow } from "../auth/sessions";
import { getTask } from "./get-task";

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
