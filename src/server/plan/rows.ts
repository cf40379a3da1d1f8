import { asc, eq, or, sql } from "drizzle-orm";
import type { EstimateRange } from "../../shared/schemas/schedule";
import { resultRows } from "../db/client";
import { taskDependencies, tasks } from "../db/schema/index";
import type { Deps } from "../deps";
import { type PlanEdge, PlanGraph, type PlanNode } from "./graph";

/** The plan's rows as the schedule and the task answers read them (no service logic here). */

export type DbOrTx = Deps["db"] | Parameters<Parameters<Deps["db"]["transaction"]>[0]>[0];
type Tx = Parameters<Parameters<Deps["db"]["transaction"]>[0]>[0];

/**
 * Serialises work on one task row (a split, a change to a plan's dependencies) for the rest of the
 * transaction. `for no key update`, not `for update`: it still excludes the other holders, but lets other
 * transactions insert rows that refer to this one (their foreign-key checks take a key-share lock). With
 * `for update`, two splits each citing the other's node waited on each other, and PostgreSQL aborted one
 * as a deadlock.
 */
export async function lockTaskRow(tx: Tx, id: string): Promise<void> {
  await tx.execute(sql`select id from ${tasks} where id = ${id} for no key update`);
}

/**
 * Stops a plan's decomposition in every process: cancels its queued and running jobs, under the root's
 * lock. A split holds that lock from its first statement to its commit, and commits its children's jobs
 * with them; cancelling without the lock missed the jobs of a split that committed in between, and they
 * stayed queued for a plan that was deleted or rejected.
 */
export async function stopPlanRun(deps: Pick<Deps, "jobs">, tx: Tx, rootId: string): Promise<void> {
  await lockTaskRow(tx, rootId);
  await deps.jobs.cancelGroup(rootId, tx);
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

/** What the order needs of every task of one tree (not its long texts or JSON), in tree order. */
export async function loadPlanRows(db: DbOrTx, rootId: string) {
  return db
    .select({
      id: tasks.id,
      parentId: tasks.parentId,
      rootTaskId: tasks.rootTaskId,
      status: tasks.status,
      // Enough for a title (the first line, fitted) without reading long descriptions.
      description: sql<string>`left(${tasks.description}, 300)`,
      storyPoints: tasks.storyPoints,
      estimatedHours: tasks.estimatedHours,
      estimateLowHours: tasks.estimateLowHours,
      estimateHighHours: tasks.estimateHighHours,
    })
    .from(tasks)
    .where(or(eq(tasks.id, rootId), eq(tasks.rootTaskId, rootId)))
    .orderBy(asc(tasks.depth), asc(tasks.position), asc(tasks.createdAt));
}
export type PlanRow = Awaited<ReturnType<typeof loadPlanRows>>[number];

/** Every dependency of one tree. */
export function loadPlanEdges(db: DbOrTx, rootId: string): Promise<PlanEdge[]> {
  return db
    .select({ taskId: taskDependencies.taskId, dependsOnId: taskDependencies.dependsOnId })
    .from(taskDependencies)
    .where(eq(taskDependencies.rootTaskId, rootId));
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
  >,
): TitledPlanNode {
  return {
    id: r.id,
    parentId: r.parentId,
    done: r.status === "completed",
    estimate: estimateOf(r),
    storyPoints: r.storyPoints,
    description: r.description,
  };
}

/** Every node and dependency of one tree, as the plan graph (nodes in tree order: depth, position). */
export async function loadPlanGraph(db: DbOrTx, rootId: string): Promise<PlanGraph> {
  const [rows, edges] = await Promise.all([loadPlanRows(db, rootId), loadPlanEdges(db, rootId)]);
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
  const parsed = (v: unknown) => (typeof v === "string" ? JSON.parse(v) : v) as [string, string | null][];
  const nodes = parsed(row?.nodes ?? "[]").map(([id, parentId]) => shapeNode(id, parentId));
  const edges = parsed(row?.edges ?? "[]").map(([taskId, dependsOnId]) => ({
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
