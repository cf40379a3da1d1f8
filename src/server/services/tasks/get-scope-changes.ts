import { and, asc, eq, gte, sql } from "drizzle-orm";
import type { z } from "zod";
import type { ScopeChanges, scopeChangesInput } from "../../../shared/schemas/actuals";
import { DEFAULT_ESTIMATE } from "../../../shared/schemas/schedule";
import { taskTitle } from "../../../shared/task-title";
import { resultRows } from "../../db/client";
import { type SnapshotNode, taskRevisions, tasks } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { round1 } from "../../plan/graph";
import { getOwnedRow } from "../../plan/owned";
import { TITLE_MAX } from "./actuals";

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
