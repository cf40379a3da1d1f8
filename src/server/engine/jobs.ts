import type { Tx } from "../db/client";
import type { JobKind } from "../jobs/payloads";
import type { JobQueue } from "../jobs/queue";
import { lockTaskRow } from "../plan/locks";

/**
 * The decomposition's jobs. A plan's run is one job group (its root's id): the root's stages, then one
 * split per node that is not atomic, then the composer once the last split is done (engine/progress.ts).
 */
export const JOB_ROOT = "decompose.root" satisfies JobKind;
export const JOB_NODE = "decompose.node" satisfies JobKind;
export const JOB_COMPOSE = "decompose.compose" satisfies JobKind;
/** A plan's planner when a coding agent plans it through the MCP server (engine/agent.ts): no jobs split it. */
export const AGENT_PLANNER = "agent";

/** The jobs that split: the composer waits until none of a plan's is queued or running. */
export const SPLIT_KINDS = [JOB_ROOT, JOB_NODE];

export const nodeJob = (rootId: string, nodeId: string) => ({
  kind: JOB_NODE as typeof JOB_NODE,
  payload: { rootId, nodeId },
  groupKey: rootId,
  dedupeKey: `node:${nodeId}`,
});

export const composeJob = (rootId: string) => ({
  kind: JOB_COMPOSE as typeof JOB_COMPOSE,
  payload: { rootId },
  groupKey: rootId,
  dedupeKey: `compose:${rootId}`,
});

/**
 * How the task services start and stop a plan's decomposition, on the job queue. Each works in the
 * caller's transaction, so a run starts or stops with the change that asked for it.
 */

/** Queues a plan's decomposition from its root. */
export async function queuePlan(jobs: JobQueue, rootId: string, tx: Tx) {
  await jobs.enqueue(
    { kind: JOB_ROOT, payload: { rootId }, groupKey: rootId, dedupeKey: `root:${rootId}` },
    tx,
  );
}

/** Queues the split of one node of a plan. */
export async function queueNodeSplit(jobs: JobQueue, rootId: string, nodeId: string, tx: Tx) {
  await jobs.enqueue(nodeJob(rootId, nodeId), tx);
}

/** Continues a plan approved after review: splits the first-level nodes given, or, with none, composes it. */
export async function resumePlan(jobs: JobQueue, rootId: string, nodeIds: string[], tx: Tx) {
  for (const nodeId of nodeIds) await jobs.enqueue(nodeJob(rootId, nodeId), tx);
  if (nodeIds.length === 0) await jobs.enqueue(composeJob(rootId), tx);
}

/**
 * Stops a plan's run in every process: its queued and running jobs are cancelled, under the root's lock.
 * A split holds the root's lock from its first statement to its commit, and commits its children's jobs
 * with them; cancelling without the lock missed the jobs of a split that committed in between, and they
 * stayed queued for a plan that was deleted or rejected.
 */
export async function stopPlan(jobs: JobQueue, rootId: string, tx: Tx) {
  await lockTaskRow(tx, rootId);
  await jobs.cancelGroup(rootId, tx);
}
