import { eq } from "drizzle-orm";
import type { Task } from "../../../shared/schemas/tasks";
import { tasks } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { getOwnedRow } from "../../plan/owned";
import { getTask } from "./get-task";

/**
 * Unlocks a task for re-plans: forgets that a person edited it and that an export created it elsewhere.
 * A completed task stays locked: reopen it to let a re-plan change it.
 */
export async function unlockTask(deps: Deps, userId: string, id: string): Promise<Task> {
  const row = await getOwnedRow(deps, userId, id);
  await deps.db
    .update(tasks)
    .set({ editedAt: null, exportedAt: null, updatedAt: new Date() })
    .where(eq(tasks.id, row.id));
  const task = await getTask(deps, userId, id);
  await deps.events.publish({
    type: "task.updated",
    userId,
    taskId: row.id,
    rootTaskId: row.rootTaskId ?? row.id,
    status: task.status,
    message: "Task unlocked",
  });
  return task;
}
