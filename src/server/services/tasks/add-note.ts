import { count, eq } from "drizzle-orm";
import type { z } from "zod";
import { type addNoteInput, NOTES_PER_TASK_MAX, type TaskNote } from "../../../shared/schemas/notes";
import { taskNotes } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { quoted, recordActivity } from "../../plan/activity";
import { getOwnedRow } from "../../plan/owned";
import type { ApiTokenUse } from "../auth/sessions";
import { announceNotes, noteColumns, notifyMentions, toNote } from "./notes";

/**
 * Appends a timestamped note to a task (at most NOTES_PER_TASK_MAX per task), signed with the token's
 * name when a script or agent wrote it; open tabs of the plan hear of it.
 */
export async function addNote(
  deps: Deps,
  userId: string,
  id: string,
  input: z.output<typeof addNoteInput>,
  via: ApiTokenUse | null,
): Promise<TaskNote> {
  // A team's viewers comment too (issue 41): a comment is not a change to the plan.
  const task = await getOwnedRow(deps, userId, id, "read");
  const rootId = task.rootTaskId ?? task.id;
  const [{ n } = { n: 0 }] = await deps.db
    .select({ n: count() })
    .from(taskNotes)
    .where(eq(taskNotes.taskId, task.id));
  if (n >= NOTES_PER_TASK_MAX) {
    throw new AppError(
      "UNPROCESSABLE_CONTENT",
      `This task already has ${NOTES_PER_TASK_MAX} notes, the most it keeps.`,
    );
  }
  const row = await deps.db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(taskNotes)
      .values({
        taskId: task.id,
        rootTaskId: rootId,
        body: input.body,
        tokenName: via?.name ?? null,
        authorId: userId,
      })
      .returning();
    await recordActivity(tx, {
      rootId,
      taskId: task.id,
      kind: "comment",
      summary: `commented on ${quoted(task.description)}: “${excerpt(input.body)}”`,
    });
    return inserted;
  });
  await announceNotes(deps, userId, task.id, rootId);
  await notifyMentions(deps, { userId, task, rootId, body: input.body, before: "" });
  const [saved] = await deps.db.select(noteColumns).from(taskNotes).where(eq(taskNotes.id, row!.id));
  return toNote(saved!);
}

/** A comment's words as the activity quotes them: one line, at most 120 characters. */
function excerpt(body: string): string {
  const line = body.replace(/\s+/g, " ").trim();
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}
