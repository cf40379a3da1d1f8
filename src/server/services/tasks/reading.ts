import { and, count, eq, isNull } from "drizzle-orm";
import type { z } from "zod";
import {
  AWAITING_REVIEW_MAX,
  READING_KINDS,
  type Reading,
  type setReadingInput,
} from "../../../shared/schemas/reading";
import type { Task } from "../../../shared/schemas/tasks";
import type { Tx } from "../../db/client";
import { tasks, users } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { agentStartedEvents } from "../../engine/agent";
import { readingToCheck } from "../../engine/brief";
import { AGENT_PLANNER, queuePlan } from "../../engine/jobs";
import { KIND_LABELS } from "../../engine/reading/kind";
import { applyReading, type StoredReading, shownItems, storedReadingOf } from "../../engine/reading/review";
import { AppError } from "../../errors";
import { getOwnedRow } from "../../plan/owned";
import type { TaskRow } from "../../plan/rows";
import { countMonthlyUse, monthlyUseApplies } from "./allowance";
import { getTask } from "./read";

/**
 * The user checks what was read before anything is planned (issue 38; decision 032). A project created
 * with `review_reading` is read and stops in `awaiting_review`; its owner reads the reading, changes it
 * (roles, texts, items, the kind), and plans it. The reading is stored on the root, and every planner is
 * given it (engine/brief.ts `briefOf`).
 */

const NOT_AWAITING =
  "This project's reading can only be changed, or the project planned from it, while it waits for your check (status awaiting_review).";

/**
 * Bounds the projects one user keeps waiting for a check: they cost nothing of the monthly allowance
 * until planned, so the bound stops anyone filling the database for free. Locks the user's row, like
 * `countMonthlyUse`, so two concurrent creations cannot both take the last place.
 */
export async function holdForReview(tx: Tx, userId: string): Promise<void> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("update");
  const [held] = await tx
    .select({ n: count() })
    .from(tasks)
    .where(and(eq(tasks.userId, userId), isNull(tasks.parentId), eq(tasks.status, "awaiting_review")));
  if ((held?.n ?? 0) >= AWAITING_REVIEW_MAX) {
    throw new AppError(
      "CONFLICT",
      `You already have ${AWAITING_REVIEW_MAX} projects waiting for a check of their reading. Plan or delete one of them first, or create this one without review_reading.`,
    );
  }
}

async function projectOf(deps: Deps, userId: string, id: string): Promise<TaskRow> {
  const row = await getOwnedRow(deps, userId, id);
  return row.rootTaskId ? getOwnedRow(deps, userId, row.rootTaskId) : row;
}

function answer(root: TaskRow, stored: StoredReading): Reading {
  return {
    project_id: root.id,
    status: root.status,
    kind: stored.kind,
    kind_label: KIND_LABELS[stored.kind],
    kind_reasons: stored.because,
    kinds: READING_KINDS.map((id) => ({ id, label: KIND_LABELS[id] })),
    items: shownItems(stored),
  };
}

/**
 * What was read of a project (any of its task ids names it): the checked reading when it has one, else
 * the description read now, as the planners read it.
 */
export async function getReading(deps: Deps, userId: string, id: string): Promise<Reading> {
  const root = await projectOf(deps, userId, id);
  return answer(root, storedReadingOf(root.reading) ?? readingToCheck(root));
}

/** Replaces the reading of a project waiting for its check (409 otherwise). */
export async function setReading(
  deps: Deps,
  userId: string,
  id: string,
  input: z.output<typeof setReadingInput>,
): Promise<Reading> {
  const root = await getOwnedRow(deps, userId, id);
  if (root.parentId !== null || root.status !== "awaiting_review")
    throw new AppError("CONFLICT", NOT_AWAITING);
  const stored = storedReadingOf(root.reading) ?? readingToCheck(root);
  const next = applyReading(stored, input);
  const [updated] = await deps.db
    .update(tasks)
    .set({ reading: next, updatedAt: new Date() })
    .where(and(eq(tasks.id, root.id), eq(tasks.status, "awaiting_review")))
    .returning();
  if (!updated) throw new AppError("CONFLICT", NOT_AWAITING);
  await deps.events.publish({
    type: "task.updated",
    userId,
    taskId: root.id,
    rootTaskId: root.id,
    status: updated.status,
    message: "Reading checked",
  });
  return answer(updated, next);
}

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
