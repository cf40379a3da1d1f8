import { z } from "zod";
import { parseGithubRepoUrl } from "../github-names";
import type { LockReason } from "./replan";
import { type EstimateRange, estimateRange, type Rollup } from "./schedule";

export const TASK_STATUSES = [
  "pending",
  "submitted",
  "in_progress",
  "processing",
  "completed",
  "failed",
  "error",
  "rejected",
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
});
export type ListTasksInput = z.input<typeof listTasksInput>;

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

export type Epic = { id: string; title: string; description: string; priority: number };
export type UserStory = {
  id: string;
  epic_id: string | null;
  actor: string;
  action: string;
  benefit: string;
  acceptance_criteria: string[];
  story_points: number | null;
  priority: string;
};
export type TechStackContext = {
  frontend?: string;
  backend?: string;
  database?: string;
  deployment?: string;
  description?: string;
  application_type?: string;
  preferred_languages?: string[];
  deployment_target?: string;
  frameworks?: Record<string, string[]>;
};
export type TaskContext = {
  tech_stack: TechStackContext | null;
  best_practices: string[];
  epics: Epic[];
  user_stories: UserStory[];
};
export type Swimlane = {
  name: string;
  description?: string;
  events: string[];
  commands: string[];
  read_models: string[];
};
export type Chapter = {
  name: string;
  description?: string;
  sub_chapters: { name: string; slices: string[] }[];
};
export type EventModelMetadata = {
  event_model_markdown: string;
  extracted_events: unknown[];
  commands: unknown[];
  read_models: unknown[];
  user_interactions: unknown[];
  automations: unknown[];
  swimlanes: Swimlane[];
  chapters: Chapter[];
};

export type Task = {
  task_id: string;
  id: string;
  description: string;
  status: TaskStatus;
  complexity_score: number | null;
  complexity: number | null;
  rejection_reason: string | null;
  failure_reason: string | null;
  /** A subtask whose split kept failing: left as a leaf, with the reason, while the rest completed. */
  needs_attention: boolean;
  attention_reason: string | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
  depth: number;
  position: number;
  total_subtasks: number;
  children_count: number;
  parent_id: string | null;
  root_task_id: string | null;
  context: TaskContext | null;
  additional_context: Record<string, unknown> | null;
  metadata: EventModelMetadata | null;
  story_points: number | null;
  implementation_details: string | null;
  /** 2-5 testable statements of when this node is done (every planned leaf has them). */
  acceptance_criteria: string[];
  /** The stated requirements (R1, R2, ... read from the root's description) this node covers. */
  requirement_ids: string[];
  /** Developer-hours, subtasks included (the likely value of `estimate_hours`). */
  estimated_hours: number | null;
  /** The estimate as a range in developer-hours (low <= likely <= high); null when there is none. */
  estimate_hours: EstimateRange | null;
  /** The tasks of the same plan this one waits for (a parent's apply to all its subtasks). */
  depends_on: string[];
  /** "rule" (the offline outline's heuristic, shown as "estimated by rule"), "model" or "person". */
  estimate_source: string | null;
  /** Why a re-plan leaves this node alone (empty when it may change it); see schemas/replan.ts. */
  locked: LockReason[];
  /** When a person last changed its content or place, and when an export last created it elsewhere. */
  edited_at: string | null;
  exported_at: string | null;
  /** What exports made for this task: the JIRA issue, Trello card or GitHub issue, with its link. */
  remote_links: RemoteLink[];
  /**
   * On a root: what its description states, read by rule (requirements R1, R2, ..., non-goals, and the
   * rules the work must keep), and the kind of work it was planned as, with the evidence.
   */
  stated_scope: {
    requirements: { id: string; text: string }[];
    non_goals: string[];
    constraints: string[];
    planned_as: { kind: string; label: string; because: string[] };
  } | null;
  is_atomic: boolean;
  predictions: Record<string, unknown> | null;
  tech_preferences: Record<string, unknown> | null;
  options: {
    max_depth: number;
    max_subtasks: number;
    complexity_threshold: number;
    use_context: boolean;
    requires_approval: boolean;
  } | null;
  planner: string | null;
  model: string | null;
  warnings: string[];
};
/** A node of a tree answer: its children, and on a parent the roll-up of its subtree (null on a leaf). */
export type RemoteLink = {
  kind: "jira" | "trello" | "github";
  /** "MKT-12", "#34", a card's short link. */
  key: string;
  url: string;
  /** Its status there when last seen ("Done", "closed"), or null before the first sync. */
  status: string | null;
};

export type TaskTreeNode = Task & { children: TaskTreeNode[]; rollup: Rollup | null };

/**
 * How much of a task's work is done: its leaves (the work items; a task without subtasks is its own leaf)
 * done, of all of them. A plan's root is "completed" once it is planned, so this, not the root's status,
 * says how far the work has got.
 */
export type Progress = { leaves_done: number; leaves_total: number; percent: number };

/** A task in a list answer, with its work's progress. */
export type TaskListItem = Task & { progress: Progress };
export type TaskList = { tasks: TaskListItem[]; total: number; page: number; page_size: number };
export type TaskStats = {
  total: number;
  completed: number;
  in_progress: number;
  pending: number;
  rejected: number;
  failed: number;
};
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

export type TaskUsage = { used: number; limit: number | null; period: string; resets_at: string };

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
