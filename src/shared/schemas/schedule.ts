import { z } from "zod";
import { calibration, finishBin } from "./actuals";
import { isSensibleHours, sensibleHoursMessage } from "./hours";

/** Who added a dependency: a planner's proposal or a person. */
export const DEPENDENCY_SOURCES = ["planner", "person"] as const;

/** The schedule's team size: 1 by default, at most 50 people. */
export const TEAM_SIZE_DEFAULT = 1;
export const TEAM_SIZE_MAX = 50;
/** Focused developer-hours in one working day: how the forecast turns hours into days. */
export const HOURS_PER_DAY = 6;
export const ESTIMATE_HOURS_MAX = 10_000;

const hours = (name: string) =>
  z
    .number({ error: `${name} must be a number of hours` })
    .min(0, `${name} must be between 0 and ${ESTIMATE_HOURS_MAX.toLocaleString("en")} hours`)
    .max(ESTIMATE_HOURS_MAX, `${name} must be between 0 and ${ESTIMATE_HOURS_MAX.toLocaleString("en")} hours`)
    .refine(isSensibleHours, sensibleHoursMessage(name));

/** An estimate in developer-hours: the optimistic, likely and pessimistic ends (low <= likely <= high). */
export const estimateRange = z
  .strictObject({ low: hours("low"), likely: hours("likely"), high: hours("high") })
  .refine((e) => e.low <= e.likely, { message: "low must not be above likely", path: ["low"] })
  .refine((e) => e.likely <= e.high, { message: "high must not be below likely", path: ["high"] });
/** An estimate as answers carry it: no limits, since a roll-up adds up many leaves' ranges. */
export const estimateHours = z.object({ low: z.number(), likely: z.number(), high: z.number() });
export type EstimateRange = z.infer<typeof estimateHours>;

/** A leaf without an estimate is scheduled at this size (a day's work, with a wide range). */
export const DEFAULT_ESTIMATE: EstimateRange = { low: 3, likely: 6, high: 12 };

/** POST /tasks/{id}/dependencies */
export const addDependencyInput = z.strictObject({
  depends_on: z
    .string({ error: "depends_on must be the id of a task in the same plan" })
    .trim()
    .min(1, "depends_on must be the id of a task in the same plan")
    .max(100, "depends_on must be the id of a task in the same plan"),
});

/** POST /tasks/{id}/move: the new parent (same plan) and the 0-based place among its children. */
export const moveTaskInput = z.strictObject({
  parent_id: z
    .string({ error: "parent_id must be the id of a task in the same plan" })
    .trim()
    .min(1, "parent_id must be the id of a task in the same plan")
    .max(100, "parent_id must be the id of a task in the same plan"),
  position: z
    .number({ error: "position must be a whole number from 0" })
    .int("position must be a whole number from 0")
    .min(0, "position must be a whole number from 0")
    .max(100_000, "position must be a whole number from 0"),
});

/** GET /tasks/{id}/schedule */
export const scheduleInput = z.strictObject({
  /** Calibrate the forecast on finished leaves' actuals (the default); "false" gives the ranges alone. */
  calibrate: z
    .enum(["true", "false"], { error: "calibrate must be true or false" })
    .or(z.boolean())
    .default(true)
    .transform((v) => v === true || v === "true"),
  team_size: z.coerce
    .number({ error: `team_size must be a whole number from 1 to ${TEAM_SIZE_MAX}` })
    .int(`team_size must be a whole number from 1 to ${TEAM_SIZE_MAX}`)
    .min(1, `team_size must be a whole number from 1 to ${TEAM_SIZE_MAX}`)
    .max(TEAM_SIZE_MAX, `team_size must be a whole number from 1 to ${TEAM_SIZE_MAX}`)
    .default(TEAM_SIZE_DEFAULT),
});

// ---- responses -------------------------------------------------------------------------------------

/** What a parent shows of its subtree. Hours add up the leaves' ranges; unestimated leaves add nothing. */
export const rollup = z.object({
  story_points: z.number(),
  estimate_hours: estimateHours,
  leaves_done: z.number().int(),
  leaves_total: z.number().int(),
  leaves_unestimated: z.number().int(),
});
export type Rollup = z.infer<typeof rollup>;

/** A task's place in the plan's order: what it waits for and what waits for it. */
export const taskDependencies = z
  .object({
    task_id: z.string(),
    depends_on: z.array(z.string()),
    blocks: z.array(z.string()),
  })
  .meta({ id: "TaskDependencies" });
export type TaskDependencies = z.infer<typeof taskDependencies>;

export const forecast = z.object({
  team_size: z.number().int(),
  /** Working days (HOURS_PER_DAY focused hours each) to finish the remaining work, half of the runs within it. */
  p50_days: z.number(),
  /** Nine runs in ten finish within this many working days. */
  p90_days: z.number(),
  simulations: z.number().int(),
  hours_per_day: z.number(),
  /** The runs' finish times as a histogram in working days (at most 30 bars; empty without runs). */
  distribution: z.array(finishBin),
});
export type Forecast = z.infer<typeof forecast>;

export const schedule = z.object({
  task_id: z.string(),
  /** The longest chain of remaining leaves by likely hours, first to last. */
  critical_path: z.array(z.string()),
  /** The critical path's likely duration in hours (the shortest the remaining work can take). */
  critical_path_hours: z.number(),
  /** Remaining leaves in waves: each wave can run in parallel once the ones before it are done. */
  waves: z.array(z.array(z.string())),
  /** Leaves not done whose dependencies are all done, critical ones first. */
  ready: z.array(z.string()),
  /** Leaves without an estimate: scheduled at a default size (see docs/decisions/018-plans-a-team-can-run.md). */
  unestimated: z.array(z.string()),
  forecast,
  /** What the forecast was calibrated on (see schemas/actuals.ts). */
  calibration,
  /**
   * On a repository (issue 42): leaves of one wave that likely change the same file, for a lead to
   * order or to give to one person ("R3 and R7 both change src/routes/invoices.ts"). Flagged, not moved.
   */
  collisions: z.array(
    z.object({
      /** 0-based, as `waves`. */
      wave: z.number().int(),
      path: z.string(),
      task_ids: z.array(z.string()),
    }),
  ),
  /** The files each remaining leaf likely changes (confident matches), by id; empty off a repository. */
  files: z.record(z.string(), z.array(z.string())),
});
export type Schedule = z.infer<typeof schedule>;

/** POST /tasks/{id}/move: where the task is now. */
export const movedTask = z.object({
  id: z.string(),
  parent_id: z.string(),
  position: z.number().int(),
  depth: z.number().int(),
});
