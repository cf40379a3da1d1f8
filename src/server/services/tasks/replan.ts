import { and, desc, eq, notInArray } from "drizzle-orm";
import type { z } from "zod";
import type {
  PlannedFields,
  ReplanChange,
  ReplanProposal,
  replanInput,
} from "../../../shared/schemas/replan";
import { replanProposals } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { readGuidance } from "../../engine/guidance";
import { PlannerError } from "../../engine/planners/errors";
import { planSubtree } from "../../engine/replan-run";
import { loadRepositoryMap } from "../../engine/repository/map-summary";
import { AppError } from "../../errors";
import { coarsenPlan, lockedSentence } from "../../plan/coarsen";
import { getOwnedRow } from "../../plan/owned";
import { uncoveredBy } from "../../plan/replan-coverage";
import { diffPlan, type ExistingNode } from "../../plan/replan-diff";
import type { TaskRow } from "../../plan/rows";
import { estimateOf, loadTreeRows, subtreeOf } from "../../plan/rows";
import { countMonthlyUse } from "./allowance";
import { findProposal, fingerprint, refuseWhileDecomposing } from "./proposals";
import { lockReasons, statedScope } from "./serialize";

export { acceptReplan, unlockTask } from "./replan-accept";

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

function toProposal(
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
function coarsened(rows: TaskRow[], target: TaskRow) {
  return coarsenPlan(
    { id: target.id, isProject: target.parentId === null, fields: fieldsOfRow(target) },
    existingOf(rows, target),
  );
}

function existingOf(rows: TaskRow[], target: TaskRow): ExistingNode[] {
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
function whyNothingOf(
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
function uncoveredByProposal(rows: TaskRow[], root: TaskRow, changes: ReplanChange[]): string[] {
  const stated = statedScope(root)?.requirements.map((r) => r.id) ?? [];
  return uncoveredBy(rows, changes, stated);
}

/**
 * Asks the planner for a new subtree of a task (the root included), with optional guidance, and returns
 * the difference to the current one as a proposal. Nothing in the tree changes. A model re-plan uses one of
 * the monthly allowance (it costs model calls); the offline planner's does not.
 */
export async function proposeReplan(
  deps: Deps,
  userId: string,
  id: string,
  input: z.output<typeof replanInput>,
): Promise<ReplanProposal> {
  const target = await getOwnedRow(deps, userId, id);
  const rootId = target.rootTaskId ?? target.id;
  const rows = await loadTreeRows(deps.db, rootId);
  const root = rows.find((r) => r.id === rootId)!;
  refuseWhileDecomposing(root, "re-plan it");
  const guidance = input.guidance ?? "";
  // "Less detail" merges what is there (plan/coarsen.ts): no planner runs, so no model is paid for.
  const lessDetail = readGuidance(guidance).lessDetail;
  const planner = lessDetail ? deps.planners.outline : await deps.planners.forUser(userId);
  if (!lessDetail && (planner.name !== "offline" || deps.config.MONTHLY_LIMIT_ALL_PLANNING)) {
    await deps.db.transaction((tx) =>
      countMonthlyUse(tx, userId, { allPlanning: deps.config.MONTHLY_LIMIT_ALL_PLANNING }),
    );
  }
  const diff = lessDetail
    ? coarsened(rows, target)
    : diffPlan(
        target.id,
        existingOf(rows, target),
        await planSubtree(
          planner,
          root,
          target,
          rows,
          guidance,
          await loadRepositoryMap(deps.db, root.id),
        ).catch((err: unknown) => {
          // The provider refused or could not be reached: the caller is told so, in the words a failed
          // decomposition uses, as the gateway error it is (not a server error of ours).
          if (err instanceof PlannerError) throw new AppError("BAD_GATEWAY", err.message, { cause: err });
          throw err;
        }),
      );
  const saved = await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(replanProposals)
      .values({
        userId,
        taskId: target.id,
        rootTaskId: rootId,
        guidance: guidance || null,
        planner: planner.name,
        baseFingerprint: fingerprint(rows, target.id),
        changes: diff.changes,
        keptLocked: diff.keptLocked,
      })
      .returning();
    const kept = await tx
      .select({ id: replanProposals.id })
      .from(replanProposals)
      .where(eq(replanProposals.rootTaskId, rootId))
      .orderBy(desc(replanProposals.createdAt), desc(replanProposals.id))
      .limit(PROPOSALS_KEPT);
    await tx.delete(replanProposals).where(
      and(
        eq(replanProposals.rootTaskId, rootId),
        notInArray(
          replanProposals.id,
          kept.map((k) => k.id),
        ),
      ),
    );
    return row!;
  });
  deps.log.info("re-plan proposed", {
    taskId: target.id,
    changes: diff.changes.length,
    planner: planner.name,
  });
  return toProposal(
    saved,
    uncoveredByProposal(rows, root, diff.changes),
    whyNothingOf(rows, target, saved.guidance, saved.keptLocked, saved.planner),
  );
}

/** A proposal the caller made for this task (404 otherwise). */
export async function getReplan(
  deps: Deps,
  userId: string,
  id: string,
  proposalId: string,
): Promise<ReplanProposal> {
  const target = await getOwnedRow(deps, userId, id);
  const proposal = await findProposal(deps.db, userId, target.id, proposalId);
  const rootId = target.rootTaskId ?? target.id;
  const rows = await loadTreeRows(deps.db, rootId);
  return toProposal(
    proposal,
    uncoveredByProposal(rows, rows.find((r) => r.id === rootId)!, proposal.changes),
    proposal.changes.length === 0
      ? whyNothingOf(rows, target, proposal.guidance, proposal.keptLocked, proposal.planner)
      : null,
  );
}
