import { eq } from "drizzle-orm";
import type { StageId } from "../../shared/schemas/realtime";
import { readTaskOptions } from "../../shared/schemas/tasks";
import { repositoryMaps, tasks } from "../db/schema/index";
import type { Deps } from "../deps";
import { githubTokenFor } from "../integrations/credentials";
import type { JobContext, TypedJob } from "../jobs/queue";
import { lockNodeForSplit } from "../plan/locks";
import { countChildren, hasChildren, loadTaskRow, type TaskRow } from "../plan/rows";
import { briefOf, optionsOf } from "./brief";
import {
  failedStage,
  type PendingEvents,
  pendingEvents,
  reportStage,
  setRootStatus,
  stageEvent,
  statusEvent,
} from "./events";
import { fetchRepositoryContext } from "./grounding";
import type { JOB_ROOT } from "./jobs";
import type { Planner, ProjectBrief } from "./planners/contract";
import { githubRepositoryMap } from "./repository/github-map";
import { loadRepositoryMap, summarizeMap } from "./repository/map-summary";
import { finishGroupIfIdle } from "./run-completion";
import { estimateSourceOf, predictionsWith, recordUsage } from "./token-usage";
import { insertChildren } from "./tree-writes";

/**
 * Stages 1-4 (and the start of 5) of a plan's run, in the root's job: read the description, gather
 * context (the linked repository), score the complexity, plan the first level; then wait for review, or
 * let the splits begin. Each step is skipped when an earlier run did it (a retried job resumes).
 */
export async function runRoot(deps: Deps, job: TypedJob<typeof JOB_ROOT>, ctx: JobContext) {
  let stage: StageId = "source";
  try {
    await runRootStages(deps, job.payload.rootId, ctx, (next) => {
      stage = next;
    });
  } catch (err) {
    if (err && typeof err === "object") failedStage.set(err, stage);
    throw err;
  }
}

type Options = ReturnType<typeof optionsOf>;

async function runRootStages(deps: Deps, rootId: string, ctx: JobContext, enter: (stage: StageId) => void) {
  const found = await loadTaskRow(deps.db, rootId);
  if (!found || !["pending", "processing"].includes(found.status)) return;
  const opts = optionsOf(found);
  const planner = await deps.planners.forUser(found.userId);
  const events = pendingEvents(deps);
  let root = await startRun(deps, found, planner, events);
  if (!root) return;
  events.push(
    stageEvent(root, "source", "started", "Reading your description"),
    stageEvent(root, "source", "completed", "Description and preferences read"),
  );

  enter("context_fetch");
  const summary = await gatherContext(deps, root, opts, events, ctx.signal);
  const brief = briefOf(root, summary, await loadRepositoryMap(deps.db, root.id));

  enter("complexity_scorer");
  root = await scoreComplexity(deps, root, planner, brief, events, ctx);
  if (!root) return;

  enter("root_processor");
  events.push(stageEvent(root, "root_processor", "started", "Planning the first level"));
  const firstLevel = await planFirstLevel(deps, root, planner, brief, opts, events, ctx);
  events.push(stageEvent(root, "root_processor", "completed", `${firstLevel} first-level subtasks planned`));

  if (opts.requiresApproval && !readTaskOptions(root.options).approved_at) {
    await events.flush();
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
  await events.flush();
  ctx.onComplete((tx) => finishGroupIfIdle(deps, tx, rootId));
}

/** A pending plan becomes processing, with the planner that plans it; undefined when it changed meanwhile. */
async function startRun(
  deps: Deps,
  root: TaskRow,
  planner: Planner,
  events: PendingEvents,
): Promise<TaskRow | undefined> {
  if (root.status !== "pending") return root;
  const [started] = await deps.db
    .update(tasks)
    .set({
      status: "processing",
      updatedAt: new Date(),
      planner: planner.name,
      model: planner.model,
      failureReason: null,
    })
    .where(eq(tasks.id, root.id))
    .returning();
  if (!started) return undefined;
  events.push(statusEvent(root, "processing"), {
    type: "decomposition.started",
    userId: root.userId,
    taskId: root.id,
    rootTaskId: root.id,
    message: "Decomposition started",
  });
  return started;
}

/** The linked repository's summary (stored on the root for the splits and the composer), or null. */
export async function gatherContext(
  deps: Deps,
  root: TaskRow,
  opts: Pick<Options, "githubRepo">,
  events: PendingEvents,
  signal?: AbortSignal,
): Promise<string | null> {
  events.push(
    stageEvent(
      root,
      "context_fetch",
      "started",
      opts.githubRepo ? "Reading the linked repository" : "Gathering context",
    ),
  );
  let summary: string | null = null;
  let map = await loadRepositoryMap(deps.db, root.id);
  if (!map && opts.githubRepo) {
    // A linked repository is mapped through GitHub's API (issue 42), kept per tree for the next plan.
    await events.flush();
    map = await githubRepositoryMap(deps, opts.githubRepo, await githubTokenFor(deps, root.userId), signal);
    if (map) await deps.db.insert(repositoryMaps).values({ rootTaskId: root.id, map }).onConflictDoNothing();
  }
  if (map) {
    // A map sent with the project (issue 42) is the code: no need to read GitHub.
    summary = summarizeMap(map);
    await deps.db.update(tasks).set({ repositorySummary: summary }).where(eq(tasks.id, root.id));
  } else if (opts.githubRepo) {
    await events.flush();
    const context = await fetchRepositoryContext(
      deps,
      opts.githubRepo,
      await githubTokenFor(deps, root.userId),
      signal,
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
      .where(eq(tasks.id, root.id));
  }
  events.push(
    stageEvent(
      root,
      "context_fetch",
      "completed",
      summary ? "Repository context gathered" : "Context gathered",
    ),
  );
  return summary;
}

/** The root's complexity, scored once; undefined when the plan was deleted meanwhile. */
async function scoreComplexity(
  deps: Deps,
  root: TaskRow,
  planner: Planner,
  brief: ProjectBrief,
  events: PendingEvents,
  ctx: JobContext,
): Promise<TaskRow | undefined> {
  events.push(stageEvent(root, "complexity_scorer", "started", "Assessing complexity"));
  let scored: TaskRow | undefined = root;
  if (root.complexityScore === null) {
    await events.flush();
    const assessed = await planner.assessComplexity(brief, ctx.signal);
    [scored] = await deps.db
      .update(tasks)
      .set({
        complexityScore: assessed.value.complexity_score,
        storyPoints: assessed.value.story_points,
        implementationDetails: assessed.value.rationale,
        estimateSource: estimateSourceOf(planner),
        ...(planner.name === "offline" ? {} : { predictions: predictionsWith(assessed.usage) }),
      })
      .where(eq(tasks.id, root.id))
      .returning();
    if (!scored) return undefined;
  }
  events.push(
    stageEvent(scored, "complexity_scorer", "completed", `Complexity ${scored.complexityScore}/10`),
  );
  return scored;
}

/** Plans the first level once (an earlier run's stays); returns how many first-level subtasks there are. */
async function planFirstLevel(
  deps: Deps,
  root: TaskRow,
  planner: Planner,
  brief: ProjectBrief,
  opts: Options,
  events: PendingEvents,
  ctx: JobContext,
): Promise<number> {
  if (await hasChildren(deps.db, root.id)) return countChildren(deps.db, root.id);
  await events.flush();
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
  const inserted = await deps.db.transaction(async (tx) => {
    const split = await lockNodeForSplit(tx, root.id);
    await recordUsage(deps, root.id, planned.usage, planner, tx);
    if (split) return null;
    const children = await insertChildren(deps, tx, {
      parent: root,
      rootId: root.id,
      planned: planned.value.slice(0, opts.maxSubtasks),
      limits: opts,
      queueSplits: !opts.requiresApproval,
      estimateSource: estimateSourceOf(planner),
    });
    return children.length;
  });
  return inserted ?? countChildren(deps.db, root.id);
}
