import { asc, eq, type SQL, sql } from "drizzle-orm";
import type { TaskFile } from "../../../shared/schemas/repository-map";
import type { RemoteLink, TaskStatus, TaskTreeNode } from "../../../shared/schemas/tasks";
import { epics, eventModels, remoteItems, taskDependencies, tasks, userStories } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { PlanGraph, rollups } from "../../plan/graph";
import { getOwnedRow, taskNotFound } from "../../plan/owned";
import type { TaskRow } from "../../plan/rows";
import { estimateOf, planNodeOf } from "../../plan/rows";
import { lockReasons, type RootExtras, toTask } from "./serialize";

/** Reading tasks: lists, one task, its tree and the dashboard's counts. */

// Counts computed by correlated subqueries on indexed columns, so a page of tasks is one query. The
// outer row is named explicitly: drizzle renders a bare column unqualified, which would bind to the
// subquery's own table.
const outer = (column: string) => sql.raw(`"tasks"."${column}"`);

export const childrenCount = sql<number>`(select count(*)::int from ${tasks} c where c.parent_id = ${outer("id")})`;

export const descendantsCount = sql<number>`(case when ${outer("parent_id")} is null
  then (select count(*)::int from ${tasks} d where d.root_task_id = ${outer("id")})
  else (with recursive sub(id) as (
          select s.id from ${tasks} s where s.parent_id = ${outer("id")}
          union all select x.id from ${tasks} x join sub on x.parent_id = sub.id)
        select count(*)::int from sub) end)`;

export async function loadRootExtras(deps: Deps, rootId: string): Promise<RootExtras> {
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

/** What exports made, per task (for the tree's links and the Requirements view). */
export async function remoteLinks(db: Deps["db"], where: SQL): Promise<Map<string, RemoteLink[]>> {
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

/**
 * What a tree node reads of its row: no plan-level JSON (that is the root's, read whole), timestamps as
 * UTC text so no Date is made per row. Columns are aliased to the row's own names (planNodeOf reads them).
 */
export type TreeRow = {
  id: string;
  parentId: string | null;
  rootTaskId: string | null;
  depth: number;
  position: number;
  description: string;
  status: TaskStatus;
  complexityScore: number | null;
  storyPoints: number | null;
  implementationDetails: string | null;
  isAtomic: boolean;
  needsAttention: boolean;
  attentionReason: string | null;
  rejectionReason: string | null;
  failureReason: string | null;
  acceptanceCriteria: string[];
  requirementIds: string[];
  estimatedHours: number | null;
  estimateLowHours: number | null;
  estimateHighHours: number | null;
  estimateSource: string | null;
  planner: string | null;
  model: string | null;
  warnings: string[];
  createdAt: string;
  updatedAt: string;
  completedAt: string | null;
  startedAt: string | null;
  actualHours: number | null;
  actualSource: "person" | "working_time" | null;
  editedAt: string | null;
  exportedAt: string | null;
  files: TaskFile[] | null;
};

const utcText = (column: string) => sql.raw(`("${column}" at time zone 'UTC')::text`);

/** The columns of a tree row, in the order loadTreeRows reads them. */
const TREE_COLUMNS = [
  "id",
  "parentId",
  "rootTaskId",
  "depth",
  "position",
  "description",
  "status",
  "complexityScore",
  "storyPoints",
  "implementationDetails",
  "isAtomic",
  "needsAttention",
  "attentionReason",
  "rejectionReason",
  "failureReason",
  "acceptanceCriteria",
  "requirementIds",
  "estimatedHours",
  "estimateLowHours",
  "estimateHighHours",
  "estimateSource",
  "planner",
  "model",
  "warnings",
  "createdAt",
  "updatedAt",
  "completedAt",
  "editedAt",
  "exportedAt",
  "startedAt",
  "actualHours",
  "actualSource",
  "files",
] as const satisfies readonly (keyof TreeRow)[];

/**
 * Every row of the tree, read as one row holding a JSON array of arrays (in TREE_COLUMNS' order): the
 * drivers' cost per row returned was most of the answer's time, on PGlite three times the query's (67 ms
 * against 21 ms at 2,801 nodes; issue 32).
 */
async function loadTreeRows(deps: Deps, rootId: string): Promise<TreeRow[]> {
  const [row] = await deps.database.rows<{ rows: unknown }>(sql`select coalesce(json_agg(json_build_array(
      id, parent_id, root_task_id, depth, position, description, status, complexity_score, story_points,
      implementation_details, is_atomic, needs_attention, attention_reason, rejection_reason,
      failure_reason, acceptance_criteria, requirement_ids, estimated_hours, estimate_low_hours,
      estimate_high_hours, estimate_source, planner, model, warnings, ${utcText("created_at")},
      ${utcText("updated_at")}, ${utcText("completed_at")}, ${utcText("edited_at")},
      ${utcText("exported_at")}, ${utcText("started_at")}, actual_hours, actual_source, files)
      order by depth, position, created_at), '[]') as rows
    from ${tasks}
    where id = ${rootId} or root_task_id = ${rootId}`);
  const raw = row?.rows;
  const arrays = (typeof raw === "string" ? JSON.parse(raw) : (raw ?? [])) as unknown[][];
  return arrays.map((values) => {
    const out: Record<string, unknown> = {};
    for (let i = 0; i < TREE_COLUMNS.length; i++) out[TREE_COLUMNS[i]!] = values[i];
    return out as TreeRow;
  });
}

/** "2025-01-02 03:04:05.678901" (UTC, as PostgreSQL prints it) as Date#toISOString would: "...05.678Z". */
export function isoOfUtcText(text: string): string;

export function isoOfUtcText(text: string | null): string | null;

export function isoOfUtcText(text: string | null): string | null {
  if (text === null) return null;
  const ms = text.length > 20 ? `${text.slice(20, 23)}00`.slice(0, 3) : "000";
  return `${text.slice(0, 10)}T${text.slice(11, 19)}.${ms}Z`;
}

/** The tree below (and including) a task: every node of its root loads in one indexed query. */
export async function getTaskTree(deps: Deps, userId: string, id: string): Promise<TaskTreeNode> {
  const target = await getOwnedRow(deps, userId, id);
  const rootId = target.rootTaskId ?? target.id;
  const [rows, extras, edges, remote] = await Promise.all([
    loadTreeRows(deps, rootId),
    // Plan-level fields go on the root only, so they are read only when the answer starts at it.
    target.parentId === null ? loadRootExtras(deps, rootId) : null,
    deps.db
      .select({ taskId: taskDependencies.taskId, dependsOnId: taskDependencies.dependsOnId })
      .from(taskDependencies)
      .where(eq(taskDependencies.rootTaskId, rootId))
      .orderBy(asc(taskDependencies.createdAt)),
    remoteLinks(deps.db, eq(remoteItems.rootTaskId, rootId)),
  ]);
  return buildTree(rows, target, extras, edges, remote);
}

/**
 * Assembles rows (ordered by depth) into nested nodes in O(n), counting children and descendants, adding
 * each node's dependencies and every parent's roll-up on the way. The answer's top node, when it is the
 * plan's root, is a whole Task with the plan-level fields; every other node is lean (see taskTreeNode).
 */
export function buildTree(
  rows: TreeRow[],
  target: TaskRow,
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
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    const node: TaskTreeNode =
      row.id === target.id && target.parentId === null
        ? {
            ...toTask(
              target,
              { children: 0, descendants: 0, dependsOn: dependsOn.get(row.id), remote: remote.get(row.id) },
              rootExtras,
            ),
            children: [],
            rollup: rollup[i] ?? null,
          }
        : leanNode(row, dependsOn.get(row.id), remote.get(row.id), rollup[i] ?? null);
    nodes.set(row.id, node);
    if (row.parentId) nodes.get(row.parentId)?.children.push(node);
  }
  // Rows come ordered by depth, so walking them backwards visits every child before its parent.
  for (let i = rows.length - 1; i >= 0; i--) {
    const node = nodes.get(rows[i]!.id)!;
    const children = node.children.length;
    if (children === 0 && node.total_subtasks === undefined) continue;
    let total = 0;
    for (const c of node.children) total += 1 + (c.total_subtasks ?? 0);
    node.children_count = children;
    node.total_subtasks = total;
  }
  const top = nodes.get(target.id);
  if (!top) throw taskNotFound();
  return top;
}

/**
 * A node below the root: what is its own, with a field left out when it is empty (null, false, none), the
 * same as its row's creation, or the plan's (on the root). Hot path for trees of thousands of nodes: one
 * object literal per node, then the few fields it has.
 */
function leanNode(
  row: TreeRow,
  dependsOn: string[] | undefined,
  remote: RemoteLink[] | undefined,
  rollup: TaskTreeNode["rollup"],
): TaskTreeNode {
  const createdAt = isoOfUtcText(row.createdAt);
  const node: TaskTreeNode = {
    id: row.id,
    task_id: row.id,
    parent_id: row.parentId,
    root_task_id: row.rootTaskId,
    description: row.description,
    status: row.status,
    depth: row.depth,
    position: row.position,
    complexity_score: row.complexityScore,
    story_points: row.storyPoints,
    implementation_details: row.implementationDetails,
    is_atomic: row.isAtomic,
    created_at: createdAt,
    depends_on: dependsOn ?? [],
    // Read on every node by the planning-quality and needs-attention checks people rely on.
    acceptance_criteria: row.acceptanceCriteria,
    requirement_ids: row.requirementIds,
    files: row.files ?? [],
    needs_attention: row.needsAttention,
    attention_reason: row.attentionReason,
    locked: lockReasons(row),
    rollup,
    children: [],
  };
  if (row.updatedAt !== row.createdAt) node.updated_at = isoOfUtcText(row.updatedAt);
  if (row.completedAt !== null) node.completed_at = isoOfUtcText(row.completedAt);
  if (row.startedAt !== null) node.started_at = isoOfUtcText(row.startedAt);
  if (row.actualHours !== null) {
    node.actual_hours = row.actualHours;
    node.actual_source = row.actualSource;
  }
  if (row.estimatedHours !== null) {
    node.estimated_hours = row.estimatedHours;
    node.estimate_hours = estimateOf(row);
  }
  if (row.estimateSource !== null) node.estimate_source = row.estimateSource;
  if (remote) node.remote_links = remote;
  if (row.rejectionReason !== null) node.rejection_reason = row.rejectionReason;
  if (row.failureReason !== null) node.failure_reason = row.failureReason;
  if (row.editedAt !== null) node.edited_at = isoOfUtcText(row.editedAt);
  if (row.exportedAt !== null) node.exported_at = isoOfUtcText(row.exportedAt);
  if (row.warnings.length > 0) node.warnings = row.warnings;
  if (row.planner !== null) node.planner = row.planner;
  if (row.model !== null) node.model = row.model;
  return node;
}
