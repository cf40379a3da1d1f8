import { and, asc, desc, eq, gt, inArray, sql } from "drizzle-orm";
import { UUID_PATTERN } from "../../../shared/ids";
import type { Revision } from "../../../shared/schemas/replan";
import type { Tx } from "../../db/client";
import {
  type PlanSnapshot,
  planStateDirty,
  planStateEdges,
  planStateNodes,
  type SnapshotEdge,
  type SnapshotNode,
  taskDependencies,
  taskRevisions,
  tasks,
} from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { getOwnedRow } from "../../plan/owned";
import { beginRevision, recordRevision } from "../../plan/revisions";
import type { TaskRow } from "../../plan/rows";
import { loadTreeRows } from "../../plan/rows";
import { assertPlanRoom } from "../../plan/size";
import { toRevision } from "./revisions";

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
