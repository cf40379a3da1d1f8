import { and, eq } from "drizzle-orm";
import { UUID_PATTERN } from "../../../shared/ids";
import { taskDependencies, tasks } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { getOwnedRow, taskNotFound } from "../../plan/owned";
import { beginRevision, recordRevision, revisionTitle } from "../../plan/revisions";
import { publishOrderChange } from "./dependencies";

/** Removes "taskId waits for dependsOnId"; 404 when the task is not the caller's or has no such dependency. */
export async function removeDependency(
  deps: Deps,
  userId: string,
  taskId: string,
  dependsOnId: string,
): Promise<void> {
  const task = await getOwnedRow(deps, userId, taskId);
  if (!UUID_PATTERN.test(dependsOnId)) throw taskNotFound();
  const rootId = task.rootTaskId ?? task.id;
  await deps.db.transaction(async (tx) => {
    await beginRevision(tx, rootId);
    const removed = await tx
      .delete(taskDependencies)
      .where(and(eq(taskDependencies.taskId, task.id), eq(taskDependencies.dependsOnId, dependsOnId)))
      .returning({ taskId: taskDependencies.taskId });
    if (removed.length === 0) throw new AppError("NOT_FOUND", "This task does not depend on that task.");
    const [other] = await tx
      .select({ description: tasks.description })
      .from(tasks)
      .where(eq(tasks.id, dependsOnId));
    await recordRevision(tx, {
      rootId,
      taskId: task.id,
      kind: "dependency",
      summary: `Let ${revisionTitle(task.description)} go ahead without ${revisionTitle(other?.description ?? "a task")}`,
    });
  });
  await publishOrderChange(deps, userId, task.id, task.rootTaskId ?? task.id, "Dependency removed");
}
