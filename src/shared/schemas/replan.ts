import { z } from "zod";
import type { EstimateRange } from "./schedule";

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
});

/** The fields of a node a re-plan proposes, in the API's names. */
export type PlannedFields = {
  description: string;
  implementation_details: string | null;
  acceptance_criteria: string[];
  requirement_ids: string[];
  story_points: number | null;
  complexity_score: number | null;
  estimate_hours: EstimateRange | null;
};
export const COMPARED_FIELDS = [
  "description",
  "implementation_details",
  "acceptance_criteria",
  "story_points",
  "complexity_score",
  "estimate_hours",
] as const satisfies readonly (keyof PlannedFields)[];
export type ComparedField = (typeof COMPARED_FIELDS)[number];

export type ReplanChange =
  | {
      change_id: string;
      op: "add";
      /** The new node's parent: an existing task, or (parent_change_id) a node another change adds. */
      parent_id: string | null;
      parent_change_id: string | null;
      /** 0-based place among the parent's children in the proposed plan. */
      position: number;
      /** What the new node waits for: existing task ids, or change ids of nodes this proposal adds. */
      after: PlannedFields & { depends_on: string[] };
      requires: string[];
    }
  | {
      change_id: string;
      op: "update";
      task_id: string;
      before: Partial<PlannedFields>;
      after: Partial<PlannedFields>;
      requires: string[];
    }
  | {
      change_id: string;
      op: "remove";
      task_id: string;
      /** The removed node's title and how many subtasks go with it. */
      before: { description: string; subtasks: number };
      requires: string[];
    }
  | {
      change_id: string;
      op: "move";
      task_id: string;
      parent_id: string | null;
      parent_change_id: string | null;
      position: number;
      before: { parent_id: string };
      after: { parent_id: string | null };
      requires: string[];
    };
export type ReplanOp = ReplanChange["op"];

/** "2 added, 1 moved" / "2 to add, 1 to move": how many changes of each kind, in the given words. */
export function changeSummary(changes: readonly { op: ReplanOp }[], words: Record<ReplanOp, string>): string {
  return (["add", "update", "move", "remove"] as const)
    .map((op) => [changes.filter((c) => c.op === op).length, words[op]] as const)
    .filter(([n]) => n > 0)
    .map(([n, what]) => `${n} ${what}`)
    .join(", ");
}

export type ReplanProposal = {
  proposal_id: string;
  task_id: string;
  guidance: string | null;
  planner: string;
  status: "open" | "accepted" | "stale";
  created_at: string;
  changes: ReplanChange[];
  /** Nodes the planner would have changed or dropped but were left alone because they are locked. */
  kept_locked: { task_id: string; description: string; locked: LockReason[] }[];
};

export type ReplanResult = {
  proposal_id: string;
  /** Every change applied: the chosen ones and the ones they needed (a new parent, a moved subtask). */
  applied: string[];
  revision_id: string;
  /** Proposed dependencies left out because the accepted part of the plan no longer allowed them. */
  dependencies_dropped: number;
};

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

export type Revision = {
  revision_id: string;
  kind: RevisionKind;
  summary: string;
  /** The task the change was made on (null for the baseline). */
  task_id: string | null;
  created_at: string;
  /** How many tasks the plan had after this change. */
  tasks: number;
};
export type RevisionList = { task_id: string; revisions: Revision[] };
