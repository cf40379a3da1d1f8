import { z } from "zod";
import { REQUIREMENT_STATUSES } from "../requirement-coverage";
import { remoteLink, TASK_STATUSES, taskId } from "./tasks";

/**
 * Requirement traceability (GET /tasks/{id}/requirements, the `requirement_status` MCP tool): each
 * requirement the plan's description states, the tasks covering it (the rule is in
 * shared/requirement-coverage.ts), their status and what exports made for them, and the GitHub pull
 * requests that close their issues.
 */

export const requirementStatusInput = z.strictObject({ id: taskId });

export const PULL_REQUEST_STATES = ["open", "closed", "merged"] as const;

/** A pull request whose description closes an exported GitHub issue ("Closes #12"), as the last sync saw it. */
export const linkedPullRequest = z
  .object({
    number: z.number().int(),
    title: z.string(),
    url: z.string(),
    /** "merged" when GitHub says it was merged; "closed" when closed without merging. */
    state: z.enum(PULL_REQUEST_STATES),
    /** "owner/repo". */
    repository: z.string(),
  })
  .meta({ id: "LinkedPullRequest" });
export type LinkedPullRequest = z.infer<typeof linkedPullRequest>;

export const requirementTask = z.object({
  id: z.string(),
  title: z.string(),
  status: z.enum(TASK_STATUSES),
  /** Its work items (itself when it has no subtasks) done, of all of them. */
  leaves_done: z.number().int(),
  leaves_total: z.number().int(),
  remote_links: z.array(remoteLink),
});
export type RequirementTask = z.infer<typeof requirementTask>;

export const requirementProgress = z
  .object({
    /** "R1", "R2", ... as the plan's stated scope numbers them. */
    id: z.string(),
    text: z.string(),
    /** done: every work item under its tasks is completed; no_tasks: no task covers it. */
    status: z.enum(REQUIREMENT_STATUSES),
    leaves_done: z.number().int(),
    leaves_total: z.number().int(),
    /** The most specific tasks naming it, in the plan's order. */
    tasks: z.array(requirementTask),
    /** Pull requests closing the GitHub issues of its tasks or of their subtasks. */
    pull_requests: z.array(linkedPullRequest),
  })
  .meta({ id: "RequirementProgress" });
export type RequirementProgress = z.infer<typeof requirementProgress>;

export const requirementStatus = z
  .object({
    /** The plan's root task (whatever task of the plan was asked for). */
    project_id: z.string(),
    project_title: z.string(),
    requirements: z.array(requirementProgress),
    totals: z.object({
      requirements: z.number().int(),
      done: z.number().int(),
      not_done: z.number().int(),
      without_tasks: z.number().int(),
    }),
  })
  .meta({ id: "RequirementStatus" });
export type RequirementStatusAnswer = z.infer<typeof requirementStatus>;
