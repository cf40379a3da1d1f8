import { and, asc, eq, inArray } from "drizzle-orm";
import type { TrackerChange, TrackerChanges } from "../../../shared/schemas/tracker-changes";
import { taskTitle } from "../../../shared/task-title";
import { remoteItems, tasks, trackerChanges } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { getOwnedRow } from "../../plan/owned";
import { words } from "./tracker-changes";

/** The open changes of the caller's plan, oldest first, in words ready to show. */
export async function listTrackerChanges(deps: Deps, userId: string, id: string): Promise<TrackerChanges> {
  const row = await getOwnedRow(deps, userId, id);
  const rootId = row.rootTaskId ?? row.id;
  const open = await deps.db
    .select({ change: trackerChanges, taskId: remoteItems.taskId })
    .from(trackerChanges)
    .leftJoin(remoteItems, eq(remoteItems.id, trackerChanges.remoteItemId))
    .where(and(eq(trackerChanges.rootTaskId, rootId), eq(trackerChanges.status, "open")))
    .orderBy(asc(trackerChanges.changedAt), asc(trackerChanges.createdAt));
  // Parents are named by their tasks' titles; items there by the tasks they were made for.
  const items = await deps.db
    .select({
      remoteId: remoteItems.remoteId,
      kind: remoteItems.kind,
      target: remoteItems.target,
      taskId: remoteItems.taskId,
    })
    .from(remoteItems)
    .where(eq(remoteItems.rootTaskId, rootId));
  const taskIds = [
    ...new Set([...open.map((o) => o.taskId), ...items.map((i) => i.taskId)].filter((t): t is string => !!t)),
  ];
  const titles = new Map<string, string>();
  if (taskIds.length) {
    const rows = await deps.db
      .select({ id: tasks.id, description: tasks.description })
      .from(tasks)
      .where(inArray(tasks.id, taskIds));
    for (const t of rows) titles.set(t.id, taskTitle(t.description, 200));
  }
  const changes: TrackerChange[] = open.map(({ change: c, taskId }) => {
    const names = new Map<string, string>();
    for (const i of items)
      if (i.kind === c.kind && i.target === c.target && i.taskId)
        names.set(i.remoteId, titles.get(i.taskId) ?? i.remoteId);
    return {
      id: c.id,
      service: c.kind,
      key: c.remoteKey,
      url: c.url,
      field: c.field,
      task_id: taskId ?? null,
      task_title: taskId ? (titles.get(taskId) ?? null) : null,
      theirs: words(c.field, c.theirs, names),
      ours: c.field === "added" ? "Not in the plan" : words(c.field, c.ours, names),
      conflict: c.conflict,
      changed_at: c.changedAt.toISOString(),
    };
  });
  return { project_id: rootId, changes };
}
