import { and, asc, eq, gte, sql } from "drizzle-orm";
import type { z } from "zod";
import type {
  AccuracyPoint,
  BurnUpPoint,
  PlanActuals,
  ScopeChanges,
  scopeChangesInput,
} from "../../../shared/schemas/actuals";
import { DEFAULT_ESTIMATE } from "../../../shared/schemas/schedule";
import { taskTitle } from "../../../shared/task-title";
import { resultRows } from "../../db/client";
import { type SnapshotNode, taskRevisions, tasks } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { bySource } from "../../plan/calibration";
import { getOwnedRow } from "../../plan/owned";

/**
 * What a plan's work actually took, for the Plan tab's pictures (issue 33): the burn-up (scope and done
 * over time) and the estimate accuracy (estimate against actual, by source); and what the plan's history
 * says changed since a date.
 */

const DAY = 86_400_000;
/** Past this many days the burn-up has a point a week, and never more than BURN_UP_POINTS_MAX points. */
const DAILY_DAYS_MAX = 180;
const BURN_UP_POINTS_MAX = 200;
/** The accuracy chart shows at most this many of the newest finished leaves. */
const ACCURACY_POINTS_MAX = 500;
const TITLE_MAX = 80;

type LeafRow = {
  id: string;
  description: string;
  status: string;
  createdAt: string;
  completedAt: string | null;
  likely: number | null;
  actual: number | null;
  source: string | null;
};

const dayOf = (ms: number) => new Date(Math.floor(ms / DAY) * DAY).toISOString().slice(0, 10);

/** The days a burn-up shows, from `first` to `last` (epoch days), each point the end of its day. */
export function burnUpDays(first: number, last: number): number[] {
  const span = Math.max(0, last - first);
  const step = Math.max(span > DAILY_DAYS_MAX ? 7 : 1, Math.ceil((span + 1) / BURN_UP_POINTS_MAX));
  const days: number[] = [];
  for (let d = first; d < last; d += step) days.push(d);
  days.push(last);
  return days;
}

/** Scope and done at the end of each day: leaves that existed then, and those completed by then. */
export function burnUp(leaves: readonly LeafRow[], today: number): BurnUpPoint[] {
  if (leaves.length === 0) return [];
  const created = leaves.map((l) => Date.parse(l.createdAt));
  const first = Math.floor(Math.min(...created) / DAY);
  const last = Math.max(first, Math.floor(today / DAY));
  return burnUpDays(first, last).map((day) => {
    const end = (day + 1) * DAY;
    const point = { date: dayOf(day * DAY), scope_leaves: 0, done_leaves: 0, scope_hours: 0, done_hours: 0 };
    leaves.forEach((l, i) => {
      if (created[i]! >= end) return;
      const hours = l.likely ?? DEFAULT_ESTIMATE.likely;
      point.scope_leaves++;
      point.scope_hours += hours;
      if (l.status === "completed" && l.completedAt && Date.parse(l.completedAt) < end) {
        point.done_leaves++;
        point.done_hours += hours;
      }
    });
    return { ...point, scope_hours: round1(point.scope_hours), done_hours: round1(point.done_hours) };
  });
}

async function loadLeaves(deps: Deps, rootId: string): Promise<LeafRow[]> {
  return resultRows<LeafRow>(
    await deps.db.execute(sql`select t.id::text as "id", left(t.description, 300) as "description",
        t.status, to_json(t.created_at)#>>'{}' as "createdAt", to_json(t.completed_at)#>>'{}' as "completedAt",
        t.estimated_hours as "likely", t.actual_hours as "actual", t.estimate_source as "source"
      from ${tasks} t
      where t.root_task_id = ${rootId}
        and not exists (select 1 from ${tasks} c where c.parent_id = t.id)
      order by t.completed_at desc nulls last, t.depth, t.position`),
  ).map((r) => ({
    ...r,
    likely: r.likely === null ? null : Number(r.likely),
    actual: r.actual === null ? null : Number(r.actual),
  }));
}

/** The burn-up and the estimate accuracy of the plan any task of it names. */
export async function getPlanActuals(deps: Deps, userId: string, id: string): Promise<PlanActuals> {
  const row = await getOwnedRow(deps, userId, id);
  const rootId = row.rootTaskId ?? row.id;
  const leaves = await loadLeaves(deps, rootId);
  const finished = leaves.filter(
    (l): l is LeafRow & { likely: number; actual: number } =>
      l.status === "completed" && l.actual !== null && l.likely !== null && l.likely > 0,
  );
  const accuracy: AccuracyPoint[] = finished.slice(0, ACCURACY_POINTS_MAX).map((l) => ({
    task_id: l.id,
    title: taskTitle(l.description, TITLE_MAX),
    source: l.source === "model" || l.source === "person" ? l.source : "rule",
    estimate_hours: l.likely,
    actual_hours: l.actual,
  }));
  const samples = finished.map((l) => ({ source: l.source, likely: l.likely, actual: l.actual }));
  return {
    task_id: row.id,
    burn_up: burnUp(leaves, Date.now()),
    accuracy,
    by_source: bySource(samples),
  };
}

const figures = (n: SnapshotNode | null) => ({
  hours: n?.estimated_hours ?? null,
  story_points: n?.story_points ?? null,
});
const leafHours = (n: SnapshotNode | null) =>
  n?.is_atomic ? (n.estimated_hours ?? DEFAULT_ESTIMATE.likely) : 0;

/**
 * What changed in the plan since a date (00:00 UTC), from its history: tasks added, removed and
 * re-estimated (likely hours or story points), each compared between its state before the first change
 * since then and after the last. Changes outside revisions (progress) are not scope. `complete` says
 * whether the kept history reaches back to the date.
 */
export async function getScopeChanges(
  deps: Deps,
  userId: string,
  id: string,
  input: z.output<typeof scopeChangesInput>,
): Promise<ScopeChanges> {
  const row = await getOwnedRow(deps, userId, id);
  const rootId = row.rootTaskId ?? row.id;
  const since = new Date(`${input.since}T00:00:00.000Z`);
  const [oldest] = await deps.db
    .select({ kind: taskRevisions.kind, createdAt: taskRevisions.createdAt })
    .from(taskRevisions)
    .where(eq(taskRevisions.rootTaskId, rootId))
    .orderBy(asc(taskRevisions.seq))
    .limit(1);
  const revisions = await deps.db
    .select({ changes: taskRevisions.changes })
    .from(taskRevisions)
    .where(and(eq(taskRevisions.rootTaskId, rootId), gte(taskRevisions.createdAt, since)))
    .orderBy(asc(taskRevisions.seq));
  const first = new Map<string, SnapshotNode | null>();
  const last = new Map<string, SnapshotNode | null>();
  let wholeSnapshots = false;
  for (const { changes } of revisions) {
    if (!changes) {
      wholeSnapshots = true; // saved before issue 32: no change set to read
      continue;
    }
    for (const c of changes.nodes) {
      if (!first.has(c.id)) first.set(c.id, c.before);
      last.set(c.id, c.after);
    }
  }
  const titled = (n: SnapshotNode, taskId: string) => ({
    id: taskId,
    title: taskTitle(n.description, TITLE_MAX),
  });
  const out: Pick<ScopeChanges, "added" | "removed" | "re_estimated"> = {
    added: [],
    removed: [],
    re_estimated: [],
  };
  let delta = 0;
  for (const [taskId, before] of first) {
    const after = last.get(taskId) ?? null;
    delta += leafHours(after) - leafHours(before);
    if (!before && after) out.added.push(titled(after, taskId));
    else if (before && !after) out.removed.push(titled(before, taskId));
    else if (
      before &&
      after &&
      (before.estimated_hours !== after.estimated_hours || before.story_points !== after.story_points)
    ) {
      out.re_estimated.push({ ...titled(after, taskId), before: figures(before), after: figures(after) });
    }
  }
  const [now] = resultRows<{ hours: number | null }>(
    await deps.db.execute(sql`select sum(coalesce(t.estimated_hours, ${DEFAULT_ESTIMATE.likely}))::float as hours
      from ${tasks} t where t.root_task_id = ${rootId}
        and not exists (select 1 from ${tasks} c where c.parent_id = t.id)`),
  );
  const hoursNow = round1(Number(now?.hours ?? 0));
  return {
    task_id: row.id,
    since: input.since,
    complete: !wholeSnapshots && (!oldest || oldest.kind === "baseline" || oldest.createdAt <= since),
    history_from: oldest ? oldest.createdAt.toISOString() : null,
    ...out,
    hours_before: round1(hoursNow - delta),
    hours_now: hoursNow,
  };
}

function round1(n: number): number {
  return Math.round(n * 10) / 10;
}
