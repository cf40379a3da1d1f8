import { and, asc, count, eq, getTableColumns, sql } from "drizzle-orm";
import type { z } from "zod";
import { UUID_PATTERN } from "../../../shared/ids";
import {
  type addNoteInput,
  type editNoteInput,
  NOTES_PER_TASK_MAX,
  type TaskNote,
  type TaskNotes,
} from "../../../shared/schemas/notes";
import { taskTitle } from "../../../shared/task-title";
import { taskNotes, teamMembers, users } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { escapeHtml } from "../../lib/escape-html";
import { quoted, recordActivity } from "../../plan/activity";
import { getOwnedRow } from "../../plan/owned";
import type { TaskRow } from "../../plan/rows";
import type { ApiTokenUse } from "../auth/sessions";
import { roleIn } from "../teams/teams";
import { commentHtml, mentionsIn } from "./comment-text";

type NoteRow = typeof taskNotes.$inferSelect & { authorName: string | null };

function toNote(row: NoteRow): TaskNote {
  return {
    id: row.id,
    task_id: row.taskId,
    body: row.body,
    html: commentHtml(row.body),
    token_name: row.tokenName,
    author_id: row.authorId,
    author_name: row.authorName,
    created_at: row.createdAt.toISOString(),
    edited_at: row.editedAt ? row.editedAt.toISOString() : null,
  };
}

const noteColumns = {
  ...getTableColumns(taskNotes),
  authorName: sql<string | null>`(select coalesce(nullif(trim(u.full_name), ''), u.username) from users u
    where u.id = ${taskNotes.authorId})`,
};

/** A task's notes, oldest first. */
export async function listNotes(deps: Deps, userId: string, id: string): Promise<TaskNotes> {
  const task = await getOwnedRow(deps, userId, id, "read");
  return { task_id: task.id, notes: await notesOf(deps, task.id) };
}

/** The comments on a task, oldest first; the caller has checked that its user may read the task. */
export async function notesOf(deps: Deps, taskId: string): Promise<TaskNote[]> {
  const rows = await deps.db
    .select(noteColumns)
    .from(taskNotes)
    .where(eq(taskNotes.taskId, taskId))
    .orderBy(asc(taskNotes.createdAt), asc(taskNotes.id));
  return rows.map(toNote);
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

async function ownNote(deps: Deps, userId: string, id: string, noteId: string) {
  const task = await getOwnedRow(deps, userId, id, "read");
  if (!UUID_PATTERN.test(noteId)) throw new AppError("NOT_FOUND", "Comment not found");
  const [note] = await deps.db
    .select()
    .from(taskNotes)
    .where(and(eq(taskNotes.id, noteId), eq(taskNotes.taskId, task.id)));
  if (!note) throw new AppError("NOT_FOUND", "Comment not found");
  return { task, note };
}

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

/**
 * Tells each member of the plan's team the comment names by @handle, once per comment: in the app (their
 * own channel) and by e-mail, with a link. A member's handles are their name without spaces, their first
 * name, and their address's local part, lower-cased; a handle two members share names neither.
 */
async function notifyMentions(
  deps: Deps,
  c: { userId: string; task: TaskRow; rootId: string; body: string; before: string },
) {
  if (!c.task.teamId) return;
  const already = new Set(mentionsIn(c.before));
  const named = mentionsIn(c.body).filter((m) => !already.has(m));
  if (named.length === 0) return;
  const members = await deps.db
    .select({ id: users.id, fullName: users.fullName, email: users.email })
    .from(teamMembers)
    .innerJoin(users, eq(users.id, teamMembers.userId))
    .where(eq(teamMembers.teamId, c.task.teamId));
  const owners = new Map<string, Set<string>>();
  for (const m of members) {
    const name = m.fullName.trim().toLowerCase();
    for (const handle of [
      name.replace(/\s+/g, ""),
      name.split(/\s+/)[0] ?? "",
      m.email.split("@")[0]!.toLowerCase(),
    ]) {
      if (!handle) continue;
      owners.set(handle, (owners.get(handle) ?? new Set()).add(m.id));
    }
  }
  const author = members.find((m) => m.id === c.userId)?.fullName.trim() || "Someone";
  const title = taskTitle(c.task.description, 80);
  const url = `${deps.config.publicOrigin}/tasks/${c.rootId}?tab=subtasks`;
  const told = new Set<string>();
  for (const handle of named) {
    const ids = owners.get(handle);
    if (ids?.size !== 1) continue;
    const [memberId] = [...ids];
    if (memberId === c.userId || told.has(memberId!)) continue;
    told.add(memberId!);
    const member = members.find((m) => m.id === memberId)!;
    await deps.events.publish({
      type: "comment.mentioned",
      userId: member.id,
      taskId: c.task.id,
      rootTaskId: c.rootId,
      message: `${author} mentioned you on “${title}”`,
      data: { url },
    });
    await deps.mailer
      .send({
        to: member.email,
        subject: `${author} mentioned you on “${title}”`,
        text: `${author} mentioned you in a comment on “${title}”:\n\n${c.body.slice(0, 2000)}\n\nOpen it: ${url}`,
        html: `<p>${escapeHtml(author)} mentioned you in a comment on “${escapeHtml(title)}”:</p>${commentHtml(c.body.slice(0, 2000))}<p><a href="${escapeHtml(url)}">Open it</a></p>`,
      })
      .catch((err: unknown) => deps.log.warn("could not send a mention e-mail", { err }));
  }
}

/** A comment's words as the activity quotes them: one line, at most 120 characters. */
function excerpt(body: string): string {
  const line = body.replace(/\s+/g, " ").trim();
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}

/** Tells every open view of the plan that a task's comments changed (its Notes refetch). */
function announceNotes(deps: Deps, userId: string, taskId: string, rootId: string) {
  return deps.events.publish({
    type: "task.updated",
    userId,
    taskId,
    rootTaskId: rootId,
    data: { notes_changed: true },
  });
}
