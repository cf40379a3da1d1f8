import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type { PlannedSubtask } from "../../shared/schemas/plan";
import type { Tx } from "../db/client";
import { insertRowsAsJson } from "../db/json-rows";
import { taskDependencies, tasks } from "../db/schema/index";
import type { Deps } from "../deps";
import type { PlanEdge } from "../plan/graph";
import type { TaskRow } from "../plan/rows";
import { assertPlanRoom } from "../plan/size";
import { isAtomic } from "./atomicity";
import { nodeJob } from "./jobs";
import { plannedRange, siblingDependencies } from "./sibling-dependencies";

/** What a split needs back of the children it inserted (only this is read back: PGlite parses every column). */
export type InsertedChild = { id: string; parentId: string | null; isAtomic: boolean };

/** A node's planned children, to be written under it (insertChildren). */
export type ChildrenWrite = {
  parent: TaskRow;
  rootId: string;
  planned: PlannedSubtask[];
  /** The plan's options that decide which children are atomic. */
  limits: { maxDepth: number; threshold: number };
  /** Queue the split of every child that is not atomic (false while the plan waits for review). */
  queueSplits: boolean;
  estimateSource: "rule" | "model";
  /** More dependencies on the new children, besides those the planner proposed among them. */
  moreEdges?: (children: InsertedChild[], siblingEdges: PlanEdge[]) => PlanEdge[];
  /** A planner's own word on which children are leaves (a coding agent's), where the rule allows it. */
  atomic?: (boolean | undefined)[];
};

/**
 * Inserts a node's children with the dependencies the planner proposed among them (and `moreEdges`), and
 * queues the split of every non-atomic one, in the caller's transaction, which holds the plan's lock
 * (plan/locks.ts). One statement writes it all.
 */
export async function insertChildren(deps: Deps, tx: Tx, write: ChildrenWrite): Promise<InsertedChild[]> {
  const { parent, rootId, planned, limits } = write;
  await assertPlanRoom(tx, rootId, planned.length, deps.config.PLAN_MAX_NODES);
  const depth = parent.depth + 1;
  const values = planned.map((p, i) => {
    const range = plannedRange(p);
    return {
      estimateLowHours: range.low,
      estimateHighHours: range.high,
      // Made here, not by the database, so the children, their dependencies and their jobs are written in
      // one statement.
      id: randomUUID(),
      userId: parent.userId,
      parentId: parent.id,
      rootTaskId: rootId,
      depth,
      position: i + 1,
      description: p.description,
      status: "pending" as const,
      complexityScore: p.complexity_score,
      storyPoints: p.story_points,
      implementationDetails: p.implementation_details,
      acceptanceCriteria: p.acceptance_criteria,
      requirementIds: p.requirement_ids,
      files: p.files?.length ? p.files : null,
      estimatedHours: p.estimated_hours,
      estimateSource: write.estimateSource,
      isAtomic:
        depth >= limits.maxDepth ||
        (write.atomic?.[i] ??
          isAtomic(
            { depth, complexityScore: p.complexity_score, estimatedHours: p.estimated_hours },
            limits,
          )),
    };
  });
  if (values.length === 0) return [];
  // In the planner's order, so its sibling numbers map onto them.
  const inserted: InsertedChild[] = values.map((v) => ({
    id: v.id,
    parentId: v.parentId,
    isAtomic: v.isAtomic,
  }));
  const siblingEdges = siblingDependencies(planned).map(([waiting, awaited]) => ({
    taskId: inserted[waiting]!.id,
    dependsOnId: inserted[awaited]!.id,
  }));
  const edges = [...siblingEdges, ...(write.moreEdges?.(inserted, siblingEdges) ?? [])].map((e) => ({
    ...e,
    rootTaskId: rootId,
    source: "planner" as const,
  }));
  const splits = write.queueSplits
    ? inserted.filter((child) => !child.isAtomic).map((child) => nodeJob(rootId, child.id))
    : [];
  // One statement: the children, their dependencies and their splits' jobs (data-modifying CTEs; the
  // dependencies' foreign keys are checked at its end, when the children are there).
  const queued = splits.length ? deps.jobs.prepareEnqueue(splits) : null;
  const writes = [sql`children as (${insertRowsAsJson(tasks, values)})`];
  if (edges.length) {
    writes.push(sql`edges as (${insertRowsAsJson(taskDependencies, edges, { onConflictDoNothing: true })})`);
  }
  if (queued) writes.push(sql`queued as (${queued.insert})`);
  await tx.execute(sql`with ${sql.join(writes, sql`, `)} select ${queued?.wake ?? sql`1`}`);
  queued?.written();
  return inserted;
}
