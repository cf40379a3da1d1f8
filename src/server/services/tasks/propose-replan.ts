import { and, desc, eq, notInArray } from "drizzle-orm";
import type { z } from "zod";
import type { ReplanProposal, replanInput } from "../../../shared/schemas/replan";
import { replanProposals } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { readGuidance } from "../../engine/guidance";
import { PlannerError } from "../../engine/planners/errors";
import { planSubtree } from "../../engine/replan-run";
import { loadRepositoryMap } from "../../engine/repository/map-summary";
import { AppError } from "../../errors";
import { getOwnedRow } from "../../plan/owned";
import { diffPlan } from "../../plan/replan-diff";
import { loadTreeRows } from "../../plan/rows";
import { countMonthlyUse } from "./allowance";
import { fingerprint, refuseWhileDecomposing } from "./proposals";
import {
  coarsened,
  existingOf,
  PROPOSALS_KEPT,
  toProposal,
  uncoveredByProposal,
  whyNothingOf,
} from "./replan";

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
  const planner = lessDetail ? deps.planners.offline : await deps.planners.forUser(userId);
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
