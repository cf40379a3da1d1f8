import { and, desc, eq, inArray, lt, sql } from "drizzle-orm";
import { UUID_PATTERN } from "../../shared/ids";
import type { Revision, RevisionKind, RevisionList } from "../../shared/schemas/replan";
import { taskTitle } from "../../shared/task-title";
import {
  type PlanSnapshot,
  type SnapshotNode,
  taskDependencies,
  taskRevisions,
  tasks,
} from "../db/schema/index";
import type { Deps } from "../deps";
import { AppError } from "../errors";
import { lockTaskRow } from "./locks";
import { getOwnedRow } from "./owned";
import type { TaskRow } from "./rows";
import { loadTreeRows } from "./rows";

/**
 * The plan's history: after every accepted re-plan, move, edit, added or deleted subtask, dependency
 * change and restore, the whole tree is saved as a revision; the first change also saves the plan as it
 * was before it (the baseline). Restoring a revision brings the tree back as it was, as a new revision.
 * Progress (a status change) is not a revision, and a restore keeps every surviving task's status.
 */

type Tx = Parameters<Parameters<Deps["db"]["transaction"]>[0]>[0];

/** Revisions kept per plan; older ones are dropped as new ones are saved. */
export const REVISIONS_KEPT = 50;

const title = (description: string) => `"${taskTitle(description, 60)}"`;

export { title as revisionTitle };

/**
 * The plan as a snapshot (schema/tasks.ts PlanSnapshot), built by the database itself: a large plan's
 * snapshot (about 1.5 MB of JSON at 2,801 nodes) never travels to the server and back.
 */
function snapshotOf(rootId: string) {
  return sql<PlanSnapshot>`jsonb_build_object(
    'nodes', coalesce((select jsonb_agg(jsonb_build_object(
        'id', t.id, 'parent_id', t.parent_id, 'position', t.position, 'depth', t.depth,
        'description', t.description, 'implementation_details', t.implementation_details,
        'acceptance_criteria', t.acceptance_criteria, 'requirement_ids', t.requirement_ids,
        'story_points', t.story_points, 'complexity_score', t.complexity_score,
        'estimated_hours', t.estimated_hours, 'estimate_low_hours', t.estimate_low_hours,
        'estimate_high_hours', t.estimate_high_hours, 'estimate_source', t.estimate_source,
        'is_atomic', t.is_atomic, 'status', t.status, 'completed_at', t.completed_at,
        'edited_at', t.edited_at, 'exported_at', t.exported_at)
        order by t.depth, t.position, t.created_at)
      from ${tasks} t where t.id = ${rootId} or t.root_task_id = ${rootId}), '[]'::jsonb),
    'edges', coalesce((select jsonb_agg(jsonb_build_object(
        'task_id', d.task_id, 'depends_on_id', d.depends_on_id, 'source', d.source) order by d.created_at)
      from ${taskDependencies} d where d.root_task_id = ${rootId}), '[]'::jsonb))`;
}

function taskCountOf(rootId: string) {
  return sql<number>`(select count(*)::int from ${tasks} t where t.id = ${rootId} or t.root_task_id = ${rootId})`;
}

/**
 * Call first in the transaction of a change that will be a revision: serialises changes to the plan on
 * its root row and, before the plan's first recorded change, saves the plan as it is (the baseline).
 */
export async function beginRevision(tx: Tx, rootId: string): Promise<void> {
  await lockTaskRow(tx, rootId);
  const [any] = await tx
    .select({ id: taskRevisions.id })
    .from(taskRevisions)
    .where(eq(taskRevisions.rootTaskId, rootId))
    .limit(1);
  if (any) return;
  await tx.insert(taskRevisions).values({
    rootTaskId: rootId,
    taskId: null,
    kind: "baseline",
    summary: "The plan before the first recorded change",
    snapshot: snapshotOf(rootId),
    taskCount: taskCountOf(rootId),
  });
}

/** Saves the plan as it is now, after a change, as a revision (call beginRevision first). */
export async function recordRevision(
  tx: Tx,
  rev: { rootId: string; taskId: string | null; kind: RevisionKind; summary: string },
): Promise<string> {
  const [saved] = await tx
    .insert(taskRevisions)
    .values({
      rootTaskId: rev.rootId,
      taskId: rev.taskId,
      kind: rev.kind,
      summary: rev.summary.slice(0, 300),
      snapshot: snapshotOf(rev.rootId),
      taskCount: taskCountOf(rev.rootId),
    })
    .returning({ id: taskRevisions.id, seq: taskRevisions.seq });
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
      .select()
      .from(taskRevisions)
      .where(and(eq(taskRevisions.id, revisionId), eq(taskRevisions.rootTaskId, rootId)))
      .limit(1);
    if (!revision) throw notFound();
    const current = await loadTreeRows(tx, rootId);
    const root = current.find((r) => r.id === rootId)!;
    if (root.status === "processing" || root.status === "pending") {
      throw new AppError(
        "CONFLICT",
        "The plan is still being decomposed. Restore it once the decomposition has finished.",
      );
    }
    const byId = new Map(current.map((r) => [r.id, r]));
    const wanted = new Set(revision.snapshot.nodes.map((n) => n.id));
    // Snapshots are in depth order: a task that comes back finds its parent already there.
    for (const n of revision.snapshot.nodes) {
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
    await tx.delete(taskDependencies).where(eq(taskDependencies.rootTaskId, rootId));
    if (revision.snapshot.edges.length) {
      await tx.insert(taskDependencies).values(
        revision.snapshot.edges.map((e) => ({
          taskId: e.task_id,
          dependsOnId: e.depends_on_id,
          rootTaskId: rootId,
          source: e.source,
        })),
      );
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
      tasks: revision.snapshot.nodes.length,
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
