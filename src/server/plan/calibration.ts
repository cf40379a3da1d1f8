import { sql } from "drizzle-orm";
import { type ActualSample, chooseCalibration, ratioSummary } from "../../shared/actuals";
import { type Calibration, ESTIMATE_SOURCES } from "../../shared/schemas/actuals";
import type { DbOrTx } from "../db/client";
import { resultRows } from "../db/client";
import { tasks } from "../db/schema/index";

/**
 * The evidence a forecast learns from (issue 33, decision 031): finished leaves with both a likely
 * estimate and actual hours, of this plan and of the owner's plans. The owner's are the newest
 * USER_SAMPLES_MAX, so a long history stays a bounded read and follows how the owner works now.
 */

const USER_SAMPLES_MAX = 1_000;

type Sample = ActualSample & { rootId: string };

/** The owner's newest finished leaves with actuals (all plans), this plan's among them. */
async function loadSamples(db: DbOrTx, userId: string): Promise<Sample[]> {
  const rows = resultRows<{ root: string; source: string | null; likely: number; actual: number }>(
    await db.execute(sql`select coalesce(t.root_task_id, t.id)::text as root, t.estimate_source as source,
        t.estimated_hours as likely, t.actual_hours as actual
      from ${tasks} t
      where t.user_id = ${userId} and t.status = 'completed' and t.actual_hours is not null
        and t.estimated_hours > 0
        and not exists (select 1 from ${tasks} c where c.parent_id = t.id)
      order by t.completed_at desc
      limit ${USER_SAMPLES_MAX}`),
  );
  return rows.map((r) => ({
    rootId: r.root,
    source: r.source,
    likely: Number(r.likely),
    actual: Number(r.actual),
  }));
}

/** This plan's and the owner's samples summarised by estimate source. */
export function bySource(samples: readonly ActualSample[]): Calibration["by_source"] {
  const of = (source: string) => ratioSummary(samples.filter((s) => (s.source ?? "rule") === source));
  return Object.fromEntries(ESTIMATE_SOURCES.map((s) => [s, of(s)])) as Calibration["by_source"];
}

/**
 * The calibration of a plan's forecast, and the ratios each leaf draws from (by its estimate source).
 * `calibrate` false (asked uncalibrated) reports the evidence but applies none.
 */
export async function loadCalibration(db: DbOrTx, userId: string, rootId: string, calibrate: boolean) {
  const user = await loadSamples(db, userId);
  const plan = user.filter((s) => s.rootId === rootId);
  const chosen = chooseCalibration(plan, user);
  const applied = calibrate && chosen.scope !== "none";
  const summary = ratioSummary(chosen.chosen);
  const calibration: Calibration = {
    applied,
    scope: chosen.scope,
    samples: summary.samples,
    ratio_p50: summary.ratio_p50,
    by_source: bySource(chosen.chosen),
    plan: ratioSummary(plan),
    user: ratioSummary(user),
  };
  const none = (): readonly number[] => [];
  return { calibration, ratiosFor: applied ? chosen.ratiosFor : none };
}
