import { and, eq } from "drizzle-orm";
import { UUID_PATTERN } from "../../shared/ids";
import { tasks } from "../db/schema/index";
import type { Deps } from "../deps";
import { AppError } from "../errors";
import type { TaskRow } from "./rows";

export const TASK_NOT_FOUND = "Task not found";

/** The caller's task, or 404 whether it does not exist or is someone else's. */
export async function getOwnedRow(deps: Deps, userId: string, id: string): Promise<TaskRow> {
  if (!UUID_PATTERN.test(id)) throw new AppError("NOT_FOUND", TASK_NOT_FOUND);
  const [row] = await deps.db
    .select()
    .from(tasks)
    .where(and(eq(tasks.id, id), eq(tasks.userId, userId)))
    .limit(1);
  if (!row) throw new AppError("NOT_FOUND", TASK_NOT_FOUND);
  return row;
}
