import { and, desc, eq, lt, sql } from "drizzle-orm";
import type { ActivityKind } from "../../shared/schemas/activity";
import type { RevisionKind } from "../../shared/schemas/replan";
import { resultRows } from "../db/client";
import {
  planStateDirty,
  planStateDirtyEdges,
  planStateEdges,
  planStateNodes,
  taskDependencies,
  taskRevisions,
  tasks,
} from "../db/schema/index";
import type { Deps } from "../deps";
import { quoted, recordActivity } from "./activity";
import { lockTaskRow } from "./locks";

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
