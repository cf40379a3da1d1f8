import {
  ACTUAL_HOURS_MAX,
  CALIBRATION_MIN_SAMPLES,
  type Calibration,
  type RatioSummary,
} from "./schemas/actuals";
import { DEFAULT_ESTIMATE, HOURS_PER_DAY } from "./schemas/schedule";

/**
 * The rules for what work actually took, and for learning from it (issue 33; decision 031). Pure
 * functions: the server applies them, and their tests compute the figures by hand.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Less working time than this between start and finish is a click-through, not a measurement. */
export const MIN_MEASURED_HOURS = 5 / 60;

/** A leaf is said to have taken at most this many times its pessimistic estimate (left open over a holiday). */
export const WORKING_TIME_CAP_FACTOR = 4;

/**
 * The working time between a start and a finish, in hours: on each weekday (UTC) the time elapsed within
 * that day, at most HOURS_PER_DAY (the forecast's focused day); weekends count nothing. Null when there is
 * no start, the finish is not after it, or the result is under MIN_MEASURED_HOURS.
 */
export function workingHours(startedAt: Date | null, completedAt: Date): number | null {
  if (!startedAt) return null;
  const start = startedAt.getTime();
  const end = completedAt.getTime();
  if (!(end > start)) return null;
  let total = 0;
  for (let dayStart = Math.floor(start / DAY) * DAY; dayStart < end; dayStart += DAY) {
    const weekday = new Date(dayStart).getUTCDay();
    if (weekday === 0 || weekday === 6) continue;
    const elapsed = Math.min(end, dayStart + DAY) - Math.max(start, dayStart);
    total += Math.min(elapsed / HOUR, HOURS_PER_DAY);
  }
  return total < MIN_MEASURED_HOURS ? null : round2(total);
}

/**
 * The actual hours a leaf gets by default when it is completed: its working time from start to finish,
 * capped at WORKING_TIME_CAP_FACTOR times its pessimistic estimate (the default range's for an unestimated
 * leaf) and at ACTUAL_HOURS_MAX. Null when there is nothing to measure.
 */
export function defaultActualHours(
  startedAt: Date | null,
  completedAt: Date,
  estimateHigh: number | null,
): number | null {
  const measured = workingHours(startedAt, completedAt);
  if (measured === null) return null;
  const high = estimateHigh && estimateHigh > 0 ? estimateHigh : DEFAULT_ESTIMATE.high;
  return round2(Math.min(measured, WORKING_TIME_CAP_FACTOR * high, ACTUAL_HOURS_MAX));
}

/** One finished leaf's evidence: its likely estimate and what it took. */
export type ActualSample = { source: string | null; likely: number; actual: number };

/** Samples that can calibrate: a positive likely estimate and an actual. */
export function usableSamples<T extends ActualSample>(samples: readonly T[]): T[] {
  return samples.filter((s) => s.likely > 0 && Number.isFinite(s.actual) && s.actual >= 0);
}

/** The median of some numbers (the mean of the middle two for an even count); null for none. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The ratios actual / likely of some samples. */
export function ratiosOf(samples: readonly ActualSample[]): number[] {
  return usableSamples(samples).map((s) => s.actual / s.likely);
}

/** How many samples, and their median ratio (two decimals). */
export function ratioSummary(samples: readonly ActualSample[]): RatioSummary {
  const ratios = ratiosOf(samples);
  const p50 = median(ratios);
  return { samples: ratios.length, ratio_p50: p50 === null ? null : round2(p50) };
}

/**
 * Where a forecast takes its ratios from (evidence-based scheduling): the plan's own finished leaves once
 * there are CALIBRATION_MIN_SAMPLES of them, or else the owner's across all their plans, or none below
 * that. Per leaf, a ratio is drawn from the samples of the leaf's own estimate source when there are
 * enough of them, or else from all the chosen samples.
 */
export function chooseCalibration(plan: readonly ActualSample[], user: readonly ActualSample[]) {
  const planUsable = usableSamples(plan);
  const userUsable = usableSamples(user);
  const scope: "plan" | "user" | "none" =
    planUsable.length >= CALIBRATION_MIN_SAMPLES
      ? "plan"
      : userUsable.length >= CALIBRATION_MIN_SAMPLES
        ? "user"
        : "none";
  const chosen = scope === "plan" ? planUsable : scope === "user" ? userUsable : [];
  const all = chosen.map((s) => s.actual / s.likely);
  const bySource = new Map<string, number[]>();
  for (const s of chosen) {
    const key = s.source ?? "rule";
    const list = bySource.get(key) ?? [];
    list.push(s.actual / s.likely);
    bySource.set(key, list);
  }
  /** The ratios a leaf of this estimate source draws from (none: no calibration). */
  const ratiosFor = (source: string | null): readonly number[] => {
    if (scope === "none") return [];
    const own = bySource.get(source ?? "rule");
    return own && own.length >= CALIBRATION_MIN_SAMPLES ? own : all;
  };
  return { scope, chosen, ratiosFor };
}

/** What a forecast learned from, in a sentence (the Plan tab and MCP's get_plan say it). */
export function calibrationSentence(c: Calibration): string {
  const where = c.scope === "user" ? " across your plans" : "";
  const ratio = c.ratio_p50 === null ? null : `${Math.round(c.ratio_p50 * 10) / 10}×`;
  if (c.applied && ratio) {
    return `Forecast calibrated on ${c.samples} finished ${c.samples === 1 ? "task" : "tasks"}${where}: yours take ${ratio} their estimate.`;
  }
  if (c.scope !== "none" && ratio) {
    return `Calibration off: the estimate ranges alone (${c.samples} finished tasks${where} say yours take ${ratio} their estimate).`;
  }
  const have = Math.max(c.plan.samples, c.user.samples);
  return `Not calibrated yet: ${have} finished ${have === 1 ? "task has" : "tasks have"} actual hours, and ${CALIBRATION_MIN_SAMPLES} are needed. Until then the forecast uses the estimate ranges alone.`;
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}
