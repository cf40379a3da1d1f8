import { and, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../db/client";
import { tasks } from "../db/schema/index";

/**
 * Subtasks that need attention (a split that gave up leaves its node a flagged leaf): the root carries one
 * warning that counts them, kept current whenever a node is flagged or cleared.
 */

/** The root's warning while some subtasks need attention. */
export function needsAttentionWarning(count: number) {
  return count === 1
    ? "1 subtask needs attention: it could not be split, so it was left as it is. Open it in the tree to see why, and restart its decomposition to try again."
    : `${count} subtasks need attention: they could not be split, so they were left as they are. Open them in the tree to see why, and restart their decomposition to try again.`;
}
const NEEDS_ATTENTION_WARNING = /^\d+ subtasks? needs? attention: /;

/** The root's warnings with the needs-attention one recounted (dropped when no subtask is flagged). */
export async function warningsWithAttentionCount(tx: DbOrTx, rootId: string): Promise<string[]> {
  const [current] = await tx.select({ warnings: tasks.warnings }).from(tasks).where(eq(tasks.id, rootId));
  const [flagged] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(tasks)
    .where(and(eq(tasks.rootTaskId, rootId), eq(tasks.needsAttention, true)));
  const others = (current?.warnings ?? []).filter((w) => !NEEDS_ATTENTION_WARNING.test(w));
  const n = flagged?.n ?? 0;
  return n > 0 ? [...others, needsAttentionWarning(n)] : others;
}

/** Rewrites the root's needs-attention warning after a subtask was flagged or cleared. */
export async function refreshAttentionWarning(tx: DbOrTx, rootId: string) {
  await tx
    .update(tasks)
    .set({ warnings: await warningsWithAttentionCount(tx, rootId) })
    .where(eq(tasks.id, rootId));
}
