import { and, asc, eq, or, sql } from "drizzle-orm";
import type { FieldError } from "../../shared/errors";
import type { AgentComposition, AgentSplitAnswer, PlanningNext } from "../../shared/schemas/agent-planning";
import { ATOMIC_HOURS, type PlannedSubtask } from "../../shared/schemas/plan";
import type { RepositoryMap } from "../../shared/schemas/repository-map";
import { type DbOrTx, resultRows, type Tx } from "../db/client";
import { tasks } from "../db/schema/index";
import type { Deps } from "../deps";
import { AppError } from "../errors";
import type { BusEvent, PublishInput } from "../events/event-bus";
import { lockTaskRow } from "../plan/locks";
import type { TaskRow } from "../plan/rows";
import {
  type BriefNode,
  COMPOSITION_SCHEMA,
  compositionBrief,
  ELSEWHERE_SHOWN,
  stepBrief,
  stepSchemaFor,
} from "./agent-brief";
import { briefOf, optionsOf } from "./brief";
import { writeComposition } from "./compose";
import { pendingEvents, stageEvent, statusEvent } from "./events";
import { AGENT_PLANNER, composeJob } from "./jobs";
import { renderEventModelMarkdown } from "./planners/event-model-markdown";
import { loadRepositoryMap } from "./repository/map-summary";
import { gatherContext } from "./root";
import { siblingDependencies } from "./sibling-dependencies";
import { writeSplit } from "./split";

/**
 * A coding agent plans a project through the MCP server with its own model (decision 029). The server
 * reads the text (requirements, non-goals, kind) and then plans nothing itself: the agent asks for the
 * next node to split, in the engine's order (depth, then place), with the brief a model would get
 * (agent-brief.ts), and answers with subtasks checked by the same schema and rules as a model's answer.
 * An answer is written as the engine writes a split (engine/split.ts's writeSplit under the plan's lock,
 * the same events, so open browser tabs follow it live), and no job splits the plan meanwhile. When no
 * node is left to split, the composer's job runs with the offline planner's composer (the dedup pass included),
 * which completes the plan; the agent may then replace the composition with its own.
 *
 * Everything lives in the database, so planning survives the agent going away: the next call to
 * `nextStep` resumes it, from any process. Two agents asking for the same node get the same step; the
 * second answer is refused, because the node is split by then (the plan's lock decides).
 */

/** The most steps planning can still take: each open node, and below it as deep as the plan may go. */
function stepsAtMost(depth: number, maxDepth: number, maxSubtasks: number): number {
  let total = 0;
  for (let d = depth, width = 1; d < maxDepth; d++, width *= maxSubtasks) total += width;
  return total;
}

type PlanRow = BriefNode & {
  position: number;
  isAtomic: boolean;
  split: boolean;
  implementationDetails: string | null;
  complexityScore: number | null;
  requirementIds: string[];
};

/** The plan's nodes in tree order, with whether each is split: what a step is chosen and described from. */
async function loadPlan(db: DbOrTx, rootId: string): Promise<PlanRow[]> {
  return db
    .select({
      id: tasks.id,
      parentId: tasks.parentId,
      depth: tasks.depth,
      position: tasks.position,
      description: sql<string>`left(${tasks.description}, 2000)`,
      isAtomic: tasks.isAtomic,
      // The outer row named in full: drizzle writes a bare column, which the subquery would take as its own.
      split: sql<boolean>`exists (select 1 from ${tasks} c where c.parent_id = "tasks"."id")`,
      implementationDetails: tasks.implementationDetails,
      complexityScore: tasks.complexityScore,
      requirementIds: tasks.requirementIds,
    })
    .from(tasks)
    .where(or(eq(tasks.id, rootId), eq(tasks.rootTaskId, rootId)))
    .orderBy(asc(tasks.depth), asc(tasks.position), asc(tasks.createdAt));
}

/** The nodes still to split, in the engine's order. */
function openNodes(rows: PlanRow[], maxDepth: number): PlanRow[] {
  return rows.filter((r) => !r.split && !r.isAtomic && r.depth < maxDepth);
}

/** How many nodes are left to split (read in the caller's transaction, under the plan's lock). */
async function countOpen(tx: Tx, rootId: string, maxDepth: number): Promise<number> {
  const [row] = resultRows<{ n: number }>(
    await tx.execute(sql`select count(*)::int as n from ${tasks} t
      where (t.id = ${rootId} or t.root_task_id = ${rootId}) and not t.is_atomic and t.depth < ${maxDepth}
        and not exists (select 1 from ${tasks} c where c.parent_id = t.id)`),
  );
  return Number(row?.n ?? 0);
}

/** The siblings and the work elsewhere a node's step shows, numbered as depends_on_elsewhere cites them. */
function around(rows: PlanRow[], node: PlanRow) {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const ancestors: PlanRow[] = [];
  for (let p = node.parentId; p; p = byId.get(p)?.parentId ?? null) ancestors.unshift(byId.get(p)!);
  const inside = new Set([node.id]);
  for (const r of rows) if (r.parentId && inside.has(r.parentId)) inside.add(r.id);
  const siblings = node.parentId ? rows.filter((r) => r.parentId === node.parentId && r.id !== node.id) : [];
  const skip = new Set([...inside, ...ancestors.map((a) => a.id), ...siblings.map((s) => s.id)]);
  const others = rows.filter((r) => r.parentId !== null && !skip.has(r.id));
  // The nearest first: the children of the node's ancestors (its uncles), then the rest in tree order.
  const near = new Set(ancestors.map((a) => a.id));
  const ordered = [
    ...others.filter((r) => near.has(r.parentId!)),
    ...others.filter((r) => !near.has(r.parentId!)),
  ];
  const shown = ordered.slice(0, ELSEWHERE_SHOWN);
  const branchOf = (r: PlanRow) => {
    let b = r;
    while (b.depth > 1 && b.parentId) b = byId.get(b.parentId)!;
    return b;
  };
  const counts = new Map<string, { branch: string; count: number }>();
  for (const r of ordered.slice(ELSEWHERE_SHOWN)) {
    const b = branchOf(r);
    const c = counts.get(b.id) ?? { branch: b.description, count: 0 };
    c.count++;
    counts.set(b.id, c);
  }
  return { ancestors, siblings, shown, more: [...counts.values()] };
}

/** The project's root, checked: planned by a coding agent. */
function agentPlan(root: TaskRow) {
  if (root.planner !== AGENT_PLANNER) {
    throw new AppError(
      "CONFLICT",
      'This project is planned by the server\'s planner. Create a project with planner "agent" to plan it yourself.',
    );
  }
}

/** The events of a plan a coding agent starts planning: the same stages a decomposition shows. */
export function agentStartedEvents(root: TaskRow): PublishInput[] {
  return [
    statusEvent(root, "processing"),
    {
      type: "decomposition.started",
      userId: root.userId,
      taskId: root.id,
      rootTaskId: root.id,
      message: `Planning by your coding agent${root.model ? ` (${root.model})` : ""}`,
    },
    stageEvent(root, "source", "started", "Reading your description"),
    stageEvent(root, "source", "completed", "Description and preferences read"),
  ];
}

/** The next step of a coding agent's planning: the next node to split, or done. */
export async function nextStep(deps: Deps, root: TaskRow): Promise<PlanningNext> {
  agentPlan(root);
  const opts = optionsOf(root);
  const rows = await loadPlan(deps.db, root.id);
  const open = openNodes(rows, opts.maxDepth);
  if (root.status !== "processing" || open.length === 0)
    return done(root, rows, await loadRepositoryMap(deps.db, root.id));
  const node = open[0]!;
  let summary = root.repositorySummary;
  let map = await loadRepositoryMap(deps.db, root.id);
  if (node.depth === 0 && (opts.githubRepo || map) && summary === null) {
    // The repository (a map sent with the project, or a linked one) is read as the engine reads it
    // before its first split: summarised on the root, for every later step and the composer.
    const events = pendingEvents(deps);
    summary = await gatherContext(deps, root, opts, events);
    await events.flush();
    map ??= await loadRepositoryMap(deps.db, root.id);
  }
  const brief = briefOf(root, summary, map);
  const { ancestors, siblings, shown, more } = around(rows, node);
  const cited = [...new Set([...ancestors, node].flatMap((r) => r.requirementIds))];
  return {
    done: false,
    project_id: root.id,
    node_id: node.id,
    depth: node.depth,
    brief: stepBrief({
      brief,
      step: rows.filter((r) => r.split).length + 1,
      node,
      path: ancestors.map((a) => a.description),
      cited,
      siblings,
      elsewhere: shown,
      more,
      maxDepth: opts.maxDepth,
      maxSubtasks: opts.maxSubtasks,
    }),
    schema: stepSchemaFor(node.depth === 0, opts.maxSubtasks, brief.repository !== undefined),
    remaining: {
      waiting: open.length,
      // Each step adds a task at least, so no more steps than PLAN_MAX_NODES leaves room for.
      at_most: Math.min(
        open.reduce((n, o) => n + stepsAtMost(o.depth, opts.maxDepth, opts.maxSubtasks), 0),
        Math.max(0, deps.config.PLAN_MAX_NODES - rows.length),
      ),
    },
  };
}

function done(root: TaskRow, rows: PlanRow[], map: RepositoryMap | null): PlanningNext {
  return {
    done: true,
    project_id: root.id,
    status: root.status,
    subtasks: rows.length - 1,
    composition: {
      brief: compositionBrief(briefOf(root, root.repositorySummary, map), rows),
      schema: COMPOSITION_SCHEMA,
    },
  };
}

/**
 * The dependencies an answer gave that the plan cannot take, in words: as for a model's answer, they are
 * dropped (a number outside the lists, a subtask waiting for itself, a pair that closes a cycle), and the
 * agent is told which.
 */
function droppedDependencies(answer: AgentSplitAnswer, citable: number): string[] {
  const n = answer.subtasks.length;
  const kept = new Set(siblingDependencies(answer.subtasks).map(([w, a]) => `${w}:${a}`));
  const out: string[] = [];
  answer.subtasks.forEach((s, i) => {
    for (const d of new Set(s.depends_on ?? [])) {
      if (d === i + 1) out.push(`subtask ${i + 1} waited for itself`);
      else if (d > n) out.push(`subtask ${i + 1} waited for subtask ${d}, but there are ${n}`);
      else if (!kept.has(`${i}:${d - 1}`))
        out.push(`subtask ${i + 1} waiting for ${d} would close a cycle (${d} waits for ${i + 1})`);
    }
    for (const d of new Set(s.depends_on_elsewhere ?? []))
      if (d > citable)
        out.push(
          `subtask ${i + 1} cited ${d} in depends_on_elsewhere, but the step listed ${citable === 0 ? "nothing" : `1-${citable}`}`,
        );
  });
  return out;
}

/** An answer checked against the plan: what to write, or every problem with it. */
function checkAnswer(
  answer: AgentSplitAnswer,
  node: PlanRow,
  root: TaskRow,
  citable: number,
): {
  planned: PlannedSubtask[];
  atomic: (boolean | undefined)[];
  dropped: string[];
  droppedDependencies: string[];
} {
  const opts = optionsOf(root);
  const problems: FieldError[] = [];
  const add = (field: string, message: string) => problems.push({ field, message });
  if (node.depth === 0 && !answer.assessment)
    add(
      "assessment",
      "The first step also assesses the whole project: give assessment {complexity_score, story_points, rationale}.",
    );
  const n = answer.subtasks.length;
  if (n > opts.maxSubtasks)
    add(
      "subtasks",
      `At most ${opts.maxSubtasks} subtasks for this project (its max_subtasks); the answer has ${n}.`,
    );
  answer.subtasks.forEach((s, i) => {
    if (s.atomic === true && s.estimated_hours > ATOMIC_HOURS)
      add(
        `subtasks.${i}.atomic`,
        `Marked atomic but estimated at ${s.estimated_hours} h: a task done without splitting takes at most ${ATOMIC_HOURS} h. Split it (atomic: false) or lower the estimate.`,
      );
  });
  if (problems.length) {
    throw new AppError(
      "UNPROCESSABLE_CONTENT",
      `The answer has ${problems.length} problem${problems.length === 1 ? "" : "s"}: fix them and submit again.`,
      {
        fieldErrors: problems,
      },
    );
  }
  // Ids the agent made up (or misspelled) trace work to nothing: only stated ones are kept, as for a model.
  const stated = new Set(briefOf(root, root.repositorySummary).scope.requirements.map((r) => r.id));
  const dropped = new Set<string>();
  const planned = answer.subtasks.map(({ title, atomic: _atomic, ...s }) => {
    const ids = s.requirement_ids.map((id) => id.trim().toUpperCase());
    for (const id of ids) if (!stated.has(id)) dropped.add(id);
    const description =
      title && !s.description.trimStart().startsWith(title) ? `${title}\n${s.description}` : s.description;
    return { ...s, description, requirement_ids: [...new Set(ids.filter((id) => stated.has(id)))] };
  });
  return {
    planned,
    atomic: answer.subtasks.map((s) => s.atomic),
    dropped: [...dropped],
    droppedDependencies: droppedDependencies(answer, citable),
  };
}

/**
 * Writes an agent's answer for one node, as the engine writes a split, and answers with the next step.
 * Refused (409) when the node is split already (by this agent or another), or when it is not one to split.
 */
export async function submitSplit(
  deps: Deps,
  root: TaskRow,
  nodeId: string,
  answer: AgentSplitAnswer,
): Promise<{
  node_id: string;
  created: number;
  dropped_requirement_ids: string[];
  dropped_dependencies: string[];
  next: PlanningNext;
}> {
  agentPlan(root);
  if (root.status !== "processing")
    throw new AppError("CONFLICT", "This project's planning is finished: nothing is left to split.");
  const opts = optionsOf(root);
  const rows = await loadPlan(deps.db, root.id);
  const node = rows.find((r) => r.id === nodeId);
  if (!node) throw new AppError("NOT_FOUND", "Task not found");
  if (node.split)
    throw new AppError(
      "CONFLICT",
      "This task is split already (by you or another agent): ask for the next planning step.",
    );
  if (node.isAtomic || node.depth >= opts.maxDepth)
    throw new AppError(
      "CONFLICT",
      "This task is a leaf of the plan: it is not split. Ask for the next planning step.",
    );
  const { siblings, shown } = around(rows, node);
  const citable = [...siblings, ...shown];
  const { planned, atomic, dropped, droppedDependencies } = checkAnswer(answer, node, root, citable.length);
  const [nodeRow] = await deps.db.select().from(tasks).where(eq(tasks.id, nodeId));
  let announced: BusEvent[] = [];
  const created = await deps.db.transaction(async (tx) => {
    const children = await writeSplit(deps, tx, {
      node: nodeRow!,
      rootId: root.id,
      planned,
      citable,
      limits: opts,
      estimateSource: "model",
      queueSplits: false,
      recheck: true,
      atomic,
    });
    if (children === null)
      throw new AppError(
        "CONFLICT",
        "This task is split already (by you or another agent): ask for the next planning step.",
      );
    const events: PublishInput[] = [];
    if (node.depth === 0 && answer.assessment) {
      await tx
        .update(tasks)
        .set({
          complexityScore: answer.assessment.complexity_score,
          storyPoints: answer.assessment.story_points,
          implementationDetails: answer.assessment.rationale,
          estimateSource: "model",
        })
        .where(eq(tasks.id, root.id));
      events.push(
        stageEvent(
          root,
          "complexity_scorer",
          "completed",
          `Complexity ${answer.assessment.complexity_score}/10`,
        ),
        stageEvent(root, "root_processor", "completed", `${children.length} first-level subtasks planned`),
        stageEvent(root, "decomposer", "started", "Decomposing subtasks"),
      );
    } else {
      events.push(
        stageEvent(
          root,
          "decomposer",
          "processing",
          `Split "${node.description.slice(0, 60)}" into ${children.length} subtasks`,
          { node_id: node.id },
        ),
      );
    }
    // The last split: the composer's job completes the plan (one job, however many agents answer).
    if ((await countOpen(tx, root.id, opts.maxDepth)) === 0) await deps.jobs.enqueue(composeJob(root.id), tx);
    announced = await deps.events.record(tx, events);
    return children.length;
  });
  await deps.events.announce(announced);
  return {
    node_id: nodeId,
    created,
    dropped_requirement_ids: dropped,
    dropped_dependencies: droppedDependencies,
    next: await nextStep(deps, root),
  };
}

/**
 * Replaces the composition (epics, user stories, the event model) with the agent's, once every node is
 * split and the offline planner's composition is written. A person's edit of the event model is kept.
 */
export async function submitComposition(
  deps: Deps,
  root: TaskRow,
  answer: AgentComposition,
): Promise<{ project_id: string; epics: number; user_stories: number; event_model_applied: boolean }> {
  agentPlan(root);
  if (root.status !== "completed") {
    const opts = optionsOf(root);
    const open = openNodes(await loadPlan(deps.db, root.id), opts.maxDepth).length;
    throw new AppError(
      "CONFLICT",
      open > 0
        ? `${open} task${open === 1 ? "" : "s"} still to split: finish the planning steps first.`
        : "The plan is being put together (a few seconds): submit the composition again in a moment.",
    );
  }
  const current =
    (root.context as { tech_stack?: Record<string, string>; best_practices?: string[] } | null) ?? {};
  const model = answer.event_model;
  const applied = await deps.db.transaction((tx) =>
    writeComposition(
      tx,
      root,
      {
        tech_stack: answer.tech_stack ?? {
          frontend: current.tech_stack?.frontend ?? "",
          backend: current.tech_stack?.backend ?? "",
          database: current.tech_stack?.database ?? "",
          deployment: current.tech_stack?.deployment ?? "",
          description: current.tech_stack?.description ?? "",
        },
        best_practices: answer.best_practices ?? current.best_practices ?? [],
        epics: answer.epics,
        user_stories: answer.user_stories,
      },
      model
        ? {
            ...model,
            event_model_markdown: renderEventModelMarkdown(
              model,
              root.description.split("\n")[0]?.slice(0, 80),
            ),
          }
        : null,
      { complete: false },
    ),
  );
  await deps.events.publish({
    type: "task.updated",
    userId: root.userId,
    taskId: root.id,
    rootTaskId: root.id,
    status: root.status,
    message: "Composition replaced by your coding agent",
  });
  return {
    project_id: root.id,
    epics: answer.epics.length,
    user_stories: answer.user_stories.length,
    event_model_applied: applied,
  };
}

/** Planning with the client's model stopped: a warning on the project says why and how to go on. */
export async function noteStopped(deps: Deps, root: TaskRow, reason: string): Promise<void> {
  if (root.planner !== AGENT_PLANNER || root.status !== "processing") return;
  const warning = `Planning with your coding agent's model stopped (${reason}). Ask your agent to continue it: next_planning_step picks up where it stopped.`;
  await deps.db
    .update(tasks)
    .set({
      warnings: [
        ...root.warnings.filter((w) => !w.startsWith("Planning with your coding agent's model stopped")),
        warning,
      ],
    })
    .where(eq(tasks.id, root.id));
  await deps.events.publish({
    type: "task.updated",
    userId: root.userId,
    taskId: root.id,
    rootTaskId: root.id,
    status: root.status,
    message: warning,
  });
}

/** Where a coding agent's planning stands: the step it waits on, for the page that shows it. */
export async function waitingOn(
  deps: Deps,
  root: TaskRow,
): Promise<{ step: number; node_id: string | null; title: string | null; waiting: number }> {
  agentPlan(root);
  const rows = await loadPlan(deps.db, root.id);
  const open = root.status === "processing" ? openNodes(rows, optionsOf(root).maxDepth) : [];
  const node = open[0];
  return {
    step: rows.filter((r) => r.split).length + (node ? 1 : 0),
    node_id: node?.id ?? null,
    title: node ? node.description.split("\n")[0]!.slice(0, 200) : null,
    waiting: open.length,
  };
}

/** Levels the outline fills at most: each pass splits every open node, and a plan is at most this deep. */
const OUTLINE_PASSES_MAX = 12;

/**
 * A person stops their agent's planning (issue 40): every node the agent has not split yet is split by
 * the offline planner, as the engine would, and the offline planner's composer completes the plan. What the
 * agent planned stays. Refused (409) once planning is over; a split the agent commits meanwhile wins.
 */
export async function finishWithOutline(
  deps: Deps,
  root: TaskRow,
): Promise<{ finished: number; planned_by_outline: number }> {
  agentPlan(root);
  if (root.status !== "processing")
    throw new AppError("CONFLICT", "This project's planning is finished: there is nothing to stop.");
  const opts = optionsOf(root);
  const brief = briefOf(root, root.repositorySummary, await loadRepositoryMap(deps.db, root.id));
  let written = 0;
  let finished = 0;
  for (let pass = 0; pass < OUTLINE_PASSES_MAX; pass++) {
    const rows = await loadPlan(deps.db, root.id);
    const open = openNodes(rows, opts.maxDepth);
    if (open.length === 0) break;
    for (const node of open) {
      const { ancestors, siblings, shown } = around(rows, node);
      const planned = await deps.planners.offline.splitTask({
        brief,
        task: {
          description: node.description,
          complexity_score: node.complexityScore,
          implementation_details: node.implementationDetails,
        },
        ancestors: ancestors.map((a) => a.description),
        siblings: siblings.map((s) => s.description),
        elsewhere: shown.map((s) => s.description),
        depth: node.depth,
        maxDepth: opts.maxDepth,
        maxSubtasks: opts.maxSubtasks,
      });
      const [nodeRow] = await deps.db.select().from(tasks).where(eq(tasks.id, node.id));
      if (!nodeRow) continue;
      const announced = await deps.db.transaction(async (tx) => {
        const children = await writeSplit(deps, tx, {
          node: nodeRow,
          rootId: root.id,
          planned: planned.value,
          citable: [...siblings, ...shown],
          limits: opts,
          estimateSource: "rule",
          queueSplits: false,
          recheck: true,
        });
        if (children === null) return [];
        finished++;
        if (children.length === 0) return [];
        written += children.length;
        return deps.events.record(tx, [
          stageEvent(
            root,
            "decomposer",
            "processing",
            `Split "${node.description.slice(0, 60)}" into ${children.length} subtasks (outline)`,
            { node_id: node.id },
          ),
        ]);
      });
      await deps.events.announce(announced);
    }
  }
  const note = `You stopped your coding agent's planning: the offline planner planned the rest (${finished} task${finished === 1 ? "" : "s"} finished, ${written} subtask${written === 1 ? "" : "s"} added).`;
  await deps.db.transaction(async (tx) => {
    await tx
      .update(tasks)
      .set({
        warnings: [
          ...root.warnings.filter((w) => !w.startsWith("Planning with your coding agent's model stopped")),
          note,
        ],
      })
      .where(eq(tasks.id, root.id));
    if ((await countOpen(tx, root.id, opts.maxDepth)) === 0) await deps.jobs.enqueue(composeJob(root.id), tx);
  });
  return { finished, planned_by_outline: written };
}

/** A person cancels their agent's planning: the project stops where it is, failed with that reason. */
export async function cancelPlanning(deps: Deps, root: TaskRow): Promise<void> {
  agentPlan(root);
  if (root.status !== "processing")
    throw new AppError("CONFLICT", "This project's planning is finished: there is nothing to cancel.");
  const reason =
    "You cancelled the planning. What your coding agent planned is kept; Restart plans the project again.";
  const announced = await deps.db.transaction(async (tx) => {
    await lockTaskRow(tx, root.id);
    await deps.jobs.cancelGroup(root.id, tx);
    const [row] = await tx
      .update(tasks)
      .set({ status: "failed", failureReason: reason, updatedAt: new Date() })
      .where(and(eq(tasks.id, root.id), eq(tasks.status, "processing")))
      .returning({ id: tasks.id });
    if (!row)
      throw new AppError("CONFLICT", "This project's planning is finished: there is nothing to cancel.");
    return deps.events.record(tx, [
      statusEvent(root, "failed"),
      {
        type: "decomposition.error",
        userId: root.userId,
        taskId: root.id,
        rootTaskId: root.id,
        message: reason,
      },
    ]);
  });
  await deps.events.announce(announced);
}
