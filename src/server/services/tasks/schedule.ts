import { and, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Schedule, scheduleInput } from "../../../shared/schemas/schedule";
import { tasks } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { loadCalibration } from "../../plan/calibration";
import { schedulePlan } from "../../plan/graph";
import { collisionsIn, simulationsFor } from "../../plan/order";
import { getOwnedRow, taskNotFound } from "../../plan/owned";
import { loadPlanGraph } from "../../plan/rows";

/** The existing files each leaf of a plan likely changes, confidently (high or medium), by leaf id. */
async function confidentFiles(deps: Deps, rootId: string): Promise<Map<string, string[]>> {
  const rows = await deps.db
    .select({ id: tasks.id, files: tasks.files })
    .from(tasks)
    .where(and(eq(tasks.rootTaskId, rootId), sql`${tasks.files} is not null`));
  return new Map(
    rows.map((r) => [
      r.id,
      (r.files ?? []).filter((f) => !f.new && f.confidence !== "low").map((f) => f.path),
    ]),
  );
}

/**
 * The schedule of a task's subtree (the whole plan for a root): critical path, waves, ready leaves and a
 * seeded Monte Carlo forecast for `team_size` people (docs/decisions/018-plans-a-team-can-run.md),
 * calibrated on finished leaves' actual hours unless asked not to be (decision 031).
 */
export async function getSchedule(
  deps: Deps,
  userId: string,
  id: string,
  input: z.output<typeof scheduleInput>,
): Promise<Schedule> {
  const row = await getOwnedRow(deps, userId, id);
  const rootId = row.rootTaskId ?? row.id;
  const graph = await loadPlanGraph(deps.db, rootId);
  if (!graph.order) {
    // Every write checks for cycles, so only a concurrent or manual change could leave one behind.
    throw new AppError(
      "CONFLICT",
      "This plan's dependencies form a cycle; remove one of them to schedule it.",
    );
  }
  const top = graph.index.get(row.id);
  if (top === undefined) throw taskNotFound();
  const { calibration, ratiosFor } = await loadCalibration(deps.db, userId, rootId, input.calibrate);
  const s = schedulePlan(
    graph,
    top,
    input.team_size,
    `${rootId}:${input.team_size}`,
    simulationsFor(graph.size),
    ratiosFor,
  );
  const ids = (list: number[]) => list.map((i) => graph.nodes[i]!.id);
  const waves = s.waves.map(ids);
  const files = await confidentFiles(deps, rootId);
  return {
    task_id: row.id,
    critical_path: ids(s.criticalPath),
    critical_path_hours: s.criticalPathHours,
    waves,
    collisions: collisionsIn(waves, files),
    files: Object.fromEntries(waves.flat().flatMap((id) => (files.has(id) ? [[id, files.get(id)!]] : []))),
    ready: ids(s.ready),
    unestimated: ids(s.unestimated),
    forecast: s.forecast,
    calibration,
  };
}
