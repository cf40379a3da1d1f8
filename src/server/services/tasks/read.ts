import { and, asc, count, desc, eq, isNull, or, type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import { UUID_PATTERN } from "../../../shared/ids";
import {
  type listTasksInput,
  type RemoteLink,
  statsGroupOf,
  type statsInput,
  type Task,
  type TaskList,
  type TaskStats,
  type TaskTreeNode,
} from "../../../shared/schemas/tasks";
import { epics, eventModels, remoteItems, taskDependencies, tasks, userStories } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { PlanGraph, rollups } from "../../plan/graph";
import { getOwnedRow, TASK_NOT_FOUND } from "../../plan/owned";
import { loadLeafProgress, progressOf } from "../../plan/progress";
import type { TaskRow } from "../../plan/rows";
import { dependsOnLists, planNodeOf } from "../../plan/rows";
import { type RootExtras, toTask } from "./serialize";

/** Reading tasks: lists, one task, its tree and the dashboard's counts. */

const notFound = () => new AppError("NOT_FOUND", TASK_NOT_FOUND);

// Counts computed by correlated subqueries on indexed columns, so a page of tasks is one query. The
// outer row is named explicitly: drizzle renders a bare column unqualified, which would bind to the
// subquery's own table.
const outer = (column: string) => sql.raw(`"tasks"."${column}"`);
const childrenCount = sql<number>`(select count(*)::int from ${tasks} c where c.parent_id = ${outer("id")})`;
const descendantsCount = sql<number>`(case when ${outer("parent_id")} is null
  then (select count(*)::int from ${tasks} d where d.root_task_id = ${outer("id")})
  else (with recursive sub(id) as (
          select s.id from ${tasks} s where s.parent_id = ${outer("id")}
          union all select x.id from ${tasks} x join sub on x.parent_id = sub.id)
        select count(*)::int from sub) end)`;

async function loadRootExtras(deps: Deps, rootId: string): Promise<RootExtras> {
  const [e, s, m] = await Promise.all([
    deps.db.select().from(epics).where(eq(epics.rootTaskId, rootId)).orderBy(asc(epics.position)),
    deps.db
      .select()
      .from(userStories)
      .where(eq(userStories.rootTaskId, rootId))
      .orderBy(asc(userStories.position)),
    deps.db.select().from(eventModels).where(eq(eventModels.rootTaskId, rootId)).limit(1),
  ]);
  return { epics: e, stories: s, eventModel: m[0] ?? null };
}

export async function listTasks(
  deps: Deps,
  userId: string,
  input: z.output<typeof listTasksInput>,
): Promise<TaskList> {
  const where = input.top_level_only
    ? and(eq(tasks.userId, userId), isNull(tasks.parentId))
    : eq(tasks.userId, userId);
  const rows = await deps.db
    .select({
      row: tasks,
      children: childrenCount,
      descendants: descendantsCount,
      total: sql<number>`count(*) over ()::int`,
    })
    .from(tasks)
    .where(where)
    .orderBy(desc(tasks.createdAt), desc(tasks.id))
    .limit(input.page_size)
    .offset((input.page - 1) * input.page_size);
  const total = rows[0]?.total ?? (await deps.db.select({ n: count() }).from(tasks).where(where))[0]!.n;
  const [dependsOn, progress] = await Promise.all([
    dependsOnLists(
      deps.db,
      rows.map((r) => r.row.id),
    ),
    loadLeafProgress(
      deps.db,
      userId,
      rows.map((r) => r.row),
    ),
  ]);
  return {
    tasks: rows.map((r) => ({
      ...toTask(r.row, {
        children: r.children,
        descendants: r.descendants,
        dependsOn: dependsOn.get(r.row.id) ?? [],
      }),
      progress: progress.get(r.row.id) ?? progressOf(0, 0),
    })),
    total,
    page: input.page,
    page_size: input.page_size,
  };
}

export async function getTask(deps: Deps, userId: string, id: string): Promise<Task> {
  if (!UUID_PATTERN.test(id)) throw notFound();
  const [r] = await deps.db
    .select({ row: tasks, children: childrenCount, descendants: descendantsCount })
    .from(tasks)
    .where(and(eq(tasks.id, id), eq(tasks.userId, userId)))
    .limit(1);
  if (!r) throw notFound();
  const [extras, dependsOn, remote] = await Promise.all([
    r.row.parentId === null ? loadRootExtras(deps, r.row.id) : null,
    dependsOnLists(deps.db, [r.row.id]),
    remoteLinks(deps.db, eq(remoteItems.taskId, r.row.id)),
  ]);
  return toTask(
    r.row,
    {
      children: r.children,
      descendants: r.descendants,
      dependsOn: dependsOn.get(r.row.id) ?? [],
      remote: remote.get(r.row.id) ?? [],
    },
    extras,
  );
}

/** What exports made, per task (for the tree's links). */
async function remoteLinks(db: Deps["db"], where: SQL): Promise<Map<string, RemoteLink[]>> {
  const rows = await db
    .select({
      taskId: remoteItems.taskId,
      kind: remoteItems.kind,
      key: remoteItems.remoteKey,
      url: remoteItems.url,
      status: remoteItems.remoteStatus,
    })
    .from(remoteItems)
    .where(where)
    .orderBy(asc(remoteItems.createdAt));
  const out = new Map<string, RemoteLink[]>();
  for (const r of rows) {
    if (!r.taskId) continue;
    const list = out.get(r.taskId) ?? [];
    list.push({ kind: r.kind, key: r.key, url: r.url, status: r.status });
    out.set(r.taskId, list);
  }
  return out;
}

/** The tree below (and including) a task: every node of its root loads in one indexed query. */
export async function getTaskTree(deps: Deps, userId: string, id: string): Promise<TaskTreeNode> {
  const target = await getOwnedRow(deps, userId, id);
  const rootId = target.rootTaskId ?? target.id;
  const [rows, extras, edges, remote] = await Promise.all([
    deps.db
      .select()
      .from(tasks)
      .where(and(eq(tasks.userId, userId), or(eq(tasks.id, rootId), eq(tasks.rootTaskId, rootId))))
      .orderBy(asc(tasks.depth), asc(tasks.position), asc(tasks.createdAt)),
    loadRootExtras(deps, rootId),
    deps.db
      .select({ taskId: taskDependencies.taskId, dependsOnId: taskDependencies.dependsOnId })
      .from(taskDependencies)
      .where(eq(taskDependencies.rootTaskId, rootId))
      .orderBy(asc(taskDependencies.createdAt)),
    remoteLinks(deps.db, eq(remoteItems.rootTaskId, rootId)),
  ]);
  return buildTree(rows, target.id, extras, edges, remote);
}

/**
 * Assembles rows (ordered by depth) into nested nodes in O(n), counting children and descendants, adding
 * each node's dependencies and every parent's roll-up on the way.
 */
export function buildTree(
  rows: TaskRow[],
  targetId: string,
  rootExtras: RootExtras | null,
  edges: { taskId: string; dependsOnId: string }[] = [],
  remote: Map<string, RemoteLink[]> = new Map(),
): TaskTreeNode {
  const dependsOn = new Map<string, string[]>();
  for (const e of edges) {
    const list = dependsOn.get(e.taskId);
    if (list) list.push(e.dependsOnId);
    else dependsOn.set(e.taskId, [e.dependsOnId]);
  }
  const graph = new PlanGraph(rows.map(planNodeOf), []);
  const rollup = rollups(
    graph,
    rows.map((_, i) => rows.length - 1 - i),
  );
  const nodes = new Map<string, TaskTreeNode>();
  rows.forEach((row, i) => {
    nodes.set(row.id, {
      ...toTask(
        row,
        { children: 0, descendants: 0, dependsOn: dependsOn.get(row.id) ?? [], remote: remote.get(row.id) },
        row.parentId === null ? rootExtras : null,
      ),
      children: [],
      rollup: rollup[i] ?? null,
    });
  });
  for (const row of rows) {
    if (!row.parentId) continue;
    const parent = nodes.get(row.parentId);
    if (parent) parent.children.push(nodes.get(row.id)!);
  }
  // Rows come ordered by depth, so walking them backwards visits every child before its parent.
  for (let i = rows.length - 1; i >= 0; i--) {
    const node = nodes.get(rows[i]!.id)!;
    node.children_count = node.children.length;
    node.total_subtasks = node.children.reduce((sum, c) => sum + 1 + c.total_subtasks, 0);
  }
  const target = nodes.get(targetId);
  if (!target) throw notFound();
  return target;
}

export async function getTaskStats(
  deps: Deps,
  userId: string,
  input: z.output<typeof statsInput>,
): Promise<TaskStats> {
  const rows = await deps.db
    .select({ status: tasks.status, n: count() })
    .from(tasks)
    .where(
      input.top_level_only ? and(eq(tasks.userId, userId), isNull(tasks.parentId)) : eq(tasks.userId, userId),
    )
    .groupBy(tasks.status);
  const stats: TaskStats = { total: 0, completed: 0, in_progress: 0, pending: 0, rejected: 0, failed: 0 };
  for (const r of rows) {
    stats.total += r.n;
    const group = statsGroupOf(r.status);
    if (group) stats[group] += r.n;
  }
  return stats;
}
