import { eq } from "drizzle-orm";
import type { z } from "zod";
import type { editNoteInput, TaskNote } from "../../../shared/schemas/notes";
import { taskNotes } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { quoted, recordActivity } from "../../plan/activity";
import { announceNotes, noteColumns, notifyMentions, ownNote, toNote } from "./notes";

/** The author changes their comment; a new mention in it is told, one already there is not again. */
export async function editNote(
  deps: Deps,
  userId: string,
  id: string,
  noteId: string,
  input: z.output<typeof editNoteInput>,
): Promise<TaskNote> {
  const { task, note } = await ownNote(deps, userId, id, noteId);
  if (note.authorId !== userId) throw new AppError("FORBIDDEN", "Only its author changes a comment.");
  const rootId = task.rootTaskId ?? task.id;
  await deps.db.transaction(async (tx) => {
    await tx
      .update(taskNotes)
      .set({ body: input.body, editedAt: new Date() })
      .where(eq(taskNotes.id, note.id));
    await recordActivity(tx, {
      rootId,
      taskId: task.id,
      kind: "comment",
      summary: `edited a comment on ${quoted(task.description)}`,
    });
  });
  await announceNotes(deps, userId, task.id, rootId);
  await notifyMentions(deps, { userId, task, rootId, body: input.body, before: note.body });
  const [saved] = await deps.db.select(noteColumns).from(taskNotes).where(eq(taskNotes.id, note.id));
  return toNote(saved!);
}
