import { and, eq } from "drizzle-orm";
import type { z } from "zod";
import type { Reading, setReadingInput } from "../../../shared/schemas/reading";
import { tasks } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { readingToCheck } from "../../engine/brief";
import { applyReading, storedReadingOf } from "../../engine/reading/review";
import { AppError } from "../../errors";
import { getOwnedRow } from "../../plan/owned";
import { answer, NOT_AWAITING } from "./reading";

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
