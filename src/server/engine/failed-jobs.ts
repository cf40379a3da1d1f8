import { and, eq } from "drizzle-orm";
import type { StageId } from "../../shared/schemas/realtime";
import { tasks } from "../db/schema/index";
import type { Deps } from "../deps";
import { type JobRow, PermanentJobError } from "../jobs/queue";
import { refreshAttentionWarning } from "../plan/attention";
import { lockPlanStatus } from "../plan/locks";
import { loadTaskRow, type TaskRow } from "../plan/rows";
import { failedStage, reportStage, setRootStatus } from "./events";
import { failureReason } from "./failure-reason";
import { JOB_COMPOSE, JOB_NODE } from "./jobs";
import { PlannerError } from "./planners/errors";
import { finishGroupIfIdle } from "./run-completion";

/**
 * A job that gave up. A subtask's split flags that subtask and the decomposition goes on; anything
 * else (the root's stages, the composer) fails the decomposition with a reason the user can read.
 */
export async function failDecomposition(deps: Deps, job: JobRow, error: Error) {
  const rootId = job.groupKey;
  if (!rootId) return;
  const root = await loadTaskRow(deps.db, rootId);
  if (!root) return;
  // The queue wraps permanent planner errors; the planner's own message is the one meant for people.
  const cause = error.cause instanceof Error ? error.cause : null;
  const plannerError = error instanceof PlannerError ? error : cause instanceof PlannerError ? cause : null;
  // Anything else is ours (an answer that broke the plan's schema, a database error): the detail goes to
  // the log, and the person reads a sentence (failure-reason.ts).
  if (!plannerError)
    deps.log.error("decomposition step failed", {
      rootId,
      jobId: job.id,
      kind: job.kind,
      // The errors themselves, which the logger scrubs (a failed query's message carries its parameters).
      err: error,
    });
  if (job.kind === JOB_NODE) {
    const reason = plannerError ? plannerError.message : failureReason(cause ?? error, "subtask");
    await flagNodeForAttention(deps, root, String(job.payload.nodeId), reason);
    return;
  }
  if (!["processing", "pending"].includes(root.status)) return;
  const reason = plannerError ? plannerError.message : failureReason(cause ?? error, "plan");
  await deps.jobs.cancelGroup(rootId);
  await setRootStatus(deps, root, "failed", { failureReason: reason });
  const stage: StageId =
    failedStage.get(error) ??
    (cause ? failedStage.get(cause) : undefined) ??
    (job.kind === JOB_COMPOSE ? "composer" : job.kind === JOB_NODE ? "decomposer" : "root_processor");
  await reportStage(deps, root, stage, "error", reason);
  await deps.events.publish({
    type: "decomposition.error",
    userId: root.userId,
    taskId: root.id,
    rootTaskId: root.id,
    message: reason,
  });
}

/** Planner output that stays invalid after the planner's own retries cannot be fixed by retrying the job. */
export function permanentIfPlannerGaveUp(err: unknown): unknown {
  return err instanceof PlannerError && err.permanent
    ? new PermanentJobError(err.message, { cause: err })
    : err;
}

/**
 * A subtask whose split gave up stays a leaf flagged "needs attention" with the reason; the rest of
 * the decomposition goes on, and the composer runs once the other splits are done.
 */
async function flagNodeForAttention(deps: Deps, root: TaskRow, nodeId: string, reason: string) {
  const node = await deps.db.transaction(async (tx) => {
    // The plan's lock first, as every split's completion takes it: one lock order, no deadlock.
    const plan = await lockPlanStatus(tx, root.id);
    if (!plan || !["processing", "completed"].includes(plan.status)) return null;
    const [flagged] = await tx
      .update(tasks)
      .set({ needsAttention: true, attentionReason: reason, updatedAt: new Date() })
      .where(and(eq(tasks.id, nodeId), eq(tasks.rootTaskId, root.id)))
      .returning();
    if (!flagged) return null;
    await refreshAttentionWarning(tx, root.id);
    await finishGroupIfIdle(deps, tx, root.id);
    return flagged;
  });
  if (!node) return;
  await deps.events.publish({
    type: "task.updated",
    userId: root.userId,
    taskId: node.id,
    rootTaskId: root.id,
    status: node.status,
    isAtomic: node.isAtomic,
    message: `Needs attention: ${reason}`,
    data: { needs_attention: true, attention_reason: reason },
  });
  await reportStage(
    deps,
    root,
    "decomposer",
    "processing",
    `Could not split "${node.description.slice(0, 60)}": it needs attention`,
    { node_id: node.id, needs_attention: true },
  );
}
