import type { JobKind } from "../jobs/payloads";
import type { JobQueue } from "../jobs/queue";
import { lockTaskRow } from "../plan/locks";
import type { PlanRuns } from "../plan/runs";

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

/** How plan code and the task services start and stop runs (plan/runs.ts), on the job queue. */
export function planRuns(jobs: JobQueue): PlanRuns {
  return {
    async start(rootId, tx) {
      await jobs.enqueue(
        { kind: JOB_ROOT, payload: { rootId }, groupKey: rootId, dedupeKey: `root:${rootId}` },
        tx,
      );
    },
    async startNode(rootId, nodeId, tx) {
      await jobs.enqueue(nodeJob(rootId, nodeId), tx);
    },
    async resume(rootId, nodeIds, tx) {
      for (const nodeId of nodeIds) await jobs.enqueue(nodeJob(rootId, nodeId), tx);
      if (nodeIds.length === 0) await jobs.enqueue(composeJob(rootId), tx);
    },
    // A split holds the root's lock from its first statement to its commit, and commits its children's
    // jobs with them; cancelling without the lock missed the jobs of a split that committed in between,
    // and they stayed queued for a plan that was deleted or rejected.
    async stop(rootId, tx) {
      await lockTaskRow(tx, rootId);
      await jobs.cancelGroup(rootId, tx);
    },
  };
}
