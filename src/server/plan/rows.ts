import { asc, eq, or, sql } from "drizzle-orm";
import type { EstimateRange } from "../../shared/schemas/schedule";
import { type DbOrTx, resultRows } from "../db/client";
import { taskDependencies, tasks } from "../db/schema/index";
import { type PlanEdge, PlanGraph, type PlanNode } from "./graph";

/** The plan's rows as the schedule and the task answers read them (no service logic here). */

/** A row of the tasks table: a root task or a node of its plan. */
export type TaskRow = typeof tasks.$inferSelect;

/** One task row, or undefined. */
export async function loadTaskRow(db: DbOrTx, id: string): Promise<TaskRow | undefined> {
  const [row] = await db.select().from(tasks).where(eq(tasks.id, id)).limit(1);
  return row;
}

/** Whether a node has children (was split). */
export async function hasChildren(db: DbOrTx, id: string): Promise<boolean> {
  const rows = await db.select({ id: tasks.id }).from(tasks).where(eq(tasks.parentId, id)).limit(1);
  return rows.length > 0;
}

/** How many children a node has. */
export async function countChildren(db: DbOrTx, id: string): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(tasks).where(eq(tasks.parentId, id));
  return Number(row?.n ?? 0);
}

export type TitledPlanNode = PlanNode & { description: string };

/** Every row of one tree, in tree order (depth, then place among siblings). */
export async function loadTreeRows(db: DbOrTx, rootId: string): Promise<(typeof tasks.$inferSelect)[]> {
  return db
    .select()
    .from(tasks)
    .where(or(eq(tasks.id, rootId), eq(tasks.rootTaskId, rootId)))
    .orderBy(asc(tasks.depth), asc(tasks.position), asc(tasks.createdAt));
}

/** A row's estimate range, when it has one (older rows got theirs from migration 0007). */
export function estimateOf(row: {
  estimatedHours: number | null;
  estimateLowHours: number | null;
  estimateHighHours: number | null;
}): EstimateRange | null {
  if (row.estimatedHours === null) return null;
  const likely = row.estimatedHours;
  return {
    low: Math.min(row.estimateLowHours ?? likely, likely),
    likely,
    high: Math.max(row.estimateHighHours ?? likely, likely),
  };
}

/**
 * What the order needs of every task of one tree (not its long texts or JSON), in tree order. One row
 * holding a JSON array, not a row per task: PGlite's per-row cost made the same read 32 ms against 9 ms
 * at 2,801 nodes (PostgreSQL: even; issue 32).
 */
export async function loadPlanRows(db: DbOrTx, rootId: string, opts: { titles?: boolean } = {}) {
  // Without titles (`titles: false`) each description is "", for views that name only a few tasks
  // (loadTitles reads theirs): a third less to read and parse on a plan of thousands.
  const description = opts.titles === false ? sql`''` : sql`left(t.description, 300)`;
  const [row] = resultRows<{ rows: unknown }>(
    await db.execute(sql`select coalesce(json_agg(json_build_array(t.id, t.parent_id, t.root_task_id, t.status,
        ${description}, t.story_points, t.estimated_hours, t.estimate_low_hours,
        t.estimate_high_hours, t.estimate_source) order by t.depth, t.position, t.created_at), '[]') as rows
      from ${tasks} t where t.id = ${rootId} or t.root_task_id = ${rootId}`),
  );
  return jsonOf<PlanRowArray[]>(row?.rows).map(
    ([id, parentId, rootTaskId, status, description, storyPoints, estimatedHours, low, high, source]) => ({
      id,
      parentId,
      rootTaskId,
      status: status as TaskRow["status"],
      // Enough for a title (the first line, fitted) without reading long descriptions.
      description,
      storyPoints,
      estimatedHours,
      estimateLowHours: low,
      estimateHighHours: high,
      estimateSource: source,
    }),
  );
}
type PlanRowArray = [
  string,
  string | null,
  string | null,
  string,
  string,
  number | null,
  number | null,
  number | null,
  number | null,
  string | null,
];

/** A json value as the drivers give it: parsed already, or as text. */
function jsonOf<T>(value: unknown): T {
  return (typeof value === "string" ? JSON.parse(value) : (value ?? [])) as T;
}
export type PlanRow = Awaited<ReturnType<typeof loadPlanRows>>[number];

/** The descriptions (enough for a title: the first 300 characters) of some tasks, by id. */
export async function loadTitles(db: DbOrTx, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: tasks.id, description: sql<string>`left(${tasks.description}, 300)` })
    .from(tasks)
    .where(
      sql`${tasks.id} in (select jsonb_array_elements_text(${JSON.stringify([...new Set(ids)])}::jsonb)::uuid)`,
    );
  return new Map(rows.map((r) => [r.id, r.description]));
}

/** Every dependency of one tree (one row of JSON, as loadPlanRows). */
export async function loadPlanEdges(db: DbOrTx, rootId: string): Promise<PlanEdge[]> {
  const [row] = resultRows<{ edges: unknown }>(
    await db.execute(sql`select coalesce(json_agg(json_build_array(d.task_id, d.depends_on_id)), '[]') as edges
      from ${taskDependencies} d where d.root_task_id = ${rootId}`),
  );
  return jsonOf<[string, string][]>(row?.edges).map(([taskId, dependsOnId]) => ({ taskId, dependsOnId }));
}

/** A task row as a node of the plan graph. */
export function planNodeOf(
  r: Pick<
    PlanRow,
    | "id"
    | "parentId"
    | "status"
    | "description"
    | "storyPoints"
    | "estimatedHours"
    | "estimateLowHours"
    | "estimateHighHours"
  > & { estimateSource?: string | null },
): TitledPlanNode {
  return {
    id: r.id,
    parentId: r.parentId,
    done: r.status === "completed",
    estimate: estimateOf(r),
    storyPoints: r.storyPoints,
    estimateSource: r.estimateSource ?? null,
    description: r.description,
  };
}

/**
 * Every node and dependency of one tree, as the plan graph (nodes in tree order: depth, position),
 * without the tasks' text (descriptions are ""): the order, readiness and the schedule need none.
 */
export async function loadPlanGraph(db: DbOrTx, rootId: string): Promise<PlanGraph> {
  const [rows, edges] = await Promise.all([
    loadPlanRows(db, rootId, { titles: false }),
    loadPlanEdges(db, rootId),
  ]);
  return new PlanGraph(rows.map(planNodeOf), edges);
}

/** A node of the plan's shape only (loadPlanStructure): no estimate, not done. */
export function shapeNode(id: string, parentId: string | null): PlanNode {
  return { id, parentId, done: false, estimate: null, storyPoints: null };
}

/**
 * The tree's shape and its dependencies, without estimates or titles, in one query: enough to tell which
 * proposed dependencies a plan can take (acceptableDependencies), as a split does for every node.
 */
export async function loadPlanStructure(db: DbOrTx, rootId: string): Promise<PlanGraph> {
  const [row] = resultRows<{ nodes: unknown; edges: unknown }>(
    await db.execute(sql`select
        (select coalesce(json_agg(json_build_array(id, parent_id) order by depth, position, created_at), '[]')
          from ${tasks} where id = ${rootId} or root_task_id = ${rootId}) as nodes,
        (select coalesce(json_agg(json_build_array(task_id, depends_on_id)), '[]')
          from ${taskDependencies} where root_task_id = ${rootId}) as edges`),
  );
  const parsed = (v: unknown) => jsonOf<[string, string | null][]>(v ?? "[]");
  const nodes = parsed(row?.nodes).map(([id, parentId]) => shapeNode(id, parentId));
  const edges = parsed(row?.edges).map(([taskId, dependsOnId]) => ({
    taskId,
    dependsOnId: dependsOnId!,
  }));
  return new PlanGraph(nodes, edges);
}

/** The depends_on lists of a set of tasks, by task id (for list and single-task answers). */
export async function dependsOnLists(db: DbOrTx, taskIds: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (taskIds.length === 0) return out;
  const rows = resultRows<{ task_id: string; depends_on_id: string }>(
    await db.execute(
      sql`select task_id, depends_on_id from ${taskDependencies} where task_id in (${sql.join(
        taskIds.map((t) => sql`${t}`),
        sql`, `,
      )}) order by created_at`,
    ),
  );
  for (const r of rows) {
    const list = out.get(r.task_id);
    if (list) list.push(r.depends_on_id);
    else out.set(r.task_id, [r.depends_on_id]);
  }
  return out;
}

/** Each node's children, by parent id, in the rows' order. */
export function childrenMap(rows: TaskRow[]): Map<string, TaskRow[]> {
  const out = new Map<string, TaskRow[]>();
  for (const r of rows) {
    if (!r.parentId) continue;
    const list = out.get(r.parentId);
    if (list) list.push(r);
    else out.set(r.parentId, [r]);
  }
  return out;
}

/** Every node below `id`, depth first. */
export function subtreeOf(rows: TaskRow[], id: string): TaskRow[] {
  const kids = childrenMap(rows);
  const out: TaskRow[] = [];
  const visit = (n: string) => {
    for (const c of kids.get(n) ?? []) {
      out.push(c);
      visit(c.id);
    }
  };
  visit(id);
  return out;
}
