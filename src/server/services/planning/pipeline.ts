import { and, asc, eq, inArray, isNull, ne, sql } from "drizzle-orm";
import type { PlannedSubtask } from "../../../shared/schemas/plan";
import { STAGES, type StageId, type StageStatus } from "../../../shared/schemas/realtime";
import { readTaskOptions, type TaskStatus } from "../../../shared/schemas/tasks";
import { resultRows } from "../../db/client";
import { epics, eventModels, jobs, taskDependencies, tasks, userStories } from "../../db/schema/index";
import type { Deps } from "../../deps";
import type { JobKind } from "../../jobs/payloads";
import {
  type DbOrTx,
  type JobContext,
  type JobQueue,
  type JobRow,
  PermanentJobError,
  type TypedJob,
} from "../../jobs/queue";
import { githubTokenFor } from "../integrations/credentials";
import { acceptableDependencies } from "../tasks/plan-graph";
import { loadPlanGraph, lockTaskRow } from "../tasks/plan-rows";
import type { TaskRow } from "../tasks/serialize";
import { isAtomic } from "./atomicity";
import { briefOf, optionsOf } from "./brief";
import { findDuplicates } from "./dedupe";
import { fetchRepositoryContext } from "./grounding";
import type { Planner, Usage } from "./planner";
import { PlannerError } from "./planner-error";
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

async function reportStage(
  deps: Deps,
  root: TaskRow,
  stage: StageId,
  status: StageStatus,
  message: string,
  extra: Record<string, unknown> = {},
) {
  const info = stageInfo(stage);
  await deps.events.publish({
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
  });
}

async function setRootStatus(deps: Deps, root: TaskRow, status: TaskStatus, extra: Partial<TaskRow> = {}) {
  await deps.db
    .update(tasks)
    .set({ status, updatedAt: new Date(), ...extra })
    .where(eq(tasks.id, root.id));
  await deps.events.publish({
    type: "task.status_changed",
    userId: root.userId,
    taskId: root.id,
    rootTaskId: root.id,
    status,
    isAtomic: root.isAtomic,
  });
}

/** Adds a model call's token usage to the root's running totals (shown as "predictions" on the task). */
async function recordUsage(deps: Deps, rootId: string, usage: Usage, planner: Planner) {
  if (planner.name === "offline") return; // no model, nothing to account for
  await deps.db.execute(sql`update ${tasks} set predictions = coalesce(predictions, '{}'::jsonb) || jsonb_build_object(
      'llm_calls', coalesce((predictions->>'llm_calls')::int, 0) + ${usage.calls},
      'prompt_tokens', coalesce((predictions->>'prompt_tokens')::int, 0) + ${usage.promptTokens},
      'completion_tokens', coalesce((predictions->>'completion_tokens')::int, 0) + ${usage.completionTokens})
    where id = ${rootId}`);
}

/** "rule" for the offline outline's estimates, "model" for a language model's (shown on every node). */
function estimateSourceOf(planner: Planner): "rule" | "model" {
  return planner.name === "offline" ? "rule" : "model";
}

function rangeColumns(p: PlannedSubtask) {
  const range = plannedRange(p);
  return { estimateLowHours: range.low, estimateHighHours: range.high };
}

/**
 * Inserts a node's children with the dependencies the planner proposed among them, and queues the split
 * of every non-atomic one, in one transaction.
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
) {
  const depth = parent.depth + 1;
  const values = planned.map((p, i) => ({
    ...rangeColumns(p),
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
  const inserted = values.length ? await tx.insert(tasks).values(values).returning() : [];
  // Rows come back in insertion order, so a planner's sibling numbers map onto them.
  const edges = siblingDependencies(planned).map(([waiting, awaited]) => ({
    taskId: inserted[waiting]!.id,
    dependsOnId: inserted[awaited]!.id,
    rootTaskId: rootId,
    source: "planner" as const,
  }));
  if (edges.length) await tx.insert(taskDependencies).values(edges).onConflictDoNothing();
  if (queueSplits) {
    for (const child of inserted)
      if (!child.isAtomic) await enqueueNodeDecomposition(deps.jobs, rootId, child.id, tx);
  }
  return inserted;
}

async function hasChildren(tx: DbOrTx, id: string) {
  const rows = await tx.select({ id: tasks.id }).from(tasks).where(eq(tasks.parentId, id)).limit(1);
  return rows.length > 0;
}

/** When the last split of a decomposition finishes, the composer runs. Serialised on the root row. */
async function finishGroupIfIdle(deps: Deps, tx: Tx, rootId: string) {
  const [root] = resultRows<{ status: string }>(
    // See lockTaskRow: serialised without blocking other transactions' inserts that refer to the root.
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
  if (root.status === "pending") {
    await setRootStatus(deps, root, "processing", {
      planner: planner.name,
      model: planner.model,
      failureReason: null,
    });
    await deps.events.publish({
      type: "decomposition.started",
      userId: root.userId,
      taskId: root.id,
      rootTaskId: root.id,
      message: "Decomposition started",
    });
    root = (await loadTask(deps, rootId))!;
  }

  await reportStage(deps, root, "source", "started", "Reading your description");
  await reportStage(deps, root, "source", "completed", "Description and preferences read");

  enter("context_fetch");
  await reportStage(
    deps,
    root,
    "context_fetch",
    "started",
    opts.githubRepo ? "Reading the linked repository" : "Gathering context",
  );
  let summary: string | null = null;
  if (opts.githubRepo) {
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
  await reportStage(
    deps,
    root,
    "context_fetch",
    "completed",
    summary ? "Repository context gathered" : "Context gathered",
  );
  const brief = briefOf(root, summary);

  enter("complexity_scorer");
  await reportStage(deps, root, "complexity_scorer", "started", "Assessing complexity");
  if (root.complexityScore === null) {
    const assessed = await planner.assessComplexity(brief, ctx.signal);
    await recordUsage(deps, rootId, assessed.usage, planner);
    await deps.db
      .update(tasks)
      .set({
        complexityScore: assessed.value.complexity_score,
        storyPoints: assessed.value.story_points,
        implementationDetails: assessed.value.rationale,
        estimateSource: estimateSourceOf(planner),
      })
      .where(eq(tasks.id, rootId));
    root = (await loadTask(deps, rootId))!;
  }
  await reportStage(deps, root, "complexity_scorer", "completed", `Complexity ${root.complexityScore}/10`);

  enter("root_processor");
  await reportStage(deps, root, "root_processor", "started", "Planning the first level");
  if (!(await hasChildren(deps.db, rootId))) {
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
    await recordUsage(deps, rootId, planned.usage, planner);
    await deps.db.transaction(async (tx) => {
      await lockTaskRow(tx, rootId);
      if (await hasChildren(tx, rootId)) return;
      await insertChildren(
        deps,
        tx,
        root!,
        rootId,
        planned.value.slice(0, opts.maxSubtasks),
        opts,
        !opts.requiresApproval,
        estimateSourceOf(planner),
      );
    });
  }
  const first = await deps.db.select().from(tasks).where(eq(tasks.parentId, rootId));
  await reportStage(
    deps,
    root,
    "root_processor",
    "completed",
    `${first.length} first-level subtasks planned`,
  );

  if (opts.requiresApproval && !isApproved(root)) {
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
  await reportStage(deps, root, "decomposer", "started", "Decomposing subtasks");
  ctx.onComplete((tx) => finishGroupIfIdle(deps, tx, rootId));
}

function isApproved(root: TaskRow) {
  return Boolean(readTaskOptions(root.options).approved_at);
}

// ---- stage 5: one node -----------------------------------------------------------------------------
async function runNode(deps: Deps, job: TypedJob<typeof JOB_NODE>, ctx: JobContext) {
  const rootId = job.payload.rootId;
  const nodeId = job.payload.nodeId;
  const [node, root] = await Promise.all([loadTask(deps, nodeId), loadTask(deps, rootId)]);
  if (!node || !root || ["rejected", "submitted", "failed", "pending"].includes(root.status)) return;
  ctx.onComplete((tx) => finishGroupIfIdle(deps, tx, rootId));
  if (await hasChildren(deps.db, nodeId)) return;
  const opts = optionsOf(root);
  if (node.depth >= opts.maxDepth) return;
  const ancestors = resultRows<{ description: string }>(
    await deps.db.execute(sql`with recursive up(id, parent_id, description, depth) as (
        select id, parent_id, description, depth from ${tasks} where id = ${node.parentId}
        union all select t.id, t.parent_id, t.description, t.depth from ${tasks} t join up on t.id = up.parent_id)
      select description from up order by depth`),
  ).map((r) => r.description);
  // What the rest of the plan already covers, so shared work is not planned again in several branches.
  const others = await deps.db
    .select({ id: tasks.id, parentId: tasks.parentId, description: tasks.description })
    .from(tasks)
    .where(and(eq(tasks.rootTaskId, rootId), ne(tasks.id, nodeId)))
    .orderBy(asc(tasks.depth), asc(tasks.position))
    .limit(OUTLINE_LIMIT);
  const siblingTasks = others.filter((t) => t.parentId === node.parentId);
  const elsewhereTasks = others.filter(
    (t) => t.parentId !== node.parentId && !ancestors.includes(t.description),
  );
  const siblings = siblingTasks.map((t) => t.description);
  const elsewhere = elsewhereTasks.map((t) => t.description);
  // The prompt numbers the siblings, then the rest (prompts.ts), for depends_on_elsewhere.
  const citable = [...siblingTasks, ...elsewhereTasks];
  const planner = await deps.planners.forUser(root.userId);
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
  await recordUsage(deps, rootId, planned.usage, planner);
  const inserted = await deps.db.transaction(async (tx) => {
    await lockTaskRow(tx, nodeId);
    if (await hasChildren(tx, nodeId)) return [];
    // A parent is never less complex than its children: cap scores at the parent's.
    const capped = planned.value
      .slice(0, opts.maxSubtasks)
      .map((p) => ({ ...p, complexity_score: Math.min(p.complexity_score, node.complexityScore ?? 10) }));
    if (capped.length === 0) {
      // The planner has nothing finer for this node (the offline outline's leaves): it is a leaf.
      await tx.update(tasks).set({ isAtomic: true, updatedAt: new Date() }).where(eq(tasks.id, nodeId));
      return [];
    }
    const children = await insertChildren(
      deps,
      tx,
      node,
      rootId,
      capped,
      opts,
      true,
      estimateSourceOf(planner),
    );
    // Work the model says must come first from other branches (by its number in the prompt's list).
    const across = capped.flatMap((p, i) =>
      (p.depends_on_elsewhere ?? []).flatMap((n) => {
        const other = citable[n - 1];
        return other ? [{ taskId: children[i]!.id, dependsOnId: other.id }] : [];
      }),
    );
    if (across.length) {
      const kept = acceptableDependencies(await loadPlanGraph(tx, rootId), across);
      if (kept.length) {
        await tx
          .insert(taskDependencies)
          .values(kept.map((e) => ({ ...e, rootTaskId: rootId, source: "planner" as const })))
          .onConflictDoNothing();
      }
    }
    return children;
  });
  if (inserted.length) {
    await reportStage(
      deps,
      root,
      "decomposer",
      "processing",
      `Split "${node.description.slice(0, 60)}" into ${inserted.length} subtasks`,
      { node_id: nodeId },
    );
  }
}

// ---- stage 6: composer -----------------------------------------------------------------------------
/** Shown on the task when the composer left a person's edit of the event model in place. */
export const EVENT_MODEL_KEPT_WARNING =
  "You edited the event model while the decomposition ran: your version was kept and the generated event model was not applied. Restart the decomposition to generate a new one.";

async function runCompose(deps: Deps, job: TypedJob<typeof JOB_COMPOSE>, ctx: JobContext) {
  const rootId = job.payload.rootId;
  const root = await loadTask(deps, rootId);
  if (root?.status !== "processing") return;
  const planner = await deps.planners.forUser(root.userId);
  await reportStage(deps, root, "decomposer", "completed", "All subtasks decomposed");
  await deps.events.publish({
    type: "task.decomposed",
    userId: root.userId,
    taskId: root.id,
    rootTaskId: root.id,
    data: { progress: 85 },
  });
  await reportStage(deps, root, "composer", "started", "Writing epics, user stories and the event model");
  const merged = await mergeDuplicateLeaves(deps, root);
  if (merged > 0) {
    await reportStage(
      deps,
      root,
      "composer",
      "processing",
      `Merged ${merged} duplicate subtask${merged === 1 ? "" : "s"} planned in more than one place`,
      { merged },
    );
  }

  const nodes = await deps.db
    .select()
    .from(tasks)
    .where(eq(tasks.rootTaskId, rootId))
    .orderBy(asc(tasks.depth), asc(tasks.position));
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
  await deps.events.publish({
    type: "event_modeling.started",
    userId: root.userId,
    taskId: root.id,
    rootTaskId: root.id,
    data: { progress: 85 },
  });
  const [context, model] = await Promise.all([
    planner.composeContext(request, ctx.signal),
    planner.composeEventModel(request, ctx.signal),
  ]);
  await recordUsage(deps, rootId, context.usage, planner);
  await recordUsage(deps, rootId, model.usage, planner);
  const c = context.value;
  const m = model.value;
  const modelApplied = await deps.db.transaction(async (tx) => {
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
  await deps.events.publish({
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
  });
  await reportStage(deps, root, "composer", "completed", "Plan complete");
  await deps.events.publish({
    type: "decomposition.completed",
    userId: root.userId,
    taskId: root.id,
    rootTaskId: root.id,
    message: `Decomposed into ${nodes.length} subtasks`,
    data: { progress: 100, total_subtasks: nodes.length },
  });
  await deps.events.publish({
    type: "task.status_changed",
    userId: root.userId,
    taskId: root.id,
    rootTaskId: root.id,
    status: "completed",
    isAtomic: false,
  });
}

/**
 * The dedup pass (dedupe.ts): leaves planned twice (in two branches, or twice in one) are merged into the
 * first; a parent left without children becomes a leaf. Returns how many were merged.
 */
async function mergeDuplicateLeaves(deps: Deps, root: TaskRow): Promise<number> {
  return deps.db.transaction(async (tx) => {
    await lockTaskRow(tx, root.id);
    const nodes = await tx
      .select()
      .from(tasks)
      .where(eq(tasks.rootTaskId, root.id))
      .orderBy(asc(tasks.depth), asc(tasks.position));
    const merges = findDuplicates(depthFirst(root, nodes));
    if (merges.length === 0) return 0;
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
    return merges.length;
  });
}

function techStackExtras(root: TaskRow) {
  const stored = (root.context as { tech_stack?: Record<string, unknown> } | null)?.tech_stack ?? {};
  return stored.application_type ? { application_type: stored.application_type } : {};
}

function depthFirst(root: TaskRow, nodes: TaskRow[]): TaskRow[] {
  const byParent = new Map<string, TaskRow[]>();
  for (const n of nodes) {
    const list = byParent.get(n.parentId!) ?? [];
    list.push(n);
    byParent.set(n.parentId!, list);
  }
  const out: TaskRow[] = [];
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
  deps.jobs.register(JOB_NODE, wrap(runNode));
  deps.jobs.register(JOB_COMPOSE, wrap(runCompose));
}
