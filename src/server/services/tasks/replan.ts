import type { PlannedFields, ReplanChange, ReplanProposal } from "../../../shared/schemas/replan";
import type { replanProposals } from "../../db/schema/index";
import { readGuidance } from "../../engine/guidance";
import { coarsenPlan, lockedSentence } from "../../plan/coarsen";
import { uncoveredBy } from "../../plan/replan-coverage";
import type { ExistingNode } from "../../plan/replan-diff";
import type { TaskRow } from "../../plan/rows";
import { estimateOf, subtreeOf } from "../../plan/rows";
import { lockReasons, statedScope } from "./serialize";

/**
 * Re-planning a node as a reviewable diff (docs/decisions/019-replan-and-history.md): the planner plans
 * the node's subtree again, with the person's guidance, without touching the tree; the answer is a list of
 * changes (diffPlan) kept as a proposal; accepting all or some applies them in one transaction as a
 * revision of the plan, unless the subtree changed since (409).
 */

/** Proposals kept per plan; older ones are dropped as new ones are made. */
export const PROPOSALS_KEPT = 10;

function fieldsOfRow(r: TaskRow): PlannedFields {
  return {
    description: r.description,
    implementation_details: r.implementationDetails,
    acceptance_criteria: r.acceptanceCriteria,
    requirement_ids: r.requirementIds,
    story_points: r.storyPoints,
    complexity_score: r.complexityScore,
    estimate_hours: estimateOf(r),
  };
}

export function toProposal(
  row: typeof replanProposals.$inferSelect,
  uncovered: string[],
  whyNothing: string | null,
): ReplanProposal {
  return {
    proposal_id: row.id,
    task_id: row.taskId,
    guidance: row.guidance,
    planner: row.planner,
    status: row.status,
    created_at: row.createdAt.toISOString(),
    changes: row.changes,
    kept_locked: row.keptLocked,
    uncovered,
    why_nothing: row.changes.length === 0 ? whyNothing : null,
  };
}

/** "Less detail" on a node: its subtree merged, as a proposal's changes, and why nothing if so. */
export function coarsened(rows: TaskRow[], target: TaskRow) {
  return coarsenPlan(
    { id: target.id, isProject: target.parentId === null, fields: fieldsOfRow(target) },
    existingOf(rows, target),
  );
}

export function existingOf(rows: TaskRow[], target: TaskRow): ExistingNode[] {
  return subtreeOf(rows, target.id).map((r) => ({
    id: r.id,
    parentId: r.parentId!,
    fields: fieldsOfRow(r),
    locked: lockReasons(r),
  }));
}

/**
 * Why a proposal changes nothing, in a sentence: "less detail" says what it could not merge; another
 * re-plan names the locked tasks it left alone, or says the planner's plan is the one there is.
 */
export function whyNothingOf(
  rows: TaskRow[],
  target: TaskRow,
  guidance: string | null,
  keptLocked: ReplanProposal["kept_locked"],
  planner: string,
): string {
  if (readGuidance(guidance ?? "").lessDetail) return coarsened(rows, target).nothing ?? "";
  const byId = new Map(rows.map((r) => [r.id, r]));
  const locked = keptLocked.flatMap((k) => {
    const r = byId.get(k.task_id);
    return r ? [lockedSentence(fieldsOfRow(r), k.locked)] : [];
  });
  if (locked.length) {
    return `The planner would change only locked tasks: ${locked.slice(0, 3).join("; ")}${locked.length > 3 ? `; and ${locked.length - 3} more` : ""}. Reopen or unlock them to let a re-plan change them.`;
  }
  return planner === "offline"
    ? "The offline planner plans this part as it is now. Guidance such as “less detail”, “more detail” or “skip <topic>” gives a different plan, and a language model follows any guidance."
    : "The planner plans this part as it is now. Guidance gives it something to change.";
}

/** The stated requirements a proposal's changes, all accepted, would leave with no task. */
export function uncoveredByProposal(rows: TaskRow[], root: TaskRow, changes: ReplanChange[]): string[] {
  const stated = statedScope(root)?.requirements.map((r) => r.id) ?? [];
  return uncoveredBy(rows, changes, stated);
}
