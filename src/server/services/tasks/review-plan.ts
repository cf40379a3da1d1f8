import { desc, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import type { ReviewState, reviewInput } from "../../../shared/schemas/reviews";
import { resultRows } from "../../db/client";
import { planReviews, taskRevisions } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { recordActivity } from "../../plan/activity";
import { roleIn } from "../teams/teams";
import { requiredBy, reviewStateOf } from "./approval";
import { projectOf } from "./project-of";

async function newestRevision(deps: Deps, rootId: string): Promise<number | null> {
  const [row] = await deps.db
    .select({ seq: taskRevisions.seq })
    .from(taskRevisions)
    .where(eq(taskRevisions.rootTaskId, rootId))
    .orderBy(desc(taskRevisions.seq))
    .limit(1);
  return row?.seq ?? null;
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
