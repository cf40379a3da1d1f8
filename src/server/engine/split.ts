import { eq, inArray, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { PlannedSubtask } from "../../shared/schemas/plan";
import type { Tx } from "../db/client";
import { tasks } from "../db/schema/index";
import type { Deps } from "../deps";
import type { BusEvent } from "../events/event-bus";
import type { JobContext, TypedJob } from "../jobs/queue";
import { acceptableDependencies, PlanGraph } from "../plan/graph";
import { lockNodeForSplit } from "../plan/locks";
import { hasChildren, loadPlanStructure, shapeNode, type TaskRow } from "../plan/rows";
import { briefOf, optionsOf } from "./brief";
import { stageEvent } from "./events";
import type { JOB_NODE } from "./jobs";
import type { Planner, Usage } from "./planners/contract";
import {
  type ProvidersFor,
  type ProvidersJson,
  providersFromJson,
  providersJson,
} from "./planners/provider-store";
import { withLikelyFiles } from "./repository/likely-files";
import { loadRepositoryMap } from "./repository/map-summary";
import { finishGroupIfIdle } from "./run-completion";
import { estimateSourceOf, recordUsage } from "./token-usage";
import { type InsertedChild, insertChildren } from "./tree-writes";

/**
 * Stage 5, one job per node: a node that is not atomic is split by the planner, shown its ancestors, its
 * siblings and the rest of the plan so far, so shared work is not planned again in several branches.
 */

/** Titles of the plan so far that a split is shown (its siblings and the rest of the outline). */
const OUTLINE_LIMIT = 80;

export async function runNode(deps: Deps, job: TypedJob<typeof JOB_NODE>, ctx: JobContext, load: LoadSplit) {
  const rootId = job.payload.rootId;
  const nodeId = job.payload.nodeId;
  const { node, root, split, ancestors, others, providers } = await load(rootId, nodeId);
  if (!node || !root || ["rejected", "submitted", "failed", "pending"].includes(root.status)) return;
  // The model call's token usage, once made: added to the root's totals by the completion.
  let usage: Usage | null = null;
  ctx.onComplete((tx) => finishGroupIfIdle(deps, tx, rootId, usage));
  if (split) return;
  const opts = optionsOf(root);
  if (node.depth >= opts.maxDepth) return;
  const planner = await deps.planners.forUser(root.userId, providers ?? undefined);
  const siblingTasks = others.filter((t) => t.parentId === node.parentId);
  const elsewhereTasks = others.filter(
    (t) => t.parentId !== node.parentId && !ancestors.includes(t.description),
  );
  // The prompt numbers the siblings, then the rest (prompts.ts), for depends_on_elsewhere.
  const citable = [...siblingTasks, ...elsewhereTasks];
  const map = await loadRepositoryMap(deps.db, root.id);
  const planned = await planner.splitTask(
    {
      brief: briefOf(root, root.repositorySummary, map),
      task: {
        description: node.description,
        complexity_score: node.complexityScore,
        implementation_details: node.implementationDetails,
      },
      ancestors,
      siblings: siblingTasks.map((t) => t.description),
      elsewhere: elsewhereTasks.map((t) => t.description),
      depth: node.depth,
      maxDepth: opts.maxDepth,
      maxSubtasks: opts.maxSubtasks,
    },
    ctx.signal,
  );
  if (planner.name !== "offline") usage = planned.usage;
  // The children, their dependencies, the event saying so and the job's completion commit together.
  let events: BusEvent[];
  try {
    events = await deps.db.transaction(async (tx) => {
      const children = (await splitNode(deps, tx, node, rootId, planned.value, citable, opts, planner)) ?? [];
      const recorded = children.length
        ? await deps.events.record(tx, [
            stageEvent(
              root,
              "decomposer",
              "processing",
              `Split "${node.description.slice(0, 60)}" into ${children.length} subtasks`,
              { node_id: nodeId },
            ),
          ])
        : [];
      // No longer this worker's job (cancelled or reclaimed): the call was still made and is counted.
      if (!(await ctx.completeIn(tx)) && usage) await recordUsage(deps, rootId, usage, planner, tx);
      return recorded;
    });
  } catch (err) {
    // The split is retried (or flagged); the tokens of this attempt were spent all the same.
    if (usage) await recordUsage(deps, rootId, usage, planner).catch(() => {});
    throw err;
  }
  await deps.events.announce(events);
}

type Outline = {
  /** The node's ancestors' descriptions, the root first. */
  ancestors: string[];
  /** The rest of the plan so far (up to OUTLINE_LIMIT rows in tree order): id, parent id, description. */
  others: [string, string | null, string][];
};

/** What a split needs to know before its model call (loadSplits). */
type SplitRead = {
  node: TaskRow | undefined;
  root: TaskRow | undefined;
  providers: ProvidersFor | null;
  split: boolean;
  ancestors: string[];
  others: { id: string; parentId: string | null; description: string }[];
};
export type LoadSplit = (rootId: string, nodeId: string) => Promise<SplitRead>;

/**
 * What splits of one plan need, in one read: the nodes and the root, whether each node has children
 * already (split by an earlier run), and what each shows the model besides its node (the node's
 * ancestors and the rest of the plan so far). It also reads the model settings the planner is chosen by.
 */
async function loadSplits(deps: Deps, rootId: string, nodeIds: string[]): Promise<Map<string, SplitRead>> {
  // The outer row is `t`, named in the subqueries as such: Drizzle writes a column of the queried table
  // without its table's name, which inside a subquery would name the subquery's own column instead.
  const t = alias(tasks, "t");
  const rows = await deps.db
    .select({
      task: t,
      providers: sql<
        ProvidersJson | string | null
      >`case when t.id = ${rootId} then ${providersJson(sql`t.user_id`)} end`,
      split: sql<boolean>`exists (select 1 from ${tasks} c where c.parent_id = t.id)`,
      outline: sql<Outline | null>`case when t.id <> ${rootId} then json_build_object(
        'ancestors', (
          with recursive up(id, parent_id, description, depth) as (
            select u.id, u.parent_id, u.description, u.depth from ${tasks} u where u.id = t.parent_id
            union all select a.id, a.parent_id, a.description, a.depth from ${tasks} a join up on a.id = up.parent_id)
          select coalesce(json_agg(up.description order by up.depth), '[]'::json) from up),
        'others', (
          select coalesce(json_agg(json_build_array(o.id, o.parent_id, o.description) order by o.depth, o.position), '[]'::json)
          from (select r.id, r.parent_id, r.description, r.depth, r.position from ${tasks} r
            where r.root_task_id = ${rootId} and r.id <> t.id
            order by r.depth, r.position limit ${OUTLINE_LIMIT}) o)) end`,
    })
    .from(t)
    .where(inArray(t.id, [rootId, ...nodeIds]));
  const root = rows.find((r) => r.task.id === rootId);
  const providers = root?.providers ? providersFromJson(deps, root.task.userId, root.providers) : null;
  return new Map(
    nodeIds.map((nodeId) => {
      const node = rows.find((r) => r.task.id === nodeId);
      const outline =
        typeof node?.outline === "string" ? (JSON.parse(node.outline) as Outline) : node?.outline;
      return [
        nodeId,
        {
          node: node?.task,
          root: root?.task,
          providers,
          split: Boolean(node?.split),
          ancestors: outline?.ancestors ?? [],
          others: (outline?.others ?? []).map(([id, parentId, description]) => ({
            id,
            parentId,
            description,
          })),
        },
      ];
    }),
  );
}

/**
 * `loadSplits` for the jobs one claim started together: their handlers ask in the same turn of the
 * event loop, and the reads asked for in one turn share one query per plan (decision 026).
 */
export function splitLoader(deps: Deps): LoadSplit {
  type Waiter = { resolve: (read: SplitRead) => void; reject: (err: unknown) => void };
  let batch: Map<string, Map<string, Waiter[]>> | null = null;
  async function flush(rootId: string, nodes: Map<string, Waiter[]>) {
    try {
      const reads = await loadSplits(deps, rootId, [...nodes.keys()]);
      for (const [nodeId, waiters] of nodes) for (const w of waiters) w.resolve(reads.get(nodeId)!);
    } catch (err) {
      for (const waiters of nodes.values()) for (const w of waiters) w.reject(err);
    }
  }
  return (rootId, nodeId) =>
    new Promise<SplitRead>((resolve, reject) => {
      if (!batch) {
        const current = new Map<string, Map<string, Waiter[]>>();
        batch = current;
        queueMicrotask(() => {
          batch = null;
          for (const [root, nodes] of current) void flush(root, nodes);
        });
      }
      const nodes = batch.get(rootId) ?? new Map<string, Waiter[]>();
      batch.set(rootId, nodes);
      nodes.set(nodeId, [...(nodes.get(nodeId) ?? []), { resolve, reject }]);
    });
}

/** Writes a node's planned children and their dependencies (in the caller's transaction); returns the children. */
function splitNode(
  deps: Deps,
  tx: Tx,
  node: TaskRow,
  rootId: string,
  planned: PlannedSubtask[],
  citable: { id: string }[],
  opts: { maxDepth: number; maxSubtasks: number; threshold: number },
  planner: Planner,
): Promise<InsertedChild[] | null> {
  return writeSplit(deps, tx, {
    node,
    rootId,
    planned,
    citable,
    limits: opts,
    estimateSource: estimateSourceOf(planner),
    queueSplits: true,
  });
}

/** One split to write: the planner's subtasks for a node, and what they may cite. */
export type SplitWrite = {
  node: TaskRow;
  rootId: string;
  planned: PlannedSubtask[];
  /** What `depends_on_elsewhere` numbers refer to: the node's siblings, then the rest of the plan shown. */
  citable: { id: string }[];
  limits: { maxDepth: number; maxSubtasks: number; threshold: number };
  estimateSource: "rule" | "model";
  /** Queue the children's own splits (the engine's jobs); a coding agent asks for them itself. */
  queueSplits: boolean;
  /**
   * Look for children again once the lock is held: needed where two writers may split the same node at
   * once (coding agents); the engine's splits are one job per node (plan/locks.ts).
   */
  recheck?: boolean;
  atomic?: (boolean | undefined)[];
};

/**
 * Writes a split under the plan's lock: null when the node was split already (by an earlier run, or by
 * another agent); otherwise its children, with the dependencies the plan can take.
 */
export async function writeSplit(deps: Deps, tx: Tx, write: SplitWrite): Promise<InsertedChild[] | null> {
  const { node, rootId, planned, citable, limits: opts } = write;
  const nodeId = node.id;
  if (await lockNodeForSplit(tx, nodeId, rootId)) return null;
  if (write.recheck && (await hasChildren(tx, nodeId))) return null;
  // A parent is never less complex than its children: cap scores at the parent's.
  const limited = planned
    .slice(0, opts.maxSubtasks)
    .map((p) => ({ ...p, complexity_score: Math.min(p.complexity_score, node.complexityScore ?? 10) }));
  // On a repository (issue 42): every subtask names its likely files, whoever planned it.
  const map = await loadRepositoryMap(tx, rootId);
  // Without one, files a planner names are a guess about code nobody showed it: not kept.
  const capped = map
    ? withLikelyFiles(map, await projectText(tx, rootId), limited)
    : limited.map(({ files: _guessed, ...p }) => p);
  if (capped.length === 0) {
    // The planner has nothing finer for this node (the offline planner's leaves): it is a leaf.
    await tx.update(tasks).set({ isAtomic: true, updatedAt: new Date() }).where(eq(tasks.id, nodeId));
    return [];
  }
  // Work the model says must come first from other branches (by its number in the prompt's list): kept
  // when the plan can take it, checked against the plan as it is plus the new children.
  const proposed = capped.flatMap((p, i) =>
    (p.depends_on_elsewhere ?? []).flatMap((n) => {
      const other = citable[n - 1];
      return other ? [{ child: i, dependsOnId: other.id }] : [];
    }),
  );
  const plan = proposed.length ? await loadPlanStructure(tx, rootId) : null;
  return insertChildren(deps, tx, {
    parent: node,
    rootId,
    planned: capped,
    limits: opts,
    queueSplits: write.queueSplits,
    estimateSource: write.estimateSource,
    ...(write.atomic ? { atomic: write.atomic } : {}),
    moreEdges: (children, siblingEdges) => {
      if (!plan) return [];
      const graph = new PlanGraph(
        [...plan.nodes, ...children.map((c) => shapeNode(c.id, c.parentId))],
        [...plan.edges, ...siblingEdges],
      );
      return acceptableDependencies(
        graph,
        proposed.map((p) => ({ taskId: children[p.child]!.id, dependsOnId: p.dependsOnId })),
      );
    },
  });
}

/** A project's description, what its files are ranked against as a whole. */
async function projectText(tx: Tx, rootId: string): Promise<string> {
  const [row] = await tx.select({ description: tasks.description }).from(tasks).where(eq(tasks.id, rootId));
  return row?.description ?? "";
}
