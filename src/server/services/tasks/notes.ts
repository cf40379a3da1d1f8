import { and, asc, eq, getTableColumns, sql } from "drizzle-orm";
import { UUID_PATTERN } from "../../../shared/ids";
import type { TaskNote } from "../../../shared/schemas/notes";
import { taskTitle } from "../../../shared/task-title";
import { taskNotes, teamMembers, users } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { escapeHtml } from "../../lib/escape-html";
import { getOwnedRow } from "../../plan/owned";
import type { TaskRow } from "../../plan/rows";
import { commentHtml, mentionsIn } from "./comment-text";

type NoteRow = typeof taskNotes.$inferSelect & { authorName: string | null };

export function toNote(row: NoteRow): TaskNote {
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

export const noteColumns = {
  ...getTableColumns(taskNotes),
  authorName: sql<string | null>`(select coalesce(nullif(trim(u.full_name), ''), u.username) from users u
    where u.id = ${taskNotes.authorId})`,
};

/** The comments on a task, oldest first; the caller has checked that its user may read the task. */
export async function notesOf(deps: Deps, taskId: string): Promise<TaskNote[]> {
  const rows = await deps.db
    .select(noteColumns)
    .from(taskNotes)
    .where(eq(taskNotes.taskId, taskId))
    .orderBy(asc(taskNotes.createdAt), asc(taskNotes.id));
  return rows.map(toNote);
}

export async function ownNote(deps: Deps, userId: string, id: string, noteId: string) {
  const task = await getOwnedRow(deps, userId, id, "read");
  if (!UUID_PATTERN.test(noteId)) throw new AppError("NOT_FOUND", "Comment not found");
  const [note] = await deps.db
    .select()
    .from(taskNotes)
    .where(and(eq(taskNotes.id, noteId), eq(taskNotes.taskId, task.id)));
  if (!note) throw new AppError("NOT_FOUND", "Comment not found");
  return { task, note };
}

/**
 * Tells each member of the plan's team the comment names by @handle, once per comment: in the app (their
 * own channel) and by e-mail, with a link. A member's handles are their name without spaces, their first
 * name, and their address's local part, lower-cased; a handle two members share names neither.
 */
export async function notifyMentions(
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

/** Tells every open view of the plan that a task's comments changed (its Notes refetch). */
export function announceNotes(deps: Deps, userId: string, taskId: string, rootId: string) {
  return deps.events.publish({
    type: "task.updated",
    userId,
    taskId,
    rootTaskId: rootId,
    data: { notes_changed: true },
  });
}
