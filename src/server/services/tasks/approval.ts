import { and, desc, eq, gt, sql } from "drizzle-orm";
import type { z } from "zod";
import type { ReviewState, reviewInput } from "../../../shared/schemas/reviews";
import { resultRows } from "../../db/client";
import { planReviews, taskRevisions, users } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { recordActivity } from "../../plan/activity";
import { getOwnedRow } from "../../plan/owned";
import type { TaskRow } from "../../plan/rows";
import { roleIn, teamSettings } from "../teams/teams";

/**
 * Approval before a plan leaves Atomize (issue 41): a plan with `requires_approval` is exported only once
 * approved, and an approval holds for the plan as it was (its newest revision then): an edit, a re-plan or
 * a restore after it makes it stale. In a team, its owners and admins review; a personal plan's creator
 * does. The plan's author does not approve their own team plan unless no one else in the team can.
 */

async function projectOf(deps: Deps, userId: string, id: string, need?: "read" | "write"): Promise<TaskRow> {
  const row = await getOwnedRow(deps, userId, id, need);
  return row.rootTaskId ? getOwnedRow(deps, userId, row.rootTaskId, need) : row;
}

async function newestRevision(deps: Deps, rootId: string): Promise<number | null> {
  const [row] = await deps.db
    .select({ seq: taskRevisions.seq })
    .from(taskRevisions)
    .where(eq(taskRevisions.rootTaskId, rootId))
    .orderBy(desc(taskRevisions.seq))
    .limit(1);
  return row?.seq ?? null;
}

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

export async function getReviewState(deps: Deps, userId: string, id: string): Promise<ReviewState> {
  return reviewStateOf(deps, await projectOf(deps, userId, id, "read"));
}

/** Records a review: an owner or admin of the plan's team, or a personal plan's creator. */
export async function reviewPlan(
  deps: Deps,
  userId: string,
  id: string,
  input: z.output<typeof reviewInput>,
): Promise<ReviewState> {
  const root = await projectOf(deps, userId, id, "read");
  if ((await requiredBy(deps, root)) === null)
    throw new AppError(
      "CONFLICT",
      "This plan does not need an approval: turn requires_approval on first (PATCH /api/tasks/{id}).",
    );
  if (root.teamId) {
    const role = await roleIn(deps, userId, root.teamId);
    if (role !== "owner" && role !== "admin")
      throw new AppError("FORBIDDEN", `Only the team's owners and admins review plans; you are a ${role}.`);
    if (root.userId === userId && input.decision === "approve") {
      const [others] = resultRows<{ n: number }>(
        await deps.db.execute(sql`select count(*)::int as n from team_members
          where team_id = ${root.teamId} and role in ('owner', 'admin') and user_id <> ${userId}`),
      );
      if (Number(others?.n ?? 0) > 0)
        throw new AppError(
          "FORBIDDEN",
          "You wrote this plan: another owner or admin of the team approves it.",
        );
    }
  } else if (root.userId !== userId) {
    throw new AppError("FORBIDDEN", "Only the plan's creator reviews a personal plan.");
  }
  const revisionSeq = await newestRevision(deps, root.id);
  await deps.db.transaction(async (tx) => {
    await tx.insert(planReviews).values({
      rootTaskId: root.id,
      reviewerId: userId,
      decision: input.decision,
      comment: input.comment,
      revisionSeq,
    });
    await recordActivity(tx, {
      rootId: root.id,
      taskId: root.id,
      kind: "review",
      summary: `${input.decision === "approve" ? "approved the plan" : "asked for changes to the plan"}${input.comment ? `: “${input.comment.slice(0, 200)}”` : ""}`,
    });
  });
  await deps.events.publish({
    type: "task.updated",
    userId,
    taskId: root.id,
    rootTaskId: root.id,
    message: input.decision === "approve" ? "Plan approved" : "Changes requested on the plan",
  });
  return reviewStateOf(deps, root);
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
