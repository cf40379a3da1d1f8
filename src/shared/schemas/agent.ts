import { z } from "zod";
import { planState, workState } from "../work-state";
import { actualHoursInput } from "./actuals";
import { isoTimestamp } from "./common";
import { approvalSummary } from "./reviews";
import { estimateHours } from "./schedule";
import { EDITABLE_STATUSES, progress, TASK_STATUSES, techStackContext } from "./tasks";

/**
 * The plan as a coding agent or a script reads it (the MCP tools, the CLI, GET /api/projects,
 * /api/tasks/{id}/outline and /api/tasks/{id}/next): compact, with ids to act on.
 */

export const OUTLINE_DEPTH_DEFAULT = 2;
export const OUTLINE_DEPTH_MAX = 10;
/** An outline stops after this many lines and says how to see the rest (a subtree, less depth). */
export const OUTLINE_LINES_MAX = 200;
export const PROJECTS_LIMIT_DEFAULT = 20;
export const PROJECTS_LIMIT_MAX = 100;

export const projectsInput = z.strictObject({
  limit: z.coerce
    .number()
    .int()
    .min(1, `limit must be between 1 and ${PROJECTS_LIMIT_MAX}`)
    .max(PROJECTS_LIMIT_MAX, `limit must be between 1 and ${PROJECTS_LIMIT_MAX}`)
    .default(PROJECTS_LIMIT_DEFAULT),
});

export const outlineInput = z.strictObject({
  depth: z.coerce
    .number()
    .int()
    .min(1, `depth must be between 1 and ${OUTLINE_DEPTH_MAX}`)
    .max(OUTLINE_DEPTH_MAX, `depth must be between 1 and ${OUTLINE_DEPTH_MAX}`)
    .default(OUTLINE_DEPTH_DEFAULT),
});

export const setStatusInput = z.strictObject({
  status: z.enum(EDITABLE_STATUSES, { error: `status must be one of ${EDITABLE_STATUSES.join(", ")}` }),
  /** The hours the work took, when you know them (else the working time since it started is kept). */
  actual_hours: actualHoursInput.optional(),
});

export type { Progress } from "./tasks";

const taskStatus = z.enum(TASK_STATUSES);

export const projectSummary = z.object({
  id: z.string(),
  title: z.string(),
  /** The root's status (processing while it is being planned, completed once planned); see plan_state. */
  status: taskStatus,
  /** Whether the plan is made, apart from how much work is done (shared/work-state.ts). */
  plan_state: planState,
  work_state: workState,
  progress,
  created_at: isoTimestamp,
});
export const projectList = z.object({ projects: z.array(projectSummary), total: z.number().int() });
export type ProjectList = z.infer<typeof projectList>;

export const planOutline = z.object({
  task_id: z.string(),
  root_task_id: z.string(),
  status: taskStatus,
  progress,
  critical_path_hours: z.number().nullable(),
  /**
   * One line per task: `1.2 [ ] "Title" (3 pts, 5h) id=… after 1.1 *critical *ready`. Marks: [x] done,
   * [~] in progress, [ ] to do, [!] failed; `after` names what it waits for by outline number (or id
   * outside the outline). The title is a JSON string, so what its author wrote stays inside its quotes.
   */
  outline: z.string(),
  /** Tasks below `depth`, or past the line limit, that the outline leaves out. */
  omitted: z.number().int(),
  /** Whether the plan may be exported, or waits for a person's approval (issue 41). */
  approval: approvalSummary,
  /**
   * When the rest may be done by one person (working days of 6 focused hours), calibrated on finished
   * tasks' actual hours once there are enough (the sentence says); null while the plan has a cycle.
   */
  forecast: z
    .object({
      team_size: z.number().int(),
      p50_days: z.number(),
      p90_days: z.number(),
      calibration: z.string(),
    })
    .nullable()
    .optional(),
});
export type PlanOutline = z.infer<typeof planOutline>;

export const taskRef = z
  .object({ id: z.string(), title: z.string(), status: taskStatus })
  .meta({ id: "TaskRef" });
export type TaskRef = z.infer<typeof taskRef>;

/** Everything an agent needs to do one task. */
export const agentTask = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  status: taskStatus,
  is_leaf: z.boolean(),
  story_points: z.number().int().nullable(),
  estimate_hours: estimateHours.nullable(),
  implementation_details: z.string().nullable(),
  acceptance_criteria: z.array(z.string()),
  /** The project's stated requirements this task covers, with their text. */
  requirements: z.array(z.object({ id: z.string(), text: z.string() })),
  /** Ancestors from the project down to the parent. */
  path: z.array(taskRef),
  depends_on: z.array(taskRef),
  /** Tasks that wait for this one directly. */
  blocks: z.array(taskRef),
  /** Leaves that become ready to start once this task is done. */
  unblocks: z.array(taskRef),
  critical: z.boolean(),
  notes: z.array(z.object({ body: z.string(), token_name: z.string().nullable(), created_at: isoTimestamp })),
  project: z.object({
    id: z.string(),
    title: z.string(),
    tech_stack: techStackContext.nullable(),
    best_practices: z.array(z.string()),
  }),
});
export type AgentTask = z.infer<typeof agentTask>;

export const nextTask = z.object({
  project_id: z.string(),
  /** The ready leaf to do next (critical path first, one nobody started before one in progress), or null. */
  task: agentTask.nullable(),
  /** Why there is none, or what else is going on. */
  message: z.string(),
  /** Other ready leaves, in the order they should be taken. */
  also_ready: z.array(taskRef),
  /** Ready leaves someone already started (the chosen one among them only when nothing else is ready). */
  in_progress: z.array(taskRef),
  progress,
});
export type NextTask = z.infer<typeof nextTask>;

export const statusChange = z.object({
  task: taskRef,
  /** Leaves that became ready to start with this change (completing a task unblocks its dependents). */
  unblocked: z.array(taskRef),
  progress,
  /** The hours the task took, when known (entered, or the working time from its start). */
  actual_hours: z.number().nullable().optional(),
});
export type StatusChange = z.infer<typeof statusChange>;
