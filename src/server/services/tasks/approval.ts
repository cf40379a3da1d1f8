import { and, desc, eq, gt, sql } from "drizzle-orm";
import type { ReviewState } from "../../../shared/schemas/reviews";
import { planReviews, taskRevisions, users } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import type { TaskRow } from "../../plan/rows";
import { teamSettings } from "../teams/teams";
import { projectOf } from "./project-of";

/**
 * Approval before a plan leaves Atomize (issue 41): a plan with `requires_approval` is exported only once
 * approved, and an approval holds for the plan as it was (its newest revision then): an edit, a re-plan or
 * a restore after it makes it stale. In a team, its owners and admins review; a personal plan's creator
 * does. The plan's author does not approve their own team plan unless no one else in the team can.
 */

export async function reviewStateOf(deps: Deps, root: TaskRow): Promise<ReviewState> {
  const rows = await deps.db
    .select({
      id: planReviews.id,
      decision: planReviews.decision,
      comment: planReviews.comment,
      revisionSeq: planReviews.revisionSeq,
      createdAt: planReviews.createdAt,
      reviewerName: sql<string | null>`coalesce(nullif(trim(${users.fullName}), ''), ${users.username})`,
    })
    .from(planReviews)
    .leftJoin(users, eq(users.id, planReviews.reviewerId))
    .where(eq(planReviews.rootTaskId, root.id))
    .orderBy(desc(planReviews.createdAt), desc(planReviews.id))
    .limit(20);
  const reviews = rows.map((r) => ({
    id: r.id,
    decision: r.decision,
    comment: r.comment,
    reviewer_name: r.reviewerName,
    created_at: r.createdAt.toISOString(),
  }));
  const askedBy = await requiredBy(deps, root);
  const required = askedBy !== null;
  const last = rows[0];
  let state: ReviewState["state"] = !required ? "not_required" : !last ? "waiting" : "changes_requested";
  let changedSince: string[] = [];
  if (required && last?.decision === "approve") {
    const later = await deps.db
      .select({ summary: taskRevisions.summary })
      .from(taskRevisions)
      .where(and(eq(taskRevisions.rootTaskId, root.id), gt(taskRevisions.seq, last.revisionSeq ?? 0)))
      .orderBy(desc(taskRevisions.seq))
      .limit(10);
    state = later.length > 0 ? "stale" : "approved";
    changedSince = later.map((l) => l.summary);
  }
  return { state, changed_since: changedSince, required_by: askedBy, reviews };
}

/** Whether the plan needs an approval, and why: its own switch, or its team's setting for every plan. */
export async function requiredBy(deps: Deps, root: TaskRow): Promise<"plan" | "team" | null> {
  if (root.options?.requires_approval === true) return "plan";
  if (root.teamId && (await teamSettings(deps.db, root.teamId))?.requiresApproval) return "team";
  return null;
}

/**
 * Refuses an export of a plan that needs approval and has none that holds, with why: checked before
 * anything else about the export.
 */
export async function assertApprovedForExport(deps: Deps, userId: string, taskId: string, where: string) {
  const root = await projectOf(deps, userId, taskId);
  const { state } = await reviewStateOf(deps, root);
  if (state === "not_required" || state === "approved") return;
  const why = {
    waiting: "it has not been approved yet",
    changes_requested: "its last review asked for changes",
    stale: "it changed after it was approved, so it needs approving again",
  }[state];
  throw new AppError(
    "CONFLICT",
    `This plan needs an approval before it goes to ${where}: ${why}. An owner or admin of its team approves it (POST /api/tasks/{id}/reviews).`,
  );
}
