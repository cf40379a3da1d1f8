import { randomUUID } from "node:crypto";
import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { PlannedSubtask } from "../../shared/schemas/plan";
import { STAGES, type StageId, type StageStatus } from "../../shared/schemas/realtime";
import { readTaskOptions, type TaskStatus } from "../../shared/schemas/tasks";
import { resultRows } from "../db/client";
import { insertRowsAsJson } from "../db/json-rows";
import { epics, eventModels, jobs, taskDependencies, tasks, userStories } from "../db/schema/index";
import type { Deps } from "../deps";
import { githubTokenFor } from "../integrations/credentials";
import type { JobKind } from "../jobs/payloads";
import {
  type DbOrTx,
  type JobContext,
  type JobQueue,
  type JobRow,
  PermanentJobError,
  type TypedJob,
} from "../jobs/queue";
import { acceptableDependencies, type PlanEdge, PlanGraph } from "../plan/graph";
import { loadPlanStructure, lockTaskRow, shapeNode } from "../plan/rows";
import type { BusEvent, PublishInput } from "../realtime/event-bus";
import type { TaskRow } from "../services/tasks/serialize";
import { isAtomic } from "./atomicity";
import { briefOf, optionsOf } from "./brief";
import { findDuplicates } from "./dedupe";
import { fetchRepositoryContext } from "./grounding";
import type { Planner, Usage } from "./planners/contract";
import { PlannerError } from "./planners/errors";
import {
  type ProvidersFor,
  type ProvidersJson,
  providersFromJson,
  providersJson,
} from "./planners/provider-store";
import { plannedRange, siblingDependencies } from "./sibling-dependencies";

export const JOB_ROOT = "decompose.root" satisfies JobKind;
export const JOB_NODE = "decompose.node" satisfies JobKind;
export const JOB_COMPOSE = "decompose.compose" satisfies JobKind;
const SPLIT_KINDS = [JOB_ROOT, JOB_NODE];
/** Titles of the plan so far that a split is shown (its siblings and the rest of the outline). */
const OUTLINE_LIMIT = 80;

type Tx = Parameters<Parameters<Deps["db"]["transaction"]>[0]>[0];

/** Hooks the task service uses to start and stop decompositions (inside its own transactions). */
export async function enqueueDecomposition(jobsQueue: JobQueue, rootId: string, tx: DbOrTx): Promise<void> {
  await jobsQueue.enqueue(
    { kind: JOB_ROOT, payload: { rootId }, groupKey: rootId, dedupeKey: `root:${rootId}` },
    tx,
  );
}

export async function enqueueNodeDecomposition(
  jobsQueue: JobQueue,
  rootId: string,
  nodeId: string,
  tx: DbOrTx,
) {
  await jobsQueue.enqueue(
    { kind: JOB_NODE, payload: { rootId, nodeId }, groupKey: rootId, dedupeKey: `node:${nodeId}` },
    tx,
  );
}

async function loadTask(deps: Deps, id: string, tx: DbOrTx = deps.db): Promise<TaskRow | undefined> {
  const [row] = await tx.select().from(tasks).where(eq(tasks.id, id)).limit(1);
  return row;
}

function stageInfo(stage: StageId) {
  return STAGES.find((s) => s.id === stage)!;
}

/** The stage a failing job was in, so the failure is reported against the right step. */
const failedStage = new WeakMap<object, StageId>();

/** A stage's progress as an event (published alone by reportStage, or with others by publishMany). */
function stageEvent(
  root: TaskRow,
  stage: StageId,
  status: StageStatus,
  message: string,
  extra: Record<string, unknown> = {},
): PublishInput {
  const info = stageInfo(stage);
  return {
    type: "service.status",
    userId: root.userId,
    taskId: root.id,
    rootTaskId: root.id,
    operatorId: stage,
    status,
    message,
    data: {
      stage,
      stage_name: info.name,
      progress: status === "completed" ? info.progress + 10 : info.progress,
      ...extra,
    },
  };
}

async function reportStage(
  deps: Deps,
  root: TaskRow,
  stage: StageId,
  status: StageStatus,
  message: string,
  extra: Record<string, unknown> = {},
) {
  await deps.events.publish(stageEvent(root, stage, status, message, extra));
}

function statusEvent(root: TaskRow, status: TaskStatus): PublishInput {
  return {
    type: "task.status_changed",
    userId: root.userId,
    taskId: root.id,
    rootTaskId: root.id,
    status,
    isAtomic: root.isAtomic,
  };
}

async function setRootStatus(deps: Deps, root: TaskRow, status: TaskStatus, extra: Partial<TaskRow> = {}) {
  await deps.db
    .update(tasks)
    .set({ status, updatedAt: new Date(), ...extra })
    .where(eq(tasks.id, root.id));
  await deps.events.publish(statusEvent(root, status));
}

/** The root's running token totals (shown as "predictions" on the task) with a model call's usage added. */
function predictionsWith(usage: Usage) {
  return sql`coalesce(${tasks.predictions}, '{}'::jsonb) || jsonb_build_object(
      'llm_calls', coalesce((${tasks.predictions}->>'llm_calls')::int, 0) + ${usage.calls},
      'prompt_tokens', coalesce((${tasks.predictions}->>'prompt_tokens')::int, 0) + ${usage.promptTokens},
      'completion_tokens', coalesce((${tasks.predictions}->>'completion_tokens')::int, 0) + ${usage.completionTokens})`;
}

/** Adds model calls' token usage to the root's running totals. */
async function recordUsage(deps: Deps, rootId: string, usage: Usage, planner: Planner, tx: DbOrTx = deps.db) {
  if (planner.name === "offline") return; // no model, nothing to account for
  await tx
    .update(tasks)
    .set({ predictions: predictionsWith(usage) })
    .where(eq(tasks.id, rootId));
}

function addUsage(a: Usage, b: Usage): Usage {
  return {
    calls: a.calls + b.calls,
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
  };
}

/** "rule" for the offline outline's estimates, "model" for a language model's (shown on every node). */
function estimateSourceOf(planner: Planner): "rule" | "model" {
  return planner.name === "offline" ? "rule" : "model";
}

function rangeColumns(p: PlannedSubtask) {
  const range = plannedRange(p);
  return { estimateLowHours: range.low, estimateHighHours: range.high };
}

/** What a split needs back of the children it inserted (only this is read back: PGlite parses every column). */
type InsertedChild = { id: string; parentId: string | null; isAtomic: boolean };

/**
 * Inserts a node's children with the dependencies the planner proposed among them (and, from
 * `moreEdges`, any others on the new children), and queues the split of every non-atomic one, in the
 * caller's transaction.
 */
async function insertChildren(
  deps: Deps,
  tx: Tx,
  parent: TaskRow,
  rootId: string,
  planned: PlannedSubtask[],
  opts: { maxDepth: number; threshold: number },
  queueSplits: boolean,
  estimateSource: "rule" | "model",
  moreEdges: (children: InsertedChild[], siblingEdges: PlanEdge[]) => PlanEdge[] = () => [],
): Promise<InsertedChild[]> {
  const depth = parent.depth + 1;
  const values = planned.map((p, i) => ({
    ...rangeColumns(p),
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
    estimatedHours: p.estimated_hours,
    estimateSource: estimateSource,
    isAtomic: isAtomic(
      { depth, complexityScore: p.complexity_score, estimatedHours: p.estimated_hours },
      opts,
    ),
  }));
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
  const edges = [...siblingEdges, ...moreEdges(inserted, siblingEdges)].map((e) => ({
    ...e,
    rootTaskId: rootId,
    source: "planner" as const,
  }));
  const splits = queueSplits
    ? inserted
        .filter((child) => !child.isAtomic)
        .map((child) => ({
          kind: JOB_NODE as typeof JOB_NODE,
          payload: { rootId, nodeId: child.id },
          groupKey: rootId,
          dedupeKey: `node:${child.id}`,
        }))
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

/**
 * Locks a node's row as lockTaskRow does and says whether it has children already (split by an earlier
 * run), in one statement. With `rootId` (a node below the root), the root's row is locked first, in the
 * same statement: the splits of one plan then commit one at a time, in the order they asked, instead of
 * all waiting at their end for the root row their completion updates (decision 026).
 */
async function lockNodeForSplit(tx: Tx, id: string, rootId?: string): Promise<boolean> {
  const rows = resultRows<{ id: string; split: boolean }>(
    await tx.execute(sql`select t.id, exists (select 1 from ${tasks} c where c.parent_id = t.id) as split
      from ${tasks} t where t.id in (${id}, ${rootId ?? id})
      order by t.id = ${id} for no key update of t`),
  );
  return Boolean(rows.find((r) => r.id === id)?.split);
}

async function hasChildren(tx: DbOrTx, id: string) {
  const rows = await tx.select({ id: tasks.id }).from(tasks).where(eq(tasks.parentId, id)).limit(1);
  return rows.length > 0;
}

async function countChildren(tx: DbOrTx, id: string): Promise<number> {
  const [row] = await tx.select({ n: sql<number>`count(*)::int` }).from(tasks).where(eq(tasks.parentId, id));
  return Number(row?.n ?? 0);
}

/**
 * When the last split of a decomposition finishes, the composer runs. Serialised on the root row; a
 * split's token usage, when given, is added by the statement that locks it.
 */
async function finishGroupIfIdle(deps: Deps, tx: Tx, rootId: string, usage: Usage | null = null) {
  // See lockTaskRow: serialised without blocking other transactions' inserts that refer to the root.
  // An update takes the same row lock as `for no key update`, and reads the row as last committed.
  const [root] = usage
    ? await tx
        .update(tasks)
        .set({ predictions: predictionsWith(usage) })
        .where(eq(tasks.id, rootId))
        .returning({ status: tasks.status })
    : resultRows<{ status: string }>(
        await tx.execute(sql`select status from ${tasks} where id = ${rootId} for no key update`),
      );
  if (root?.status !== "processing") return;
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
  if ((active[0]?.n ?? 0) === 0) {
    await deps.jobs.enqueue(
      { kind: JOB_COMPOSE, payload: { rootId }, groupKey: rootId, dedupeKey: `compose:${rootId}` },
      tx,
    );
  }
}

// ---- stage 1-4 (and the start of 5): the root ------------------------------------------------------
async function runRoot(deps: Deps, job: TypedJob<typeof JOB_ROOT>, ctx: JobContext) {
  let stage: StageId = "source";
  const enter = (next: StageId) => {
    stage = next;
  };
  try {
    await runRootStages(deps, job, ctx, enter);
  } catch (err) {
    if (err && typeof err === "object") failedStage.set(err, stage);
    throw err;
  }
}

async function runRootStages(
  deps: Deps,
  job: TypedJob<typeof JOB_ROOT>,
  ctx: JobContext,
  enter: (stage: StageId) => void,
) {
  const rootId = job.payload.rootId;
  let root = await loadTask(deps, rootId);
  if (!root || !["pending", "processing"].includes(root.status)) return;
  const opts = optionsOf(root);
  const planner = await deps.planners.forUser(root.userId);
  // The events of steps that wait on nothing go out together, before the next step that does.
  const events: PublishInput[] = [];
  const flush = () => deps.events.publishMany(events.splice(0));
  if (root.status === "pending") {
    const [started] = await deps.db
      .update(tasks)
      .set({
        status: "processing",
        updatedAt: new Date(),
        planner: planner.name,
        model: planner.model,
        failureReason: null,
      })
      .where(eq(tasks.id, rootId))
      .returning();
    if (!started) return;
    events.push(statusEvent(root, "processing"), {
      type: "decomposition.started",
      userId: root.userId,
      taskId: root.id,
      rootTaskId: root.id,
      message: "Decomposition started",
    });
    root = started;
  }

  events.push(
    stageEvent(root, "source", "started", "Reading your description"),
    stageEvent(root, "source", "completed", "Description and preferences read"),
  );

  enter("context_fetch");
  events.push(
    stageEvent(
      root,
      "context_fetch",
      "started",
      opts.githubRepo ? "Reading the linked repository" : "Gathering context",
    ),
  );
  let summary: string | null = null;
  if (opts.githubRepo) {
    await flush();
    const context = await fetchRepositoryContext(
      deps,
      opts.githubRepo,
      await githubTokenFor(deps, root.userId),
      ctx.signal,
    );
    summary = context.summary;
    // Stored on the root, so node splits (any process, any time later) and the composer see it too.
    await deps.db
      .update(tasks)
      .set({
        repositorySummary: summary,
        ...(context.warning && !root.warnings.includes(context.warning)
          ? { warnings: [...root.warnings, context.warning] }
          : {}),
      })
      .where(eq(tasks.id, rootId));
  }
  events.push(
    stageEvent(
      root,
      "context_fetch",
      "completed",
      summary ? "Repository context gathered" : "Context gathered",
    ),
  );
  const brief = briefOf(root, summary);

  enter("complexity_scorer");
  events.push(stageEvent(root, "complexity_scorer", "started", "Assessing complexity"));
  if (root.complexityScore === null) {
    await flush();
    const assessed = await planner.assessComplexity(brief, ctx.signal);
    const [scored] = await deps.db
      .update(tasks)
      .set({
        complexityScore: assessed.value.complexity_score,
        storyPoints: assessed.value.story_points,
        implementationDetails: assessed.value.rationale,
        estimateSource: estimateSourceOf(planner),
        ...(planner.name === "offline" ? {} : { predictions: predictionsWith(assessed.usage) }),
      })
      .where(eq(tasks.id, rootId))
      .returning();
    if (!scored) return;
    root = scored;
  }
  events.push(stageEvent(root, "complexity_scorer", "completed", `Complexity ${root.complexityScore}/10`));

  enter("root_processor");
  events.push(stageEvent(root, "root_processor", "started", "Planning the first level"));
  let firstLevel: number | null = null;
  if (!(await hasChildren(deps.db, rootId))) {
    await flush();
    const planned = await planner.splitTask(
      {
        brief,
        task: {
          description: root.description,
          complexity_score: root.complexityScore,
          implementation_details: null,
        },
        ancestors: [],
        depth: 0,
        maxDepth: opts.maxDepth,
        maxSubtasks: opts.maxSubtasks,
      },
      ctx.signal,
    );
    firstLevel = await deps.db.transaction(async (tx) => {
      const split = await lockNodeForSplit(tx, rootId);
      await recordUsage(deps, rootId, planned.usage, planner, tx);
      if (split) return null;
      const inserted = await insertChildren(
        deps,
        tx,
        root!,
        rootId,
        planned.value.slice(0, opts.maxSubtasks),
        opts,
        !opts.requiresApproval,
        estimateSourceOf(planner),
      );
      return inserted.length;
    });
  }
  firstLevel ??= await countChildren(deps.db, rootId);
  events.push(stageEvent(root, "root_processor", "completed", `${firstLevel} first-level subtasks planned`));

  if (opts.requiresApproval && !isApproved(root)) {
    await flush();
    await setRootStatus(deps, root, "submitted");
    await reportStage(
      deps,
      root,
      "decomposer",
      "processing",
      "Waiting for your review of the first-level plan",
    );
    return;
  }
  events.push(stageEvent(root, "decomposer", "started", "Decomposing subtasks"));
  await flush();
  ctx.onComplete((tx) => finishGroupIfIdle(deps, tx, rootId));
}

function isApproved(root: TaskRow) {
  return Boolean(readTaskOptions(root.options).approved_at);
}

// ---- stage 5: one node -----------------------------------------------------------------------------
async function runNode(deps: Deps, job: TypedJob<typeof JOB_NODE>, ctx: JobContext, load: LoadSplit) {
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
  const siblings = siblingTasks.map((t) => t.description);
  const elsewhere = elsewhereTasks.map((t) => t.description);
  // The prompt numbers the siblings, then the rest (prompts.ts), for depends_on_elsewhere.
  const citable = [...siblingTasks, ...elsewhereTasks];
  const planned = await planner.splitTask(
    {
      brief: briefOf(root, root.repositorySummary),
      task: {
        description: node.description,
        complexity_score: node.complexityScore,
        implementation_details: node.implementationDetails,
      },
      ancestors,
      siblings,
      elsewhere,
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
      const children = await splitNode(deps, tx, node, rootId, planned.value, citable, opts, planner);
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
type LoadSplit = (rootId: string, nodeId: string) => Promise<SplitRead>;

/**
 * What splits of one plan need, in one read: the nodes and the root, whether each node has children
 * already (split by an earlier run), and what each shows the model besides its node, so shared work is
 * not planned again in several branches (the node's ancestors and the rest of the plan so far). It also
 * reads the model settings the planner is chosen by.
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
function splitLoader(deps: Deps): LoadSplit {
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
async function splitNode(
  deps: Deps,
  tx: Tx,
  node: TaskRow,
  rootId: string,
  planned: PlannedSubtask[],
  citable: { id: string }[],
  opts: { maxDepth: number; maxSubtasks: number; threshold: number },
  planner: Planner,
): Promise<InsertedChild[]> {
  const nodeId = node.id;
  if (await lockNodeForSplit(tx, nodeId, rootId)) return [];
  // A parent is never less complex than its children: cap scores at the parent's.
  const capped = planned
    .slice(0, opts.maxSubtasks)
    .map((p) => ({ ...p, complexity_score: Math.min(p.complexity_score, node.complexityScore ?? 10) }));
  if (capped.length === 0) {
    // The planner has nothing finer for this node (the offline outline's leaves): it is a leaf.
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
  return insertChildren(
    deps,
    tx,
    node,
    rootId,
    capped,
    opts,
    true,
    estimateSourceOf(planner),
    (children, siblingEdges) => {
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
  );
}

// ---- stage 6: composer -----------------------------------------------------------------------------
/** Shown on the task when the composer left a person's edit of the event model in place. */
export const EVENT_MODEL_KEPT_WARNING =
  "You edited the event model while the decomposition ran: your version was kept and the generated event model was not applied. Restart the decomposition to generate a new one.";

async function runCompose(deps: Deps, job: TypedJob<typeof JOB_COMPOSE>, ctx: JobContext) {
  const rootId = job.payload.rootId;
  const root = await loadTask(deps, rootId);
  if (root?.status !== "processing") return;
  const [planner, { merged, nodes }] = await Promise.all([
    deps.planners.forUser(root.userId),
    mergeDuplicateLeaves(deps, root),
  ]);
  const flat = depthFirst(root, nodes).map((t) => ({
    description: t.description,
    depth: t.depth,
    complexity_score: t.complexityScore,
    story_points: t.storyPoints,
    is_atomic: t.isAtomic,
  }));
  const opts = optionsOf(root);
  const request = {
    brief: briefOf(root, root.repositorySummary),
    tasks: flat,
    limits: { maxDepth: opts.maxDepth, maxSubtasks: opts.maxSubtasks },
  };
  // The calls go out first and the stage events are recorded while they run, so the events still come
  // before anything the answers lead to. A call failing meanwhile is handled once the events are out.
  const answers = Promise.all([
    planner.composeContext(request, ctx.signal),
    planner.composeEventModel(request, ctx.signal),
  ]);
  answers.catch(() => {});
  await deps.events.publishMany([
    stageEvent(root, "decomposer", "completed", "All subtasks decomposed"),
    {
      type: "task.decomposed",
      userId: root.userId,
      taskId: root.id,
      rootTaskId: root.id,
      data: { progress: 85 },
    },
    stageEvent(root, "composer", "started", "Writing epics, user stories and the event model"),
    ...(merged > 0
      ? [
          stageEvent(
            root,
            "composer",
            "processing",
            `Merged ${merged} duplicate subtask${merged === 1 ? "" : "s"} planned in more than one place`,
            { merged },
          ),
        ]
      : []),
    {
      type: "event_modeling.started",
      userId: root.userId,
      taskId: root.id,
      rootTaskId: root.id,
      data: { progress: 85 },
    },
  ]);
  const [context, model] = await answers;

  const c = context.value;
  const m = model.value;
  const modelApplied = await deps.db.transaction(async (tx) => {
    await recordUsage(deps, rootId, addUsage(context.usage, model.usage), planner, tx);
    await tx.delete(epics).where(eq(epics.rootTaskId, rootId));
    await tx.delete(userStories).where(eq(userStories.rootTaskId, rootId));
    const epicIds = new Set(c.epics.map((e) => e.id));
    if (c.epics.length) {
      await tx.insert(epics).values(
        c.epics.map((e, i) => ({
          rootTaskId: rootId,
          key: e.id,
          title: e.title,
          description: e.description,
          priority: e.priority,
          position: i,
        })),
      );
    }
    if (c.user_stories.length) {
      await tx.insert(userStories).values(
        c.user_stories.map((s, i) => ({
          rootTaskId: rootId,
          key: s.id,
          epicKey: s.epic_id && epicIds.has(s.epic_id) ? s.epic_id : null,
          actor: s.actor,
          action: s.action,
          benefit: s.benefit,
          acceptanceCriteria: s.acceptance_criteria,
          storyPoints: s.story_points,
          priority: s.priority,
          position: i,
        })),
      );
    }
    const eventModel = {
      markdown: m.event_model_markdown,
      events: m.events,
      commands: m.commands,
      readModels: m.read_models,
      userInteractions: m.user_interactions,
      automations: m.automations,
      swimlanes: m.swimlanes,
      chapters: m.chapters,
      updatedAt: new Date(),
    };
    // A model someone edited (during this run, or while the plan waited for review) is never replaced:
    // the upsert's condition is checked on the locked row, so an edit committed first always wins.
    const applied = await tx
      .insert(eventModels)
      .values({ rootTaskId: rootId, ...eventModel })
      .onConflictDoUpdate({
        target: eventModels.rootTaskId,
        set: eventModel,
        setWhere: isNull(eventModels.userEditedAt),
      })
      .returning({ rootTaskId: eventModels.rootTaskId });
    const kept = applied.length === 0;
    const warnings = await warningsWithAttentionCount(tx, rootId);
    await tx
      .update(tasks)
      .set({
        context: {
          tech_stack: { ...c.tech_stack, ...techStackExtras(root) },
          best_practices: c.best_practices,
        },
        warnings:
          kept && !warnings.includes(EVENT_MODEL_KEPT_WARNING)
            ? [...warnings, EVENT_MODEL_KEPT_WARNING]
            : warnings,
        status: "completed",
        completedAt: new Date(),
        updatedAt: new Date(),
      })
      .where(and(eq(tasks.id, rootId), eq(tasks.status, "processing")));
    return !kept;
  });
  await deps.events.publishMany([
    {
      type: "event_modeling.completed",
      userId: root.userId,
      taskId: root.id,
      rootTaskId: root.id,
      ...(modelApplied ? {} : { message: EVENT_MODEL_KEPT_WARNING }),
      data: {
        events: m.events.length,
        commands: m.commands.length,
        read_models: m.read_models.length,
        applied: modelApplied,
      },
    },
    stageEvent(root, "composer", "completed", "Plan complete"),
    {
      type: "decomposition.completed",
      userId: root.userId,
      taskId: root.id,
      rootTaskId: root.id,
      message: `Decomposed into ${nodes.length} subtasks`,
      data: { progress: 100, total_subtasks: nodes.length },
    },
    {
      type: "task.status_changed",
      userId: root.userId,
      taskId: root.id,
      rootTaskId: root.id,
      status: "completed",
      isAtomic: false,
    },
  ]);
}

/**
 * The dedup pass (dedupe.ts): leaves planned twice (in two branches, or twice in one) are merged into the
 * first; a parent left without children becomes a leaf. Returns how many were merged, and the plan's
 * rows as they are now (in tree order: depth, position).
 */
/** What the composer's request and the dedup pass read of each node. */
const composeColumns = {
  id: tasks.id,
  parentId: tasks.parentId,
  depth: tasks.depth,
  description: tasks.description,
  complexityScore: tasks.complexityScore,
  storyPoints: tasks.storyPoints,
  isAtomic: tasks.isAtomic,
  acceptanceCriteria: tasks.acceptanceCriteria,
  requirementIds: tasks.requirementIds,
};
type ComposeNode = Pick<TaskRow, keyof typeof composeColumns>;

async function mergeDuplicateLeaves(
  deps: Deps,
  root: TaskRow,
): Promise<{ merged: number; nodes: ComposeNode[] }> {
  const pass = await deps.db.transaction(async (tx) => {
    await lockTaskRow(tx, root.id);
    const nodes = await tx
      .select(composeColumns)
      .from(tasks)
      .where(eq(tasks.rootTaskId, root.id))
      .orderBy(asc(tasks.depth), asc(tasks.position));
    const merges = findDuplicates(depthFirst(root, nodes));
    // Nothing merged: the rows read under the lock are the plan as it is.
    if (merges.length === 0) return { merged: 0, nodes };
    for (const m of merges) {
      await tx
        .update(tasks)
        .set({
          acceptanceCriteria: m.acceptanceCriteria,
          requirementIds: m.requirementIds,
          updatedAt: new Date(),
        })
        .where(eq(tasks.id, m.keep));
    }
    const dropped = merges.map((m) => m.drop);
    await tx.delete(tasks).where(inArray(tasks.id, dropped));
    const parents = [...new Set(nodes.filter((n) => dropped.includes(n.id)).map((n) => n.parentId!))];
    for (const parentId of parents) {
      if (parentId !== root.id && !(await hasChildren(tx, parentId)))
        await tx.update(tasks).set({ isAtomic: true }).where(eq(tasks.id, parentId));
    }
    return { merged: merges.length, nodes: null };
  });
  if (pass.nodes) return { merged: pass.merged, nodes: pass.nodes };
  const nodes = await deps.db
    .select(composeColumns)
    .from(tasks)
    .where(eq(tasks.rootTaskId, root.id))
    .orderBy(asc(tasks.depth), asc(tasks.position));
  return { merged: pass.merged, nodes };
}

function techStackExtras(root: TaskRow) {
  const stored = (root.context as { tech_stack?: Record<string, unknown> } | null)?.tech_stack ?? {};
  return stored.application_type ? { application_type: stored.application_type } : {};
}

function depthFirst<T extends { id: string; parentId: string | null }>(
  root: { id: string },
  nodes: T[],
): T[] {
  const byParent = new Map<string, T[]>();
  for (const n of nodes) {
    const list = byParent.get(n.parentId!) ?? [];
    list.push(n);
    byParent.set(n.parentId!, list);
  }
  const out: T[] = [];
  const visit = (id: string) => {
    for (const child of byParent.get(id) ?? []) {
      out.push(child);
      visit(child.id);
    }
  };
  visit(root.id);
  return out;
}

/** The root's warning while some subtasks need attention; one warning, its count kept current. */
export function needsAttentionWarning(count: number) {
  return count === 1
    ? "1 subtask needs attention: it could not be split, so it was left as it is. Open it in the tree to see why, and restart its decomposition to try again."
    : `${count} subtasks need attention: they could not be split, so they were left as they are. Open them in the tree to see why, and restart their decomposition to try again.`;
}
const NEEDS_ATTENTION_WARNING = /^\d+ subtasks? needs? attention: /;

/** The root's warnings with the needs-attention one recounted (dropped when no subtask is flagged). */
async function warningsWithAttentionCount(tx: DbOrTx, rootId: string): Promise<string[]> {
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

/**
 * A subtask whose split gave up stays a leaf flagged "needs attention" with the reason; the rest of
 * the decomposition goes on, and the composer runs once the other splits are done.
 */
async function flagNodeForAttention(deps: Deps, root: TaskRow, nodeId: string, reason: string) {
  const node = await deps.db.transaction(async (tx) => {
    // The root row first, as every split's completion locks it: one lock order, no deadlock.
    const [locked] = resultRows<{ status: string }>(
      await tx.execute(sql`select status from ${tasks} where id = ${root.id} for no key update`),
    );
    if (!locked || !["processing", "completed"].includes(locked.status)) return null;
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

/**
 * A job that gave up. A subtask's split flags that subtask and the decomposition goes on; anything
 * else (the root's stages, the composer) fails the decomposition with a reason the user can read.
 */
export async function failDecomposition(deps: Deps, job: JobRow, error: Error) {
  const rootId = job.groupKey;
  if (!rootId) return;
  const root = await loadTask(deps, rootId);
  if (!root) return;
  // The queue wraps permanent planner errors; the planner's own message is the one meant for people.
  const cause = error.cause instanceof Error ? error.cause : null;
  const plannerError = error instanceof PlannerError ? error : cause instanceof PlannerError ? cause : null;
  if (job.kind === JOB_NODE) {
    const reason = plannerError
      ? plannerError.message
      : `Splitting this subtask failed: ${error.message.slice(0, 300)}. Restart its decomposition to try again.`;
    await flagNodeForAttention(deps, root, String(job.payload.nodeId), reason);
    return;
  }
  if (!["processing", "pending"].includes(root.status)) return;
  const reason = plannerError
    ? plannerError.message
    : `Decomposition failed: ${error.message.slice(0, 300)}. Use Restart to try again.`;
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

export function registerDecomposition(deps: Deps) {
  // Planner output that stays invalid after the planner's own retries cannot be fixed by retrying the job.
  const wrap =
    <K extends JobKind>(fn: (deps: Deps, job: TypedJob<K>, ctx: JobContext) => Promise<void>) =>
    async (job: TypedJob<K>, ctx: JobContext) => {
      try {
        await fn(deps, job, ctx);
      } catch (err) {
        if (err instanceof PlannerError && err.permanent)
          throw new PermanentJobError(err.message, { cause: err });
        throw err;
      }
    };
  deps.jobs.register(JOB_ROOT, wrap(runRoot));
  const loadSplit = splitLoader(deps);
  deps.jobs.register(
    JOB_NODE,
    wrap((d, job: TypedJob<typeof JOB_NODE>, ctx) => runNode(d, job, ctx, loadSplit)),
  );
  deps.jobs.register(JOB_COMPOSE, wrap(runCompose));
}
