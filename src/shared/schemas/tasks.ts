import { z } from "zod";
import { parseGithubRepoUrl } from "../github-names";
import { planState, workState } from "../work-state";
import { actualHoursInput } from "./actuals";
import { isoTimestamp, pageOf } from "./common";
import { EXPORT_KINDS } from "./integrations";
import { LOCK_REASONS } from "./replan";
import { repositoryMap, taskFile } from "./repository-map";
import { estimateHours, estimateRange, rollup } from "./schedule";

export const TASK_STATUSES = [
  "pending",
  "submitted",
  "in_progress",
  "processing",
  "completed",
  "failed",
  "error",
  "rejected",
  /** Read, not planned: the owner checks what was read, then plans it (issue 38; schemas/reading.ts). */
  "awaiting_review",
] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** Statuses a person may set by hand; the others belong to the decomposition pipeline. */
export const EDITABLE_STATUSES = ["pending", "in_progress", "completed"] as const;

export const STORY_POINTS = [1, 2, 3, 5, 8, 13] as const;

/** Task creation defaults. */
export const TASK_DEFAULTS = {
  max_depth: 4,
  max_subtasks: 7,
  complexity_threshold: 0.7,
  use_context: true,
  requires_approval: false,
} as const;

export const DASHBOARD_PAGE_SIZE = 9;
export const DESCRIPTION_MAX = 20_000;
export const EVENT_MODEL_MARKDOWN_MAX = 200_000;
export const REJECT_REASON_MAX = 2000;
export const ACCEPTANCE_CRITERIA_MAX = 10;
export const ACCEPTANCE_CRITERION_MAX = 500;

export const taskId = z.string().trim().min(1).max(100);

const description = (required: string) =>
  z
    .string({ error: required })
    .trim()
    .min(1, required)
    .max(
      DESCRIPTION_MAX,
      `The description is too long (at most ${DESCRIPTION_MAX.toLocaleString("en")} characters)`,
    );

/** https://github.com/{owner}/{repo} under GitHub's naming rules, with an optional .git or trailing slash. */
export const isGithubRepoUrl = (url: string) => parseGithubRepoUrl(url) !== null;

export const techPreferencesInput = z.strictObject({
  application_type: z.string().trim().max(100).nullish(),
  tech_stack_id: z.string().trim().max(100).nullish(),
  github_repo: z
    .string()
    .trim()
    .max(300)
    .refine(
      (v) => v === "" || isGithubRepoUrl(v),
      "Enter a GitHub repository URL like https://github.com/owner/repo",
    )
    .nullish(),
  additional_requirements: z.string().trim().max(5000, "Additional requirements are too long").nullish(),
});

/** Task creation payload. */
/** Who plans a new task (createTaskInput.planner). */
export const TASK_PLANNERS = ["auto", "agent"] as const;

export const createTaskInput = z.strictObject({
  description: description("Please enter a task description"),
  max_depth: z
    .number()
    .int()
    .min(1, "max_depth must be between 1 and 6")
    .max(6, "max_depth must be between 1 and 6")
    .default(TASK_DEFAULTS.max_depth),
  max_subtasks: z
    .number()
    .int()
    .min(2, "max_subtasks must be between 2 and 10")
    .max(10, "max_subtasks must be between 2 and 10")
    .default(TASK_DEFAULTS.max_subtasks),
  complexity_threshold: z
    .number()
    .min(0, "complexity_threshold must be between 0 and 1")
    .max(1, "complexity_threshold must be between 0 and 1")
    .default(TASK_DEFAULTS.complexity_threshold),
  use_context: z.boolean().default(TASK_DEFAULTS.use_context),
  requires_approval: z.boolean().default(TASK_DEFAULTS.requires_approval),
  tech_preferences: techPreferencesInput.optional(),
  /**
   * Who plans it: "auto" (the configured model, else the outline) or "agent" (the coding agent that
   * creates it plans it through the MCP server's planning tools; the server only reads the text).
   */
  planner: z
    .enum(TASK_PLANNERS, { error: `planner must be one of ${TASK_PLANNERS.join(", ")}` })
    .default("auto"),
  /**
   * Read the text and stop (status `awaiting_review`) so the owner checks the reading before anything is
   * planned; planning, and its use of the monthly allowance, start with POST /tasks/{id}/plan.
   */
  review_reading: z.boolean().default(false),
  /** The team the plan belongs to (issue 41): its members see it and, by role, change it. */
  team_id: z
    .string({ error: "team_id must be the id of one of your teams" })
    .max(100, "team_id must be the id of one of your teams")
    .nullable()
    .optional(),
  /**
   * The code the change is for (issue 42): a map of a checkout (`atomize new --repo`) or of a repository
   * read elsewhere. The plan then works on that code: its stack, its files.
   */
  repository_map: repositoryMap.optional(),
});
export type CreateTaskInput = z.input<typeof createTaskInput>;

export const listTasksInput = z.strictObject({
  page: z.coerce.number().int().min(1, "page must be 1 or more").max(100_000).default(1),
  page_size: z.coerce
    .number()
    .int()
    .min(1, "page_size must be between 1 and 100")
    .max(100, "page_size must be between 1 and 100")
    .default(DASHBOARD_PAGE_SIZE),
  top_level_only: z
    .union([z.boolean(), z.enum(["true", "false", "1", "0"]).transform((v) => v === "true" || v === "1")])
    .default(true),
  /** Only a team's plans (its id), or only the caller's own, outside any team ("personal"); all by default. */
  team: z
    .string({ error: 'team must be a team\'s id or "personal"' })
    .max(100, 'team must be a team\'s id or "personal"')
    .optional(),
});

export const statsInput = listTasksInput.pick({ top_level_only: true });

/** PATCH /tasks/{id}: the updates object. */
export const updateTaskInput = z
  .strictObject({
    description: description("Please enter a task description").optional(),
    status: z
      .enum(EDITABLE_STATUSES, { error: `Status must be one of ${EDITABLE_STATUSES.join(", ")}` })
      .optional(),
    is_atomic: z.boolean().optional(),
    implementation_details: z.string().trim().max(DESCRIPTION_MAX).nullable().optional(),
    complexity_score: z
      .number()
      .min(1, "complexity_score must be between 1 and 10")
      .max(10, "complexity_score must be between 1 and 10")
      .nullable()
      .optional(),
    story_points: z
      .number()
      .refine(
        (n) => (STORY_POINTS as readonly number[]).includes(n),
        `story_points must be one of ${STORY_POINTS.join(", ")}`,
      )
      .nullable()
      .optional(),
    estimate_hours: estimateRange.nullable().optional(),
    /** Hours the work took (0 or more); null clears it. Progress, like status: not a plan revision. */
    actual_hours: actualHoursInput.nullable().optional(),
    acceptance_criteria: z
      .array(
        z
          .string({ error: "Each acceptance criterion must be text" })
          .trim()
          .min(1, "An acceptance criterion cannot be empty")
          .max(
            ACCEPTANCE_CRITERION_MAX,
            `An acceptance criterion is at most ${ACCEPTANCE_CRITERION_MAX} characters`,
          ),
      )
      .max(ACCEPTANCE_CRITERIA_MAX, `At most ${ACCEPTANCE_CRITERIA_MAX} acceptance criteria`)
      .optional(),
    /**
     * On a project: holds it for a person's approval (the spec's switch, issue 41): once planned, its
     * exports wait until an owner or admin of its team (or, alone, its creator) approves it.
     */
    requires_approval: z.boolean({ error: "requires_approval must be true or false" }).optional(),
    /** On a project: moves it into a team (its creator, an owner or admin there), or out of it (null). */
    team_id: z
      .string({ error: "team_id must be the id of one of your teams" })
      .max(100, "team_id must be the id of one of your teams")
      .nullable()
      .optional(),
  })
  .refine((v) => Object.keys(v).length > 0, { message: "Nothing to update", path: ["body"] });
export type UpdateTaskInput = z.input<typeof updateTaskInput>;

export const updateEventModelInput = z.strictObject({
  event_model_markdown: z
    .string({ error: "event_model_markdown is required" })
    .max(EVENT_MODEL_MARKDOWN_MAX, "The event model is too long (at most 200,000 characters)"),
});

export const ADD_TASK_POSITIONS = ["before", "after", "child"] as const;

export const addTaskInput = z.strictObject({
  description: description("Task description is required"),
  target_task_id: taskId.optional(),
  position: z.enum(ADD_TASK_POSITIONS, { error: "Position must be before, after or child" }).default("after"),
  auto_decompose: z.boolean().default(true),
});
export type AddTaskInput = z.input<typeof addTaskInput>;

// ---- responses -------------------------------------------------------------------------------------
// Each answer's schema, with its type derived from it: operations declare them as their `output`, the API
// reference describes them, and in tests every answer is checked against its schema.

export const epic = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  priority: z.number().int(),
});
export type Epic = z.infer<typeof epic>;

export const userStory = z.object({
  id: z.string(),
  epic_id: z.string().nullable(),
  actor: z.string(),
  action: z.string(),
  benefit: z.string(),
  acceptance_criteria: z.array(z.string()),
  story_points: z.number().int().nullable(),
  priority: z.string(),
});
export type UserStory = z.infer<typeof userStory>;

export const techStackContext = z.object({
  frontend: z.string().optional(),
  backend: z.string().optional(),
  database: z.string().optional(),
  deployment: z.string().optional(),
  description: z.string().optional(),
  application_type: z.string().optional(),
  preferred_languages: z.array(z.string()).optional(),
  deployment_target: z.string().optional(),
  frameworks: z.record(z.string(), z.array(z.string())).optional(),
});
export type TechStackContext = z.infer<typeof techStackContext>;

export const taskContext = z.object({
  tech_stack: techStackContext.nullable(),
  best_practices: z.array(z.string()),
  epics: z.array(epic),
  user_stories: z.array(userStory),
});
export type TaskContext = z.infer<typeof taskContext>;

export const swimlane = z.object({
  name: z.string(),
  description: z.string(),
  events: z.array(z.string()),
  commands: z.array(z.string()),
  read_models: z.array(z.string()),
});
export type Swimlane = z.infer<typeof swimlane>;

export const chapter = z.object({
  name: z.string(),
  description: z.string(),
  sub_chapters: z.array(z.object({ name: z.string(), slices: z.array(z.string()) })),
});
export type Chapter = z.infer<typeof chapter>;

/**
 * One event, command, read model, interaction or automation of the event model, as the planner named it.
 * Its type stays `unknown`, as the database stores the lists untyped and the services read them so; the
 * schema still checks and documents each element.
 */
const eventModelElement: z.ZodType<unknown> = z.object({ name: z.string(), description: z.string() });

export const eventModelMetadata = z.object({
  event_model_markdown: z.string(),
  extracted_events: z.array(eventModelElement),
  commands: z.array(eventModelElement),
  read_models: z.array(eventModelElement),
  user_interactions: z.array(eventModelElement),
  automations: z.array(eventModelElement),
  swimlanes: z.array(swimlane),
  chapters: z.array(chapter),
});
export type EventModelMetadata = z.infer<typeof eventModelMetadata>;

/** What exports made for a task: the JIRA issue, Trello card or GitHub issue, with its link. */
export const remoteLink = z.object({
  kind: z.enum(EXPORT_KINDS),
  /** "MKT-12", "#34", a card's short link. */
  key: z.string(),
  url: z.string(),
  /** Its status there when last seen ("Done", "closed"), or null before the first sync. */
  status: z.string().nullable(),
});
export type RemoteLink = z.infer<typeof remoteLink>;

/** A row's technology preferences as task creation stored them (each field null when not chosen). */
const storedTechPreferences = z.object({
  application_type: z.string().nullable().optional(),
  tech_stack_id: z.string().nullable().optional(),
  github_repo: z.string().nullable().optional(),
  additional_requirements: z.string().nullable().optional(),
});

/** A claim on a leaf: the person or agent working on it, and until when. */
export const taskClaim = z
  .object({
    /** The holder as shown: a person's name, or "<name> (agent: <token name>)". */
    claimed_by: z.string(),
    claimed_by_user_id: z.string().nullable(),
    /** The coding agent's token name when an agent holds it, else null. */
    agent: z.string().nullable(),
    claimed_until: isoTimestamp,
  })
  .meta({ id: "TaskClaim" });
export type TaskClaim = z.infer<typeof taskClaim>;

export const task = z
  .object({
    task_id: z.string(),
    id: z.string(),
    description: z.string(),
    status: z.enum(TASK_STATUSES),
    complexity_score: z.number().nullable(),
    complexity: z.number().nullable(),
    rejection_reason: z.string().nullable(),
    failure_reason: z.string().nullable(),
    /** A subtask whose split kept failing: left as a leaf, with the reason, while the rest completed. */
    needs_attention: z.boolean(),
    attention_reason: z.string().nullable(),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
    completed_at: isoTimestamp.nullable(),
    /** When the work began: a leaf's first move to in progress (null if it never was). */
    started_at: isoTimestamp.nullable(),
    /**
     * The hours a finished leaf actually took: entered by a person (or an agent, or the CLI), or else the
     * working time between started_at and completed_at, capped (shared/actuals.ts). Null when unknown.
     */
    actual_hours: z.number().nullable(),
    /** Where actual_hours came from: "person" (entered) or "working_time" (from the start and finish). */
    actual_source: z.enum(["person", "working_time"]).nullable(),
    depth: z.number().int(),
    position: z.number(),
    total_subtasks: z.number().int(),
    children_count: z.number().int(),
    parent_id: z.string().nullable(),
    root_task_id: z.string().nullable(),
    context: taskContext.nullable(),
    // Free-form JSON: a column this server never writes (kept for rows that carry it).
    additional_context: z.record(z.string(), z.unknown()).nullable(),
    metadata: eventModelMetadata.nullable(),
    story_points: z.number().int().nullable(),
    implementation_details: z.string().nullable(),
    /** 2-5 testable statements of when this node is done (every planned leaf has them). */
    acceptance_criteria: z.array(z.string()),
    /** The stated requirements (R1, R2, ... read from the root's description) this node covers. */
    requirement_ids: z.array(z.string()),
    /** On a repository (issue 42): the files it most likely touches, best first. */
    files: z.array(taskFile),
    /** Developer-hours, subtasks included (the likely value of `estimate_hours`). */
    estimated_hours: z.number().nullable(),
    /** The estimate as a range in developer-hours (low <= likely <= high); null when there is none. */
    estimate_hours: estimateHours.nullable(),
    /** The tasks of the same plan this one waits for (a parent's apply to all its subtasks). */
    depends_on: z.array(z.string()),
    /** "rule" (the offline planner's heuristic, shown as "estimated by rule"), "model" or "person". */
    estimate_source: z.string().nullable(),
    /** Why a re-plan leaves this node alone (empty when it may change it); see schemas/replan.ts. */
    locked: z.array(z.enum(LOCK_REASONS)),
    /** When a person last changed its content or place, and when an export last created it elsewhere. */
    edited_at: isoTimestamp.nullable(),
    exported_at: isoTimestamp.nullable(),
    /** What exports made for this task: the JIRA issue, Trello card or GitHub issue, with its link. */
    remote_links: z.array(remoteLink),
    /**
     * On a root: what its description states, read by rule (requirements R1, R2, ..., non-goals, and the
     * rules the work must keep), and the kind of work it was planned as, with the evidence.
     */
    stated_scope: z
      .object({
        requirements: z.array(z.object({ id: z.string(), text: z.string() })),
        non_goals: z.array(z.string()),
        constraints: z.array(z.string()),
        planned_as: z.object({ kind: z.string(), label: z.string(), because: z.array(z.string()) }),
      })
      .nullable(),
    is_atomic: z.boolean(),
    // Free-form JSON: the planner's model usage on a root (llm_calls, prompt_tokens, completion_tokens),
    // added to in the database, so older rows may carry other keys.
    predictions: z.record(z.string(), z.unknown()).nullable(),
    tech_preferences: storedTechPreferences.nullable(),
    options: z
      .object({
        max_depth: z.number().int(),
        max_subtasks: z.number().int(),
        complexity_threshold: z.number(),
        use_context: z.boolean(),
        requires_approval: z.boolean(),
      })
      .nullable(),
    planner: z.string().nullable(),
    model: z.string().nullable(),
    warnings: z.array(z.string()),
    /** The team the plan belongs to (issue 41), or null: a personal plan. */
    team_id: z.string().nullable(),
    /** On a single task's answer: whether the caller may change it (false for the team's viewers). */
    can_edit: z.boolean().optional(),
  })
  .meta({ id: "Task" });
export type Task = z.infer<typeof task>;

/**
 * A node of a tree answer: its children, and on a parent the roll-up of its subtree. The answer's top node,
 * when it is the plan's root, is a whole Task; below it a node leaves out what is empty (an absent field
 * reads as null, false, 0 or none; `updated_at` as `created_at`) and the plan-level fields, which are the
 * root's alone (context, metadata, options, ...). `withTreeDefaults` reads a node back as a whole Task.
 */
export const taskTreeNode = task
  .partial({
    updated_at: true,
    complexity: true,
    rejection_reason: true,
    failure_reason: true,
    needs_attention: true,
    attention_reason: true,
    completed_at: true,
    started_at: true,
    actual_hours: true,
    actual_source: true,
    total_subtasks: true,
    children_count: true,
    acceptance_criteria: true,
    requirement_ids: true,
    files: true,
    estimated_hours: true,
    estimate_hours: true,
    estimate_source: true,
    edited_at: true,
    exported_at: true,
    remote_links: true,
    warnings: true,
    planner: true,
    model: true,
    team_id: true,
    // The plan-level fields: on the root only.
    context: true,
    additional_context: true,
    metadata: true,
    stated_scope: true,
    predictions: true,
    tech_preferences: true,
    options: true,
  })
  .extend({
    get children(): z.ZodArray<typeof taskTreeNode> {
      return z.array(taskTreeNode);
    },
    rollup: rollup.nullable(),
  })
  .meta({ id: "TaskTreeNode" });
export type TaskTreeNode = z.infer<typeof taskTreeNode>;

/**
 * How much of a task's work is done: its leaves (the work items; a task without subtasks is its own leaf)
 * done, of all of them. A plan's root is "completed" once it is planned, so this, not the root's status,
 * says how far the work has got.
 */
export const progress = z.object({
  leaves_done: z.number().int(),
  leaves_total: z.number().int(),
  percent: z.number(),
});
export type Progress = z.infer<typeof progress>;

/**
 * A task in a list answer, with its work's progress. A project (a root) also says its plan's state and its
 * work's apart (shared/work-state.ts); a subtask has null for both.
 */
export const taskListItem = task.extend({
  progress,
  plan_state: planState.nullable(),
  work_state: workState.nullable(),
});
export type TaskListItem = z.infer<typeof taskListItem>;
export const taskList = pageOf("tasks", taskListItem);
export type TaskList = z.infer<typeof taskList>;

export const taskStats = z.object({
  total: z.number().int(),
  completed: z.number().int(),
  in_progress: z.number().int(),
  pending: z.number().int(),
  rejected: z.number().int(),
  failed: z.number().int(),
});
export type TaskStats = z.infer<typeof taskStats>;

/** DELETE /tasks/{id} and /tasks/{id}/subtask over tRPC: how many tasks went, subtasks included. */
export const deletedTasks = z.object({ deleted: z.number().int() });
/** The REST answer of the same: a sentence with the count. */
export const deletedTasksMessage = deletedTasks.extend({ detail: z.string() });

/** Which stats counter a status adds to (badge groups); used by the server and the client's optimistic updates. */
export function statsGroupOf(status: string): Exclude<keyof TaskStats, "total"> | null {
  switch (status) {
    case "completed":
      return "completed";
    case "in_progress":
    case "processing":
      return "in_progress";
    case "pending":
    case "submitted":
    case "awaiting_review":
      return "pending";
    case "rejected":
      return "rejected";
    case "failed":
    case "error":
      return "failed";
    default:
      return null;
  }
}

export const taskUsage = z.object({
  used: z.number().int(),
  /** Null for an admin: no limit. */
  limit: z.number().int().nullable(),
  /** The calendar month the count belongs to (YYYY-MM, UTC). */
  period: z.string(),
  resets_at: isoTimestamp,
  /**
   * Whether a project planned now would count: planning with a model does; the offline planner and a
   * coding agent's own planning do not, unless the operator counts all planning (MONTHLY_LIMIT_ALL_PLANNING).
   */
  counts_now: z.boolean(),
});
export type TaskUsage = z.infer<typeof taskUsage>;

export const rejectTaskInput = z.strictObject({
  reason: z
    .string({ error: "Please give a reason for rejecting the plan" })
    .trim()
    .min(1, "Please give a reason for rejecting the plan")
    .max(
      REJECT_REASON_MAX,
      `The reason is too long (at most ${REJECT_REASON_MAX.toLocaleString("en")} characters)`,
    ),
});

export const resubmitTaskInput = z.strictObject({
  description: z
    .string({ error: "Please enter a task description" })
    .trim()
    .min(1, "Please enter a task description")
    .max(
      DESCRIPTION_MAX,
      `The description is too long (at most ${DESCRIPTION_MAX.toLocaleString("en")} characters)`,
    ),
});

/**
 * What a task row keeps in its `options` JSON: a root's decomposition settings, technology preferences and
 * review state; an added subtask keeps only `auto_decompose`. Read back with `storedTaskOptions.catch`,
 * so a row written by an older version reads as defaults instead of failing.
 */
export const storedTaskOptions = z.object({
  max_depth: z.number().int().optional(),
  max_subtasks: z.number().int().optional(),
  complexity_threshold: z.number().optional(),
  use_context: z.boolean().optional(),
  requires_approval: z.boolean().optional(),
  auto_decompose: z.boolean().optional(),
  tech_preferences: z
    .object({
      application_type: z.string().nullable().optional(),
      tech_stack_id: z.string().nullable().optional(),
      github_repo: z.string().nullable().optional(),
      additional_requirements: z.string().nullable().optional(),
    })
    .optional(),
  approved_at: z.string().optional(),
  approved_by: z.string().optional(),
});
export type StoredTaskOptions = z.infer<typeof storedTaskOptions>;

/** A row's options, typed; anything unreadable counts as no options. */
export function readTaskOptions(raw: unknown): StoredTaskOptions {
  const parsed = storedTaskOptions.safeParse(raw ?? {});
  return parsed.success ? parsed.data : {};
}
