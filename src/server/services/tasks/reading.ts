import { and, count, eq, isNull } from "drizzle-orm";
import { AWAITING_REVIEW_MAX, READING_KINDS, type Reading } from "../../../shared/schemas/reading";
import type { Tx } from "../../db/client";
import { tasks, users } from "../../db/schema/index";
import { KIND_LABELS } from "../../engine/reading/kind";
import { type StoredReading, shownItems } from "../../engine/reading/review";
import { AppError } from "../../errors";
import type { TaskRow } from "../../plan/rows";

/**
 * The user checks what was read before anything is planned (issue 38; decision 032). A project created
 * with `review_reading` is read and stops in `awaiting_review`; its owner reads the reading, changes it
 * (roles, texts, items, the kind), and plans it. The reading is stored on the root, and every planner is
 * given it (engine/brief.ts `briefOf`).
 */

export const NOT_AWAITING =
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

export function answer(root: TaskRow, stored: StoredReading): Reading {
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
