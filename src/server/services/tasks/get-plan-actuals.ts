import { sql } from "drizzle-orm";
import type { AccuracyPoint, PlanActuals } from "../../../shared/schemas/actuals";
import { taskTitle } from "../../../shared/task-title";
import { resultRows } from "../../db/client";
import { tasks } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { bySource } from "../../plan/calibration";
import { getOwnedRow } from "../../plan/owned";
import { burnUp, type LeafRow, TITLE_MAX } from "./actuals";

/** The accuracy chart shows at most this many of the newest finished leaves. */
const ACCURACY_POINTS_MAX = 500;

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
