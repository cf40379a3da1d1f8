import { z } from "zod";
import type { EstimateRange } from "./schedule";
import { EDITABLE_STATUSES, type Progress, type TaskStatus, type TechStackContext } from "./tasks";

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
});

export type { Progress };

export type ProjectSummary = {
  id: string;
  title: string;
  /** The plan's state (processing while it is being planned, completed once planned or done). */
  status: TaskStatus;
  progress: Progress;
  created_at: string;
};
export type ProjectList = { projects: ProjectSummary[]; total: number };

export type PlanOutline = {
  task_id: string;
  root_task_id: string;
  status: TaskStatus;
  progress: Progress;
  critical_path_hours: number | null;
  /**
   * One line per task: `1.2 [ ] "Title" (3 pts, 5h) id=… after 1.1 *critical *ready`. Marks: [x] done,
   * [~] in progress, [ ] to do, [!] failed; `after` names what it waits for by outline number (or id
   * outside the outline). The title is a JSON string, so what its author wrote stays inside its quotes.
   */
  outline: string;
  /** Tasks below `depth`, or past the line limit, that the outline leaves out. */
  omitted: number;
};

export type TaskRef = { id: string; title: string; status: TaskStatus };

/** Everything an agent needs to do one task. */
export type AgentTask = {
  id: string;
  title: string;
  description: string;
  status: TaskStatus;
  is_leaf: boolean;
  story_points: number | null;
  estimate_hours: EstimateRange | null;
  implementation_details: string | null;
  acceptance_criteria: string[];
  /** The project's stated requirements this task covers, with their text. */
  requirements: { id: string; text: string }[];
  /** Ancestors from the project down to the parent. */
  path: TaskRef[];
  depends_on: TaskRef[];
  /** Tasks that wait for this one directly. */
  blocks: TaskRef[];
  /** Leaves that become ready to start once this task is done. */
  unblocks: TaskRef[];
  critical: boolean;
  notes: { body: string; token_name: string | null; created_at: string }[];
  project: {
    id: string;
    title: string;
    tech_stack: TechStackContext | null;
    best_practices: string[];
  };
};

export type NextTask = {
  project_id: string;
  /** The ready leaf to do next (critical path first, one nobody started before one in progress), or null. */
  task: AgentTask | null;
  /** Why there is none, or what else is going on. */
  message: string;
  /** Other ready leaves, in the order they should be taken. */
  also_ready: TaskRef[];
  /** Ready leaves someone already started (the chosen one among them only when nothing else is ready). */
  in_progress: TaskRef[];
  progress: Progress;
};

export type StatusChange = {
  task: TaskRef;
  /** Leaves that became ready to start with this change (completing a task unblocks its dependents). */
  unblocked: TaskRef[];
  progress: Progress;
};
