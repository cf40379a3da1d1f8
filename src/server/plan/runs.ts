import type { Tx } from "../db/client";

/**
 * How plan code and the task services start and stop a plan's decomposition, without knowing the engine
 * (decision 028): the engine implements this (engine/jobs.ts) and it reaches them as `deps.runs`. Every
 * method works in the caller's transaction, so a run starts or stops with the change that asked for it.
 */
export type PlanRuns = {
  /** Queues a plan's decomposition from its root. */
  start(rootId: string, tx: Tx): Promise<void>;
  /** Queues the split of one node of a plan. */
  startNode(rootId: string, nodeId: string, tx: Tx): Promise<void>;
  /**
   * Continues a plan approved after review: splits the first-level nodes given, or, with none to split,
   * composes the plan.
   */
  resume(rootId: string, nodeIds: string[], tx: Tx): Promise<void>;
  /** Stops a plan's run in every process: its queued and running jobs are cancelled, under the root's lock. */
  stop(rootId: string, tx: Tx): Promise<void>;
};
