import { asc, count, eq } from "drizzle-orm";
import type { z } from "zod";
import {
  type addNoteInput,
  NOTES_PER_TASK_MAX,
  type TaskNote,
  type TaskNotes,
} from "../../../shared/schemas/notes";
import { taskNotes } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { getOwnedRow } from "../../plan/owned";
import type { ApiTokenUse } from "../auth/sessions";

function toNote(row: typeof taskNotes.$inferSelect): TaskNote {
  return {
    id: row.id,
    task_id: row.taskId,
    body: row.body,
    token_name: row.tokenName,
    created_at: row.createdAt.toISOString(),
  };
}

/** A task's notes, oldest first. */
export async function listNotes(deps: Deps, userId: string, id: string): Promise<TaskNotes> {
  const task = await getOwnedRow(deps, userId, id);
  const rows = await deps.db
    .select()
    .from(taskNotes)
    .where(eq(taskNotes.taskId, task.id))
    .orderBy(asc(taskNotes.createdAt), asc(taskNotes.id));
  return { task_id: task.id, notes: rows.map(toNote) };
}

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
  const task = await getOwnedRow(deps, userId, id);
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
  const [row] = await deps.db
    .insert(taskNotes)
    .values({ taskId: task.id, rootTaskId: rootId, body: input.body, tokenName: via?.name ?? null })
    .returning();
  await deps.events.publish({
    type: "task.updated",
    userId,
    taskId: task.id,
    rootTaskId: rootId,
    data: { notes_changed: true },
  });
  return toNote(row!);
}
