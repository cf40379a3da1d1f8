import { and, eq, inArray, sql } from "drizzle-orm";
import type { Tx } from "../db/client";
import { jobs } from "../db/schema/index";
import type { Deps } from "../deps";
import { lockPlanStatus, lockPlanUpdating } from "../plan/locks";
import { AGENT_PLANNER, composeJob, SPLIT_KINDS } from "./jobs";
import type { Usage } from "./planners/contract";
import { predictionsWith } from "./token-usage";

/**
 * When the last split of a decomposition finishes, the composer runs. Serialised on the root row (the
 * plan's lock); a split's token usage, when given, is added by the statement that takes the lock.
 */
export async function finishGroupIfIdle(deps: Deps, tx: Tx, rootId: string, usage: Usage | null = null) {
  const plan = usage
    ? await lockPlanUpdating(tx, rootId, { predictions: predictionsWith(usage) })
    : await lockPlanStatus(tx, rootId);
  // A coding agent's plan is finished by the agent's last answer (engine/agent.ts), not by the queue.
  if (plan?.status !== "processing" || plan.planner === AGENT_PLANNER) return;
  const active = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(jobs)
    .where(
      and(
        eq(jobs.groupKey, rootId),
        inArray(jobs.kind, SPLIT_KINDS),
        inArray(jobs.status, ["queued", "running"]),
      ),
    );
  if ((active[0]?.n ?? 0) === 0) await deps.jobs.enqueue(composeJob(rootId), tx);
}
