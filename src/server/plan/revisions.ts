import { and, asc, desc, eq, gt, inArray, lt, sql } from "drizzle-orm";
import { UUID_PATTERN } from "../../shared/ids";
import type { ActivityKind } from "../../shared/schemas/activity";
import type { Revision, RevisionKind, RevisionList } from "../../shared/schemas/replan";
import { resultRows } from "../db/client";
import {
  type PlanSnapshot,
  planStateDirty,
  planStateDirtyEdges,
  planStateEdges,
  planStateNodes,
  type SnapshotEdge,
  type SnapshotNode,
  taskDependencies,
  taskRevisions,
  tasks,
} from "../db/schema/index";
import type { Deps } from "../deps";
import { AppError } from "../errors";
import { quoted, recordActivity } from "./activity";
import { lockTaskRow } from "./locks";
import { getOwnedRow } from "./owned";
import type { TaskRow } from "./rows";
import { loadTreeRows } from "./rows";
import { assertPlanRoom } from "./size";

/**
 * The plan's history: after every accepted re-plan, move, edit, added or deleted subtask, dependency
 * change and restore, a revision records what changed; the first change also records the plan as it was
 * before it (the baseline). Restoring a revision brings the tree back as it was, as a new revision.
 * Progress (a status change) is not a revision, and a restore keeps every surviving task's status.
 *
 * Revisions as changes (issue 32). A revision used to hold the whole tree (about 1.5 MB of JSON at 2,801
 * nodes, per edit). Now the plan's state as of its newest revision is kept once, in plan_state_nodes (each
 * node's snapshot fields as jsonb) and plan_state_edges. Triggers on tasks (migration 0016) mark each task
 * whose snapshot fields change, in plan_state_dirty, whoever changes it. Recording a revision compares the
 * marked tasks' live rows with their kept state in SQL (a full outer join on the id where the jsonb
 * differs; the same for the dependencies of the tasks marked in plan_state_dirty_edges, migration 0019),
 * clears the marks, stores
 * the differing nodes' before and after images and the added and removed dependencies as the revision's
 * `changes`, and brings the state up to date, in one statement: nothing of the plan travels to the server,
 * and a revision's size follows the change, not the plan. A change made outside revisions (progress, an
 * export's marks, a decomposition's writes) shows in the next revision's changes, as it showed in the next
 * snapshot.
 *
 * Restoring starts from the state (exactly the newest revision's snapshot) and applies the undo images of
 * every newer revision, newest first, down to the target: that is exactly the target's snapshot, so the
 * restore (a comparison with the live rows) does what it did. It reads only the nodes that can differ:
 * those a newer revision changed and those changed outside revisions since the newest one (the marked
 * ones); any other node is the same in all three. Only the newest
 * REVISIONS_KEPT are ever restored and the walk goes backwards from the present, so no checkpoint is
 * needed: the state is the one full copy per plan, updated in place. Revisions saved before issue 32 keep
 * their whole snapshot and are restored from it; the migration started each plan's state from its newest
 * snapshot.
 */

type Tx = Parameters<Parameters<Deps["db"]["transaction"]>[0]>[0];

/** Revisions kept per plan; older ones are dropped as new ones are saved. */
export const REVISIONS_KEPT = 50;

/** A task as a revision's summary (and so the plan's activity) quotes it. */
const title = quoted;

export { title as revisionTitle };

/** A task row `t`'s snapshot fields (SnapshotNode) as jsonb: what a revision keeps of a node. */
const nodeOf = sql`jsonb_build_object(
  'id', t.id, 'parent_id', t.parent_id, 'position', t.position, 'depth', t.depth,
  'description', t.description, 'implementation_details', t.implementation_details,
  'acceptance_criteria', t.acceptance_criteria, 'requirement_ids', t.requirement_ids,
  'story_points', t.story_points, 'complexity_score', t.complexity_score,
  'estimated_hours', t.estimated_hours, 'estimate_low_hours', t.estimate_low_hours,
  'estimate_high_hours', t.estimate_high_hours, 'estimate_source', t.estimate_source,
  'is_atomic', t.is_atomic, 'status', t.status, 'completed_at', t.completed_at,
  'edited_at', t.edited_at, 'exported_at', t.exported_at,
  'started_at', t.started_at, 'actual_hours', t.actual_hours, 'actual_source', t.actual_source)`;

function taskCountOf(rootId: string) {
  return sql<number>`(select count(*)::int from ${tasks} t where t.id = ${rootId} or t.root_task_id = ${rootId})`;
}

/** Makes the plan's kept state the plan as it is now (before its first recorded change). */
async function resetState(tx: Tx, rootId: string): Promise<void> {
  await tx.delete(planStateNodes).where(eq(planStateNodes.rootTaskId, rootId));
  await tx.delete(planStateEdges).where(eq(planStateEdges.rootTaskId, rootId));
  await tx.delete(planStateDirty).where(eq(planStateDirty.rootTaskId, rootId));
  await tx.delete(planStateDirtyEdges).where(eq(planStateDirtyEdges.rootTaskId, rootId));
  await tx.execute(sql`insert into ${planStateNodes} (root_task_id, task_id, node)
    select ${rootId}::uuid, t.id, ${nodeOf} from ${tasks} t where t.id = ${rootId} or t.root_task_id = ${rootId}`);
  await tx.execute(sql`insert into ${planStateEdges} (root_task_id, task_id, depends_on_id, source)
    select ${rootId}::uuid, d.task_id, d.depends_on_id, d.source from ${taskDependencies} d
    where d.root_task_id = ${rootId}`);
}

/** Makes the plan's kept state its newest revision's whole snapshot (as the migration did for every plan). */
async function stateFromNewestSnapshot(tx: Tx, rootId: string): Promise<void> {
  const newest = sql`(select snapshot from ${taskRevisions} where root_task_id = ${rootId} and snapshot is not null
    order by seq desc limit 1)`;
  await tx.execute(sql`insert into ${planStateNodes} (root_task_id, task_id, node)
    select ${rootId}::uuid, (n->>'id')::uuid, n from jsonb_array_elements(${newest}->'nodes') n
    on conflict do nothing`);
  await tx.execute(sql`insert into ${planStateEdges} (root_task_id, task_id, depends_on_id, source)
    select ${rootId}::uuid, (e->>'task_id')::uuid, (e->>'depends_on_id')::uuid, e->>'source'
    from jsonb_array_elements(${newest}->'edges') e
    on conflict do nothing`);
  // The live rows may differ anywhere from that snapshot: the next revision compares every task.
  await tx.execute(sql`insert into ${planStateDirty} (root_task_id, task_id)
    select ${rootId}::uuid, task_id from ${planStateNodes} where root_task_id = ${rootId}
    union select ${rootId}::uuid, t.id from ${tasks} t where t.id = ${rootId} or t.root_task_id = ${rootId}
    on conflict do nothing`);
  await tx.execute(sql`insert into ${planStateDirtyEdges} (root_task_id, task_id)
    select ${rootId}::uuid, task_id from ${planStateEdges} where root_task_id = ${rootId}
    union select ${rootId}::uuid, task_id from ${taskDependencies} where root_task_id = ${rootId}
    on conflict do nothing`);
}

/**
 * Call first in the transaction of a change that will be a revision: serialises changes to the plan on
 * its root row and, before the plan's first recorded change, saves the plan as it is (the baseline).
 */
export async function beginRevision(tx: Tx, rootId: string): Promise<void> {
  await lockTaskRow(tx, rootId);
  const [any] = await tx
    .select({
      id: taskRevisions.id,
      kept: sql<boolean>`exists (select 1 from ${planStateNodes} where root_task_id = ${rootId})`,
    })
    .from(taskRevisions)
    .where(eq(taskRevisions.rootTaskId, rootId))
    .limit(1);
  if (any) {
    // Revisions saved as whole snapshots after the migration ran (an older process still writing).
    if (!any.kept) await stateFromNewestSnapshot(tx, rootId);
    // The work recorded on a task since (started, hours) is not history, but a change about to remove
    // the task must keep it: the kept state takes the live work of every task marked since (issue 40).
    await tx.execute(sql`
      update ${planStateNodes} p
      set node = p.node || jsonb_build_object(
        'started_at', t.started_at, 'actual_hours', t.actual_hours, 'actual_source', t.actual_source)
      from ${tasks} t, ${planStateDirty} d
      where p.root_task_id = ${rootId} and d.root_task_id = ${rootId}
        and d.task_id = p.task_id and t.id = p.task_id`);
    return;
  }
  await resetState(tx, rootId);
  await tx.insert(taskRevisions).values({
    rootTaskId: rootId,
    taskId: null,
    kind: "baseline",
    summary: "The plan before the first recorded change",
    changes: { nodes: [], edges: [] },
    taskCount: taskCountOf(rootId),
  });
}

/** The activity entry each revision also is: who changed the plan, and how (plan/activity.ts). */
const ACTIVITY_OF_REVISION: Record<RevisionKind, ActivityKind | null> = {
  baseline: null,
  edit: "edit",
  move: "structure",
  add: "structure",
  remove: "structure",
  dependency: "structure",
  replan: "replan",
  restore: "replan",
};

/**
 * Records what changed since the plan's previous revision as a revision (call beginRevision first): one
 * statement compares the kept state with the live rows, stores the differences and updates the state.
 */
export async function recordRevision(
  tx: Tx,
  rev: { rootId: string; taskId: string | null; kind: RevisionKind; summary: string },
): Promise<string> {
  const root = rev.rootId;
  const [saved] = resultRows<{ id: string; seq: number }>(
    await tx.execute(sql`
    with dirty as (
      delete from ${planStateDirty} where root_task_id = ${root} returning task_id as id
    ), live as (
      select t.id, ${nodeOf} as node from ${tasks} t where t.id in (select id from dirty)
    ), kept as (
      select task_id as id, node from ${planStateNodes}
      where root_task_id = ${root} and task_id in (select id from dirty)
    ), node_changes as (
      select coalesce(l.id, k.id) as id, k.node as before, l.node as after
      from live l full join kept k on k.id = l.id
      where l.node is distinct from k.node
    ), dirty_edges as (
      delete from ${planStateDirtyEdges} where root_task_id = ${root} returning task_id
    ), live_edges as (
      select task_id, depends_on_id, source from ${taskDependencies}
      where root_task_id = ${root} and task_id in (select task_id from dirty_edges)
    ), kept_edges as (
      select task_id, depends_on_id, source from ${planStateEdges}
      where root_task_id = ${root} and task_id in (select task_id from dirty_edges)
    ), edge_changes as (
      select coalesce(l.task_id, k.task_id) as task_id, coalesce(l.depends_on_id, k.depends_on_id) as depends_on_id,
        coalesce(l.source, k.source) as source, case when k.task_id is null then 'added' else 'removed' end as op
      from live_edges l full join kept_edges k
        on k.task_id = l.task_id and k.depends_on_id = l.depends_on_id and k.source = l.source
      where l.task_id is null or k.task_id is null
    ), nodes_gone as (
      delete from ${planStateNodes} p using node_changes c
      where p.root_task_id = ${root} and p.task_id = c.id and c.after is null
    ), nodes_set as (
      insert into ${planStateNodes} (root_task_id, task_id, node)
      select ${root}::uuid, id, after from node_changes where after is not null
      on conflict (root_task_id, task_id) do update set node = excluded.node
    ), edges_gone as (
      delete from ${planStateEdges} p using edge_changes c
      where p.root_task_id = ${root} and p.task_id = c.task_id and p.depends_on_id = c.depends_on_id
        and p.source = c.source and c.op = 'removed'
    ), edges_added as (
      insert into ${planStateEdges} (root_task_id, task_id, depends_on_id, source)
      select ${root}::uuid, task_id, depends_on_id, source from edge_changes where op = 'added'
    )
    insert into ${taskRevisions} (root_task_id, task_id, kind, summary, changes, task_count)
    select ${root}::uuid, ${rev.taskId}::uuid, ${rev.kind}::text, ${rev.summary.slice(0, 300)}::text,
      jsonb_build_object(
        'nodes', coalesce((select jsonb_agg(jsonb_build_object('id', id, 'before', before, 'after', after))
          from node_changes), '[]'::jsonb),
        'edges', coalesce((select jsonb_agg(jsonb_build_object('task_id', task_id,
          'depends_on_id', depends_on_id, 'source', source, 'op', op)) from edge_changes), '[]'::jsonb)),
      ${taskCountOf(root)}
    returning id, seq`),
  );
  // The baseline is the plan as it was before the first change, not something anyone did.
  const activity = ACTIVITY_OF_REVISION[rev.kind];
  if (activity) {
    const summary = rev.summary.charAt(0).toLowerCase() + rev.summary.slice(1);
    await recordActivity(tx, { rootId: root, taskId: rev.taskId, kind: activity, summary });
  }
  const [oldest] = await tx
    .select({ seq: taskRevisions.seq })
    .from(taskRevisions)
    .where(eq(taskRevisions.rootTaskId, rev.rootId))
    .orderBy(desc(taskRevisions.seq))
    .offset(REVISIONS_KEPT - 1)
    .limit(1);
  if (oldest) {
    await tx
      .delete(taskRevisions)
      .where(and(eq(taskRevisions.rootTaskId, rev.rootId), lt(taskRevisions.seq, oldest.seq)));
  }
  return saved!.id;
}

/** `column in (the ids)`, with the ids as one jsonb parameter however many there are. */
const inIds = (column: unknown, ids: string[]) =>
  sql`${column} in (select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)::uuid)`;

/**
 * The plan as it was at a revision, for a restore. An older revision's own snapshot is the whole plan
 * (`only` null: compare every task). Otherwise the nodes that can differ between that revision and the
 * live rows are those a newer revision changed and those changed outside revisions since the newest one
 * (the tasks marked in plan_state_dirty); only these are read, with the changes of
 * every newer revision undone, newest first. Every other node is the same at the revision, in the kept
 * state and in the live rows. The dependencies: the whole set from an older snapshot; otherwise those the
 * newer revisions changed, with whether the revision had them (the rest are the kept state's). Nodes in
 * depth order.
 */
async function snapshotAt(
  tx: Tx,
  rootId: string,
  revision: { seq: number; snapshot: PlanSnapshot | null },
): Promise<
  | (PlanSnapshot & { only: null })
  | {
      nodes: SnapshotNode[];
      edges: null;
      edgesUndone: (SnapshotEdge & { present: boolean })[];
      only: string[];
    }
> {
  if (revision.snapshot) return { ...revision.snapshot, only: null };
  const newer = await tx
    .select({ changes: taskRevisions.changes })
    .from(taskRevisions)
    .where(and(eq(taskRevisions.rootTaskId, rootId), gt(taskRevisions.seq, revision.seq)))
    .orderBy(desc(taskRevisions.seq));
  const changed = newer.map(({ changes }) => {
    // Only revisions older than every change set hold no changes, and those are restored from their snapshot.
    if (!changes) throw new Error("A revision newer than the one restored holds no changes");
    return changes;
  });
  // Every task changed since the newest revision is marked (a superset of those that differ).
  const drifted = await tx
    .select({ id: planStateDirty.taskId })
    .from(planStateDirty)
    .where(eq(planStateDirty.rootTaskId, rootId));
  const only = [
    ...new Set([...changed.flatMap((c) => c.nodes.map((n) => n.id)), ...drifted.map((d) => d.id)]),
  ];
  const nodes = new Map(
    (
      await tx
        .select({ id: planStateNodes.taskId, node: planStateNodes.node })
        .from(planStateNodes)
        .where(and(eq(planStateNodes.rootTaskId, rootId), inIds(planStateNodes.taskId, only)))
    ).map((r) => [r.id, r.node]),
  );
  // The dependencies the newer revisions added or removed, each with whether the revision restored had it
  // (the oldest undo wins); every other dependency is as in the kept state.
  const edgeKey = (e: SnapshotEdge) => `${e.task_id} ${e.depends_on_id} ${e.source}`;
  const edges = new Map<string, SnapshotEdge & { present: boolean }>();
  for (const changes of changed) {
    for (const c of changes.nodes) {
      if (c.before) nodes.set(c.id, c.before);
      else nodes.delete(c.id);
    }
    for (const e of changes.edges) {
      const edge = { task_id: e.task_id, depends_on_id: e.depends_on_id, source: e.source };
      edges.set(edgeKey(edge), { ...edge, present: e.op !== "added" });
    }
  }
  return {
    nodes: [...nodes.values()].sort((a, b) => a.depth - b.depth || a.position - b.position),
    edges: null,
    edgesUndone: [...edges.values()],
    only,
  };
}

function toRevision(r: {
  id: string;
  kind: RevisionKind;
  summary: string;
  taskId: string | null;
  createdAt: Date;
  tasks: number;
}): Revision {
  return {
    revision_id: r.id,
    kind: r.kind,
    summary: r.summary,
    task_id: r.taskId,
    created_at: r.createdAt.toISOString(),
    tasks: r.tasks,
  };
}

/** The plan's revisions, newest first (any task of the plan names the plan). */
export async function listRevisions(deps: Deps, userId: string, id: string): Promise<RevisionList> {
  const row = await getOwnedRow(deps, userId, id);
  const rootId = row.rootTaskId ?? row.id;
  const rows = await deps.db
    .select({
      id: taskRevisions.id,
      kind: taskRevisions.kind,
      summary: taskRevisions.summary,
      taskId: taskRevisions.taskId,
      createdAt: taskRevisions.createdAt,
      tasks: taskRevisions.taskCount,
    })
    .from(taskRevisions)
    .where(eq(taskRevisions.rootTaskId, rootId))
    .orderBy(desc(taskRevisions.seq));
  return { task_id: row.id, revisions: rows.map(toRevision) };
}

/** The columns a restore writes back, from a snapshot node. Status and lock marks stay as they are now. */
function restoredColumns(n: SnapshotNode) {
  return {
    parentId: n.parent_id,
    position: n.position,
    depth: n.depth,
    description: n.description,
    implementationDetails: n.implementation_details,
    acceptanceCriteria: n.acceptance_criteria,
    requirementIds: n.requirement_ids,
    storyPoints: n.story_points,
    complexityScore: n.complexity_score,
    estimatedHours: n.estimated_hours,
    estimateLowHours: n.estimate_low_hours,
    estimateHighHours: n.estimate_high_hours,
    estimateSource: n.estimate_source,
    isAtomic: n.is_atomic,
  };
}

function differs(row: TaskRow, n: SnapshotNode): boolean {
  const want = restoredColumns(n);
  return (Object.keys(want) as (keyof typeof want)[]).some(
    (k) => JSON.stringify(row[k] ?? null) !== JSON.stringify(want[k] ?? null),
  );
}

type RecordedWork = Pick<SnapshotNode, "started_at" | "actual_hours" | "actual_source">;

function recordedWorkColumns(w: RecordedWork) {
  return {
    startedAt: w.started_at ? new Date(w.started_at) : null,
    actualHours: w.actual_hours ?? null,
    actualSource: w.actual_source ?? null,
  };
}

/**
 * The newest work recorded on each of these tasks in the revisions after `seq`: the state each newer
 * change found it in (the newest first), which for a task a change removed is its state when removed.
 */
async function latestRecordedWork(
  tx: Tx,
  rootId: string,
  seq: number,
  ids: string[],
): Promise<Map<string, RecordedWork>> {
  const out = new Map<string, RecordedWork>();
  if (ids.length === 0) return out;
  const wanted = new Set(ids);
  const newer = await tx
    .select({ changes: taskRevisions.changes })
    .from(taskRevisions)
    .where(and(eq(taskRevisions.rootTaskId, rootId), gt(taskRevisions.seq, seq)))
    .orderBy(desc(taskRevisions.seq));
  for (const { changes } of newer) {
    for (const c of changes?.nodes ?? []) {
      if (!wanted.has(c.id) || out.has(c.id) || !c.before || !("actual_hours" in c.before)) continue;
      out.set(c.id, c.before);
    }
  }
  return out;
}

/**
 * Brings the plan back as it was at a revision, as a new revision: tasks added since are deleted, tasks
 * deleted since come back (with the same ids), the rest get back their place and content, and the
 * dependencies are the revision's. The status of a task that still exists is kept (history is about the
 * plan, not about work done). Refused while the plan is being decomposed (409).
 */
export async function restoreRevision(
  deps: Deps,
  userId: string,
  id: string,
  revisionId: string,
): Promise<Revision> {
  const row = await getOwnedRow(deps, userId, id);
  const rootId = row.rootTaskId ?? row.id;
  const notFound = () => new AppError("NOT_FOUND", "Revision not found");
  if (!UUID_PATTERN.test(revisionId)) throw notFound();
  const restored = await deps.db.transaction(async (tx) => {
    await beginRevision(tx, rootId);
    const [revision] = await tx
      .select({
        seq: taskRevisions.seq,
        summary: taskRevisions.summary,
        createdAt: taskRevisions.createdAt,
        taskCount: taskRevisions.taskCount,
        snapshot: taskRevisions.snapshot,
      })
      .from(taskRevisions)
      .where(and(eq(taskRevisions.id, revisionId), eq(taskRevisions.rootTaskId, rootId)))
      .limit(1);
    if (!revision) throw notFound();
    const [root] = await tx.select({ status: tasks.status }).from(tasks).where(eq(tasks.id, rootId));
    if (root?.status === "processing" || root?.status === "pending") {
      throw new AppError(
        "CONFLICT",
        "The plan is still being decomposed. Restore it once the decomposition has finished.",
      );
    }
    const snapshot = await snapshotAt(tx, rootId, revision);
    // The live rows that can differ from the revision (all of them against an older whole snapshot).
    const current = snapshot.only
      ? await tx
          .select()
          .from(tasks)
          .where(inIds(tasks.id, snapshot.only))
          .orderBy(asc(tasks.depth), asc(tasks.position), asc(tasks.createdAt))
      : await loadTreeRows(tx, rootId);
    const byId = new Map(current.map((r) => [r.id, r]));
    const wanted = new Set(snapshot.nodes.map((n) => n.id));
    // The restored plan stays within PLAN_MAX_NODES (a revision kept before a lower limit was set).
    const adding = snapshot.nodes.filter((n) => !byId.has(n.id)).length;
    const removing = snapshot.only ? 0 : current.filter((r) => !wanted.has(r.id)).length;
    await assertPlanRoom(tx, rootId, adding - removing, deps.config.PLAN_MAX_NODES);
    // Work recorded on a task is not the plan's history: a task that comes back brings the newest record
    // of it, from the change that took it away, not the one of the revision restored (issue 40).
    const work = await latestRecordedWork(
      tx,
      rootId,
      revision.seq,
      snapshot.nodes.filter((n) => !byId.has(n.id)).map((n) => n.id),
    );
    // Snapshots are in depth order: a task that comes back finds its parent already there.
    for (const n of snapshot.nodes) {
      const now = byId.get(n.id);
      if (!now) {
        await tx.insert(tasks).values({
          ...restoredColumns(n),
          id: n.id,
          userId,
          rootTaskId: rootId,
          status: n.status as TaskRow["status"],
          completedAt: n.completed_at ? new Date(n.completed_at) : null,
          editedAt: n.edited_at ? new Date(n.edited_at) : null,
          exportedAt: n.exported_at ? new Date(n.exported_at) : null,
          // A task that comes back brings the work recorded on it (issue 40).
          ...recordedWorkColumns(work.get(n.id) ?? n),
        });
      } else if (differs(now, n)) {
        await tx
          .update(tasks)
          .set({ ...restoredColumns(n), updatedAt: new Date() })
          .where(eq(tasks.id, n.id));
      }
    }
    // Every task kept now hangs under a kept parent, so deleting the rest takes nothing kept with it.
    const extra = current.filter((r) => !wanted.has(r.id)).map((r) => r.id);
    if (extra.length) await tx.delete(tasks).where(inArray(tasks.id, extra));
    if (snapshot.edges) {
      await tx.delete(taskDependencies).where(eq(taskDependencies.rootTaskId, rootId));
      if (snapshot.edges.length) {
        await tx.insert(taskDependencies).values(
          snapshot.edges.map((e) => ({
            taskId: e.task_id,
            dependsOnId: e.depends_on_id,
            rootTaskId: rootId,
            source: e.source,
          })),
        );
      }
    } else {
      // The revision's dependencies: the kept state's, with the newer revisions' changes undone. Only those
      // that differ from the live ones are written (a plan of 10,000 nodes keeps its thousands of others).
      const target = sql`with undone as (
          select (e->>'task_id')::uuid as task_id, (e->>'depends_on_id')::uuid as depends_on_id,
            e->>'source' as source, (e->>'present')::boolean as present
          from jsonb_array_elements(${JSON.stringify(snapshot.edgesUndone)}::jsonb) e
        ), target as (
          select s.task_id, s.depends_on_id, s.source from ${planStateEdges} s
          where s.root_task_id = ${rootId} and not exists (select 1 from undone u
            where u.task_id = s.task_id and u.depends_on_id = s.depends_on_id and u.source = s.source)
          union all
          select task_id, depends_on_id, source from undone where present
        )`;
      // Two statements: a dependency can come back with another source (one row per pair of tasks).
      await tx.execute(sql`${target}
        delete from ${taskDependencies} d where d.root_task_id = ${rootId} and not exists (select 1 from target t
          where t.task_id = d.task_id and t.depends_on_id = d.depends_on_id and t.source = d.source)`);
      await tx.execute(sql`${target}
        insert into ${taskDependencies} (task_id, depends_on_id, root_task_id, source)
        select t.task_id, t.depends_on_id, ${rootId}::uuid, t.source from target t
        where not exists (select 1 from ${taskDependencies} d
          where d.task_id = t.task_id and d.depends_on_id = t.depends_on_id)`);
    }
    const when = revision.createdAt.toISOString().slice(0, 16).replace("T", " ");
    const summary = `Restored the plan as it was at ${when} UTC (${revision.summary})`;
    const newId = await recordRevision(tx, { rootId, taskId: row.id, kind: "restore", summary });
    return toRevision({
      id: newId,
      kind: "restore",
      summary: summary.slice(0, 300),
      taskId: row.id,
      createdAt: new Date(),
      tasks: snapshot.only ? revision.taskCount : snapshot.nodes.length,
    });
  });
  await deps.events.publish({
    type: "task.updated",
    userId,
    taskId: rootId,
    rootTaskId: rootId,
    message: "Plan restored",
    data: { restored: true, revision_id: restored.revision_id },
  });
  return restored;
}
