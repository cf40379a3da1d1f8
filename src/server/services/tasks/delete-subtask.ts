import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { getOwnedRow } from "../../plan/owned";
import { deleteTask } from "./delete-task";

export async function deleteSubtask(deps: Deps, userId: string, id: string): Promise<{ deleted: number }> {
  const row = await getOwnedRow(deps, userId, id);
  if (!row.parentId) {
    throw new AppError(
      "BAD_REQUEST",
      "The root task cannot be deleted as a subtask. Delete the task instead.",
    );
  }
  return deleteTask(deps, userId, id);
}
