import { z } from "zod";
import { isoTimestamp } from "./common";
import { estimateHours } from "./schedule";

/**
 * Re-planning a node as a reviewable diff, and the plan's history (docs/decisions/019-replan-and-history.md).
 */

/** Why a node is locked: a re-plan never changes it (a person can unlock "edited" and "exported"). */
export const LOCK_REASONS = ["completed", "edited", "exported"] as const;
export type LockReason = (typeof LOCK_REASONS)[number];

export const GUIDANCE_MAX = 500;
export const CHANGE_IDS_MAX = 1000;

/** POST /tasks/{id}/replan */
export const replanInput = z.strictObject({
  guidance: z
    .string({ error: "guidance must be text" })
    .trim()
    .max(GUIDANCE_MAX, `guidance is at most ${GUIDANCE_MAX} characters`)
    .optional(),
});

/** POST /tasks/{id}/replan/{proposal_id}/accept: all changes, or only these. */
export const acceptReplanInput = z.strictObject({
  change_ids: z
    .array(
      z
        .string({ error: "Each change id must be text" })
        .trim()
        .min(1, "A change id cannot be empty")
        .max(20, "Unknown change id"),
      { error: "change_ids must be a list of change ids" },
    )
    .min(1, "Choose at least one change to accept")
    .max(CHANGE_IDS_MAX, `At most ${CHANGE_IDS_MAX} change ids`)
    .optional(),
  /**
   * Accept even though the changes leave a stated requirement with no task (the proposal's `uncovered`);
   * without it such an accept is refused with 409, naming them (issue 40).
   */
  accept_uncovered: z.boolean({ error: "accept_uncovered must be true or false" }).optional(),
});

/** The fields of a node a re-plan proposes, in the API's names. */
export const plannedFields = z.object({
  description: z.string(),
  implementation_details: z.string().nullable(),
  acceptance_criteria: z.array(z.string()),
  requirement_ids: z.array(z.string()),
  story_points: z.number().int().nullable(),
  complexity_score: z.number().nullable(),
  estimate_hours: estimateHours.nullable(),
});
export type PlannedFields = z.infer<typeof plannedFields>;
export const COMPARED_FIELDS = [
  "description",
  "implementation_details",
  "acceptance_criteria",
  "story_points",
  "complexity_score",
  "estimate_hours",
] as const satisfies readonly (keyof PlannedFields)[];

export const replanChange = z.discriminatedUnion("op", [
  z.object({
    change_id: z.string(),
    op: z.literal("add"),
    /** The new node's parent: an existing task, or (parent_change_id) a node another change adds. */
    parent_id: z.string().nullable(),
    parent_change_id: z.string().nullable(),
    /** 0-based place among the parent's children in the proposed plan. */
    position: z.number().int(),
    /** What the new node waits for: existing task ids, or change ids of nodes this proposal adds. */
    after: plannedFields.extend({ depends_on: z.array(z.string()) }),
    requires: z.array(z.string()),
  }),
  z.object({
    change_id: z.string(),
    op: z.literal("update"),
    task_id: z.string(),
    before: plannedFields.partial(),
    after: plannedFields.partial(),
    requires: z.array(z.string()),
  }),
  z.object({
    change_id: z.string(),
    op: z.literal("remove"),
    task_id: z.string(),
    /** The removed node's title and how many subtasks go with it. */
    before: z.object({ description: z.string(), subtasks: z.number().int() }),
    /** "Less detail" merges it into this task: its actual hours, start and dependencies go there. */
    merged_into: z.string().optional(),
    requires: z.array(z.string()),
  }),
  z.object({
    change_id: z.string(),
    op: z.literal("move"),
    task_id: z.string(),
    parent_id: z.string().nullable(),
    parent_change_id: z.string().nullable(),
    position: z.number().int(),
    before: z.object({ parent_id: z.string() }),
    after: z.object({ parent_id: z.string().nullable() }),
    requires: z.array(z.string()),
  }),
]);
export type ReplanChange = z.infer<typeof replanChange>;
export type ReplanOp = ReplanChange["op"];

/** "2 added, 1 moved" / "2 to add, 1 to move": how many changes of each kind, in the given words. */
export function changeSummary(changes: readonly { op: ReplanOp }[], words: Record<ReplanOp, string>): string {
  return (["add", "update", "move", "remove"] as const)
    .map((op) => [changes.filter((c) => c.op === op).length, words[op]] as const)
    .filter(([n]) => n > 0)
    .map(([n, what]) => `${n} ${what}`)
    .join(", ");
}

export const replanProposal = z
  .object({
    proposal_id: z.string(),
    task_id: z.string(),
    guidance: z.string().nullable(),
    planner: z.string(),
    status: z.enum(["open", "accepted", "stale"]),
    created_at: isoTimestamp,
    changes: z.array(replanChange),
    /** Nodes the planner would have changed or dropped but were left alone because they are locked. */
    kept_locked: z.array(
      z.object({ task_id: z.string(), description: z.string(), locked: z.array(z.enum(LOCK_REASONS)) }),
    ),
    /** Stated requirements (R1, R2, ...) that accepting every change would leave with no task. */
    uncovered: z.array(z.string()),
    /** When the proposal changes nothing: why, in a sentence ("“Set up CI” (R2) is done and locked"). */
    why_nothing: z.string().nullable(),
  })
  .meta({ id: "ReplanProposal" });
export type ReplanProposal = z.infer<typeof replanProposal>;

export const replanResult = z.object({
  proposal_id: z.string(),
  /** Every change applied: the chosen ones and the ones they needed (a new parent, a moved subtask). */
  applied: z.array(z.string()),
  revision_id: z.string(),
  /** Proposed dependencies left out because the accepted part of the plan no longer allowed them. */
  dependencies_dropped: z.number().int(),
});
export type ReplanResult = z.infer<typeof replanResult>;

export const REVISION_KINDS = [
  "baseline",
  "edit",
  "move",
  "add",
  "remove",
  "dependency",
  "replan",
  "restore",
] as const;
export type RevisionKind = (typeof REVISION_KINDS)[number];

export const revision = z.object({
  revision_id: z.string(),
  kind: z.enum(REVISION_KINDS),
  summary: z.string(),
  /** The task the change was made on (null for the baseline). */
  task_id: z.string().nullable(),
  created_at: isoTimestamp,
  /** How many tasks the plan had after this change. */
  tasks: z.number().int(),
});
export type Revision = z.infer<typeof revision>;
export const revisionList = z.object({ task_id: z.string(), revisions: z.array(revision) });
export type RevisionList = z.infer<typeof revisionList>;
