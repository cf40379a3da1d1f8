import { and, eq, sql } from "drizzle-orm";
import { UUID_PATTERN } from "../../../shared/ids";
import type { Task } from "../../../shared/schemas/tasks";
import { remoteItems, tasks } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { taskNotFound, visibleTo } from "../../plan/owned";
import { dependsOnLists } from "../../plan/rows";
import { childrenCount, descendantsCount, loadRootExtras, remoteLinks } from "./read";
import { toTask } from "./serialize";

export async function getTask(deps: Deps, userId: string, id: string): Promise<Task> {
  if (!UUID_PATTERN.test(id)) throw taskNotFound();
  const [r] = await deps.db
    .select({
      row: tasks,
      children: childrenCount,
      descendants: descendantsCount,
      role: sql<string | null>`(select m.role from team_members m
        where m.team_id = ${tasks.teamId} and m.user_id = ${userId})`,
    })
    .from(tasks)
    .where(and(eq(tasks.id, id), visibleTo(userId)))
    .limit(1);
  if (!r) throw taskNotFound();
  const [extras, dependsOn, remote] = await Promise.all([
    r.row.parentId === null ? loadRootExtras(deps, r.row.id) : null,
    dependsOnLists(deps.db, [r.row.id]),
    remoteLinks(deps.db, eq(remoteItems.taskId, r.row.id)),
  ]);
  const task = toTask(
    r.row,
    {
      children: r.children,
      descendants: r.descendants,
      dependsOn: dependsOn.get(r.row.id) ?? [],
      remote: remote.get(r.row.id) ?? [],
    },
    extras,
  );
  // The caller's own right, on this answer only (a tree is shared by everyone who reads it).
  task.can_edit = r.row.userId === userId || r.role !== "viewer";
  return task;
}
