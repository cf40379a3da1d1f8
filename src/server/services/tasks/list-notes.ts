import type { TaskNotes } from "../../../shared/schemas/notes";
import type { Deps } from "../../deps";
import { getOwnedRow } from "../../plan/owned";
import { notesOf } from "./notes";

/** A task's notes, oldest first. */
export async function listNotes(deps: Deps, userId: string, id: string): Promise<TaskNotes> {
  const task = await getOwnedRow(deps, userId, id, "read");
  return { task_id: task.id, notes: await notesOf(deps, task.id) };
}
