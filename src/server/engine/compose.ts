import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import type { EventModelPlan, ProjectContext } from "../../shared/schemas/plan";
import type { Tx } from "../db/client";
import { epics, eventModels, tasks, userStories } from "../db/schema/index";
import type { Deps } from "../deps";
import type { PublishInput } from "../events/event-bus";
import type { JobContext, TypedJob } from "../jobs/queue";
import { warningsWithAttentionCount } from "../plan/attention";
import { lockTaskRow } from "../plan/locks";
import { hasChildren, loadTaskRow, type TaskRow } from "../plan/rows";
import { briefOf, optionsOf } from "./brief";
import { findDuplicates } from "./dedupe";
import { stageEvent } from "./events";
import { AGENT_PLANNER, type JOB_COMPOSE } from "./jobs";
import type { Planner } from "./planners/contract";
import { loadRepositoryMap } from "./repository/map-summary";
import { addUsage, recordUsage } from "./token-usage";

/**
 * Stage 6, once the last split is done: the dedup pass, then the composer's two calls (epics and user
 * stories, the event model), written in one transaction that completes the plan.
 */

/** Shown on the task when the composer left a person's edit of the event model in place. */
export const EVENT_MODEL_KEPT_WARNING =
  "You edited the event model while the decomposition ran: your version was kept and the generated event model was not applied. Restart the decomposition to generate a new one.";

export async function runCompose(deps: Deps, job: TypedJob<typeof JOB_COMPOSE>, ctx: JobContext) {
  const root = await loadTaskRow(deps.db, job.payload.rootId);
  if (root?.status !== "processing") return;
  // A coding agent's plan is composed by the offline planner's composer; the agent may replace it afterwards.
  const planner =
    root.planner === AGENT_PLANNER
      ? Promise.resolve(deps.planners.offline)
      : deps.planners.forUser(root.userId);
  await composeWith(deps, root, planner, ctx.signal);
}

/**
 * The dedup pass, then the composer's calls with `planner`, written in one transaction that completes
 * the plan (the engine's stage 6, and the end of a coding agent's planning with the offline planner's composer).
 */
export async function composeWith(deps: Deps, root: TaskRow, choose: Promise<Planner>, signal?: AbortSignal) {
  const rootId = root.id;
  const [planner, { merged, nodes }] = await Promise.all([choose, mergeDuplicateLeaves(deps, root)]);
  const flat = depthFirst(root, nodes).map((t) => ({
    description: t.description,
    depth: t.depth,
    complexity_score: t.complexityScore,
    story_points: t.storyPoints,
    is_atomic: t.isAtomic,
  }));
  const opts = optionsOf(root);
  const request = {
    brief: briefOf(root, root.repositorySummary, await loadRepositoryMap(deps.db, root.id)),
    tasks: flat,
    limits: { maxDepth: opts.maxDepth, maxSubtasks: opts.maxSubtasks },
  };
  // The calls go out first and the stage events are recorded while they run, so the events still come
  // before anything the answers lead to. A call failing meanwhile is handled once the events are out.
  const answers = Promise.all([
    planner.composeContext(request, signal),
    planner.composeEventModel(request, signal),
  ]);
  answers.catch(() => {});
  await deps.events.publishMany(composingEvents(root, merged));
  const [context, model] = await answers;
  const modelApplied = await deps.db.transaction(async (tx) => {
    await recordUsage(deps, rootId, addUsage(context.usage, model.usage), planner, tx);
    return writeComposition(tx, root, context.value, model.value, { complete: true });
  });
  await deps.events.publishMany(completedEvents(root, model.value, modelApplied, nodes.length));
}

/** What the people watching see while the composer's calls run. */
function composingEvents(root: TaskRow, merged: number): PublishInput[] {
  return [
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
  ];
}

/**
 * Writes the epics, user stories and event model (none: the plan's stays), and completes the plan when
 * asked. Returns whether the event model was applied (a person's edit of it is never replaced).
 */
export async function writeComposition(
  tx: Tx,
  root: TaskRow,
  c: ProjectContext,
  m: EventModelPlan | null,
  opts: { complete: boolean },
): Promise<boolean> {
  const rootId = root.id;
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
  if (!m) {
    // The composition without an event model (a coding agent's): the plan's stays as it is.
    await tx
      .update(tasks)
      .set({
        context: {
          tech_stack: { ...c.tech_stack, ...techStackExtras(root) },
          best_practices: c.best_practices,
        },
        updatedAt: new Date(),
      })
      .where(eq(tasks.id, rootId));
    return false;
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
  const composed = {
    context: {
      tech_stack: { ...c.tech_stack, ...techStackExtras(root) },
      best_practices: c.best_practices,
    },
    warnings:
      kept && !warnings.includes(EVENT_MODEL_KEPT_WARNING)
        ? [...warnings, EVENT_MODEL_KEPT_WARNING]
        : warnings,
    updatedAt: new Date(),
  };
  if (opts.complete) {
    await tx
      .update(tasks)
      .set({ ...composed, status: "completed", completedAt: new Date() })
      .where(and(eq(tasks.id, rootId), eq(tasks.status, "processing")));
  } else await tx.update(tasks).set(composed).where(eq(tasks.id, rootId));
  return !kept;
}

/** What the people watching see once the plan is complete. */
function completedEvents(
  root: TaskRow,
  m: EventModelPlan,
  modelApplied: boolean,
  subtasks: number,
): PublishInput[] {
  return [
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
      message: `Decomposed into ${subtasks} subtasks`,
      data: { progress: 100, total_subtasks: subtasks },
    },
    {
      type: "task.status_changed",
      userId: root.userId,
      taskId: root.id,
      rootTaskId: root.id,
      status: "completed",
      isAtomic: false,
    },
  ];
}

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

/**
 * The dedup pass (dedupe.ts): leaves planned twice (in two branches, or twice in one) are merged into the
 * first; a parent left without children becomes a leaf. Returns how many were merged, and the plan's
 * rows as they are now (in tree order: depth, position).
 */
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
