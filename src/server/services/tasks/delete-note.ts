import { eq } from "drizzle-orm";
import type { TaskNotes } from "../../../shared/schemas/notes";
import { taskNotes } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { quoted, recordActivity } from "../../plan/activity";
import { roleIn } from "../teams/teams";
import { listNotes } from "./list-notes";
import { announceNotes, ownNote } from "./notes";

/** Deletes a comment: its author, the plan's creator, or an owner or admin of the plan's team. */
export async function deleteNote(deps: Deps, userId: string, id: string, noteId: string): Promise<TaskNotes> {
  const { task, note } = await ownNote(deps, userId, id, noteId);
  if (note.authorId !== userId && task.userId !== userId) {
    const role = task.teamId ? await roleIn(deps, userId, task.teamId).catch(() => null) : null;
    if (role !== "owner" && role !== "admin")
      throw new AppError(
        "FORBIDDEN",
        "Only its author, or an owner or admin of the team, deletes a comment.",
      );
  }
  const rootId = task.rootTaskId ?? task.id;
  await deps.db.transaction(async (tx) => {
    await tx.delete(taskNotes).where(eq(taskNotes.id, note.id));
    await recordActivity(tx, {
      rootId,
      taskId: task.id,
      kind: "comment",
      summary: `deleted ${note.authorId === userId ? "their" : "a"} comment on ${quoted(task.description)}`,
    });
  });
  await announceNotes(deps, userId, task.id, rootId);
  return listNotes(deps, userId, id);
}
