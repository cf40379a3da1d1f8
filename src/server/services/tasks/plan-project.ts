import { and, eq } from "drizzle-orm";
import type { Task } from "../../../shared/schemas/tasks";
import { tasks } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { agentStartedEvents } from "../../engine/agent";
import { readingToCheck } from "../../engine/brief";
import { AGENT_PLANNER, queuePlan } from "../../engine/jobs";
import { storedReadingOf } from "../../engine/reading/review";
import { AppError } from "../../errors";
import { getOwnedRow } from "../../plan/owned";
import { countMonthlyUse, monthlyUseApplies } from "./allowance";
import { getTask } from "./get-task";
import { NOT_AWAITING } from "./reading";

/**
 * Plans a project from its reading as it now stands: one use of the monthly allowance (refused as a
 * creation is, when used up), then the engine's run, or a coding agent's planning when the project was
 * created for one.
 */
export async function planProject(deps: Deps, userId: string, id: string): Promise<Task> {
  const root = await getOwnedRow(deps, userId, id);
  if (root.parentId !== null || root.status !== "awaiting_review")
    throw new AppError("CONFLICT", NOT_AWAITING);
  const byAgent = root.planner === AGENT_PLANNER;
  const applies = await monthlyUseApplies(deps, userId, byAgent);
  const row = await deps.db.transaction(async (tx) => {
    await countMonthlyUse(tx, userId, { applies, allPlanning: deps.config.MONTHLY_LIMIT_ALL_PLANNING });
    const [updated] = await tx
      .update(tasks)
      .set({
        status: byAgent ? "processing" : "pending",
        // A project read before the check (or by an older version) plans from what it shows.
        reading: storedReadingOf(root.reading) ?? readingToCheck(root),
        updatedAt: new Date(),
      })
      .where(and(eq(tasks.id, root.id), eq(tasks.status, "awaiting_review")))
      .returning();
    if (!updated) throw new AppError("CONFLICT", NOT_AWAITING);
    if (!byAgent) await queuePlan(deps.jobs, updated.id, tx);
    return updated;
  });
  deps.log.info("task planned from its checked reading", { taskId: row.id, userId });
  await deps.events.publish({
    type: "task.status_changed",
    userId,
    taskId: row.id,
    rootTaskId: row.id,
    status: row.status,
    data: { previous_status: "awaiting_review" },
  });
  if (byAgent) await deps.events.publishMany(agentStartedEvents(row));
  return getTask(deps, userId, row.id);
}
