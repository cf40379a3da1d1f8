import { z } from "zod";
import { isoTimestamp } from "./common";
import { isSensibleHours, sensibleHoursMessage } from "./hours";

/**
 * What the work actually took, and what the plan learns from it (issue 33; shared/actuals.ts has the
 * rules, docs/decisions/031-forecasts-that-learn.md the why).
 */

/** The most hours one leaf can be said to have taken (a quarter of a year of full-time work). */
export const ACTUAL_HOURS_MAX = 500;

/** `actual_hours` as PATCH, MCP's set_task_status and the CLI's `done --hours` take it. */
export const actualHoursInput = z
  .number({ error: "actual_hours must be a number of hours, 0 or more" })
  .min(0, "actual_hours must be a number of hours, 0 or more")
  .max(ACTUAL_HOURS_MAX, `actual_hours must be at most ${ACTUAL_HOURS_MAX} hours`)
  .refine(isSensibleHours, sensibleHoursMessage("actual_hours"));

/** Who or what made an estimate: the offline rule, a model, a person (tasks.estimate_source). */
export const ESTIMATE_SOURCES = ["rule", "model", "person"] as const;
export type EstimateSource = (typeof ESTIMATE_SOURCES)[number];

/** Below this many finished leaves with actuals, the forecast uses the estimate ranges alone. */
export const CALIBRATION_MIN_SAMPLES = 5;

/** The ratio of actual to likely hours over some finished leaves. */
export const ratioSummary = z.object({
  samples: z.number().int(),
  /** The median ratio (actual / likely); null without samples. */
  ratio_p50: z.number().nullable(),
});
export type RatioSummary = z.infer<typeof ratioSummary>;

/**
 * What a forecast was calibrated on: the plan's own finished leaves when it has enough of them, or else the
 * owner's across their plans (`scope`), with the ratio by estimate source. `applied` is false when the
 * forecast was asked uncalibrated or there are fewer than CALIBRATION_MIN_SAMPLES samples.
 */
export const calibration = z
  .object({
    applied: z.boolean(),
    scope: z.enum(["plan", "user", "none"]),
    samples: z.number().int(),
    ratio_p50: z.number().nullable(),
    by_source: z.object({ rule: ratioSummary, model: ratioSummary, person: ratioSummary }),
    plan: ratioSummary,
    user: ratioSummary,
  })
  .meta({ id: "Calibration" });
export type Calibration = z.infer<typeof calibration>;

/** One bar of the forecast's finish distribution: runs that finished within (days - width, days]. */
export const finishBin = z.object({ days: z.number(), runs: z.number().int() });
export type FinishBin = z.infer<typeof finishBin>;

/** A day of the burn-up: the plan's scope and its done work at the end of that day (UTC). */
export const burnUpPoint = z.object({
  date: z.iso.date(),
  scope_leaves: z.number().int(),
  done_leaves: z.number().int(),
  /** Likely hours of the leaves (a leaf without an estimate counts the default size). */
  scope_hours: z.number(),
  done_hours: z.number(),
});
export type BurnUpPoint = z.infer<typeof burnUpPoint>;

/** A finished leaf with both an estimate and an actual: one dot of the accuracy chart. */
export const accuracyPoint = z.object({
  task_id: z.string(),
  title: z.string(),
  source: z.enum(ESTIMATE_SOURCES),
  estimate_hours: z.number(),
  actual_hours: z.number(),
});
export type AccuracyPoint = z.infer<typeof accuracyPoint>;

/** GET /tasks/{id}/actuals: the burn-up and the estimate accuracy of a plan (any task names its plan). */
export const planActuals = z
  .object({
    task_id: z.string(),
    /** Daily from the plan's first day to today (weekly past 180 days), at most 200 points. */
    burn_up: z.array(burnUpPoint),
    accuracy: z.array(accuracyPoint),
    /** Per source over this plan's finished leaves. */
    by_source: z.object({ rule: ratioSummary, model: ratioSummary, person: ratioSummary }),
  })
  .meta({ id: "PlanActuals" });
export type PlanActuals = z.infer<typeof planActuals>;

/** The dates a plan's history can be asked about: none before this product, none in another century. */
export const EARLIEST_DATE = "2000-01-01";
export const LATEST_DATE = "2099-12-31";

/** GET /tasks/{id}/scope-changes?since=YYYY-MM-DD */
export const scopeChangesInput = z.strictObject({
  since: z.iso
    .date({ error: "since must be a date (YYYY-MM-DD)" })
    // "0000-01-01" is a date to the pattern but none to PostgreSQL (issue 39): only dates a plan can have.
    .refine((d) => d >= EARLIEST_DATE && d <= LATEST_DATE, {
      message: `since must be a date between ${EARLIEST_DATE} and ${LATEST_DATE}`,
    }),
});

const changedTask = z.object({ id: z.string(), title: z.string() });
const estimateFigures = z.object({ hours: z.number().nullable(), story_points: z.number().nullable() });

/** What the plan's history says changed since a date: tasks added, removed and re-estimated. */
export const scopeChanges = z
  .object({
    task_id: z.string(),
    since: z.iso.date(),
    /** False when the history kept (the newest 50 revisions) starts after `since`: older changes are gone. */
    complete: z.boolean(),
    /** When the oldest revision kept was made (null without history). */
    history_from: isoTimestamp.nullable(),
    added: z.array(changedTask),
    removed: z.array(changedTask),
    re_estimated: z.array(changedTask.extend({ before: estimateFigures, after: estimateFigures })),
    /** Likely hours of the leaves now, and as they were at `since`, as far as the history tells. */
    hours_before: z.number(),
    hours_now: z.number(),
  })
  .meta({ id: "ScopeChanges" });
export type ScopeChanges = z.infer<typeof scopeChanges>;
