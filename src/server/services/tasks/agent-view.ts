import { and, desc, eq, inArray, isNull, or, sql } from "drizzle-orm";
import type { z } from "zod";
import { calibrationSentence } from "../../../shared/actuals";
import { CLAIM_MINUTES_DEFAULT, type ClaimRow, claimOf } from "../../../shared/claims";
import {
  type AgentTask,
  type NextTask,
  OUTLINE_LINES_MAX,
  type outlineInput,
  type PlanOutline,
  type Progress,
  type ProjectList,
  type projectsInput,
  type StatusChange,
  type setStatusInput,
  type TaskRef,
} from "../../../shared/schemas/agent";
import type { ClaimedNext, claimInput } from "../../../shared/schemas/claims";
import { approvalSentence } from "../../../shared/schemas/reviews";
import type { TaskClaim, TaskStatus } from "../../../shared/schemas/tasks";
import { taskTitle } from "../../../shared/task-title";
import { planStateOf, workStateOf } from "../../../shared/work-state";
import { resultRows } from "../../db/client";
import { taskClaims, tasks } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { loadCalibration } from "../../plan/calibration";
import { PlanGraph, readyLeaves, schedulePlan } from "../../plan/graph";
import { simulationsFor } from "../../plan/order";
import { getOwnedRow, taskNotFound, visibleTo } from "../../plan/owned";
import { loadLeafProgress, progressOf } from "../../plan/progress";
import type { TaskRow } from "../../plan/rows";
import { loadPlanEdges, loadPlanRows, loadTitles, type PlanRow, planNodeOf } from "../../plan/rows";
import { reviewStateOf } from "./approval";
import { activeClaims, announceClaim, type Claimer, expireClaims, heldBy, insertClaim } from "./claims";
import { notesOf } from "./notes";
import { statedScope, toContext } from "./serialize";
import { ownedPlanVersion } from "./tree-reads";
import { updateTask } from "./update-task";

/**
 * The plan as a coding agent or a script reads it (the MCP tools, the CLI): the projects with their
 * progress, a compact outline, one task with everything needed to do it, and the next task to take.
 */

const TITLE_MAX = 80;
/** Forecast runs are not needed here (only the critical path and the ready leaves): none. */
const SIMULATIONS = 0;

type Row = PlanRow;

const titleOf = (description: string) => taskTitle(description, TITLE_MAX);
const refOf = (r: Pick<Row, "id" | "description" | "status">): TaskRef => ({
  id: r.id,
  title: titleOf(r.description),
  status: r.status as TaskStatus,
});

/** Your projects (root tasks), newest first, with how many of their leaves are done. */
export async function listProjects(
  deps: Deps,
  userId: string,
  input: z.output<typeof projectsInput>,
): Promise<ProjectList> {
  const where = and(visibleTo(userId), isNull(tasks.parentId));
  const roots = await deps.db
    .select({
      id: tasks.id,
      description: tasks.description,
      status: tasks.status,
      createdAt: tasks.createdAt,
      total: sql<number>`count(*) over ()::int`,
    })
    .from(tasks)
    .where(where)
    .orderBy(desc(tasks.createdAt), desc(tasks.id))
    .limit(input.limit);
  const progress = await loadLeafProgress(
    deps.db,
    userId,
    roots.map((r) => ({ id: r.id, parentId: null })),
  );
  return {
    projects: roots.map((r) => {
      const done = progress.get(r.id) ?? progressOf(0, 0);
      return {
        id: r.id,
        title: titleOf(r.description),
        status: r.status as TaskStatus,
        plan_state: planStateOf(r.status),
        work_state: workStateOf(done),
        progress: done,
        created_at: r.createdAt.toISOString(),
      };
    }),
    total: roots[0]?.total ?? 0,
  };
}

/** The tree's rows with their children lists, dependencies and (when the order has no cycle) schedule marks. */
async function loadPlan(deps: Deps, rootId: string, opts: { titles?: boolean } = {}) {
  const [rows, edges] = await Promise.all([
    loadPlanRows(deps.db, rootId, opts),
    loadPlanEdges(deps.db, rootId),
  ]);
  return planOf(rows, new PlanGraph(rows.map(planNodeOf), edges), rootId);
}

/** Reads the titles of the plan's rows that an answer names (a plan loaded without them). */
async function withTitles(deps: Deps, plan: LoadedPlan, ids: Iterable<string>): Promise<void> {
  const missing = [...new Set(ids)].filter((id) => plan.byId.get(id)?.description === "");
  const titles = await loadTitles(deps.db, missing);
  for (const [id, description] of titles) plan.byId.get(id)!.description = description;
}

/** The plan's lookups and schedule marks from its rows and graph (again after a change made in memory). */
function planOf(rows: Row[], graph: PlanGraph, rootId: string) {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const children = new Map<string, Row[]>();
  for (const r of rows) {
    if (!r.parentId) continue;
    const list = children.get(r.parentId);
    if (list) list.push(r);
    else children.set(r.parentId, [r]);
  }
  const dependsOn = new Map<string, string[]>();
  for (const e of graph.edges) {
    const list = dependsOn.get(e.taskId);
    if (list) list.push(e.dependsOnId);
    else dependsOn.set(e.taskId, [e.dependsOnId]);
  }
  const rootIndex = graph.index.get(rootId);
  // A cycle (only a manual or concurrent change could leave one) leaves the plan unscheduled.
  const schedule =
    graph.order && rootIndex !== undefined
      ? schedulePlan(graph, rootIndex, 1, `${rootId}:agent`, SIMULATIONS)
      : null;
  const critical = new Set((schedule?.criticalPath ?? []).map((i) => graph.nodes[i]!.id));
  const ready = (schedule?.ready ?? []).map((i) => graph.nodes[i]!.id);
  return { rows, byId, children, dependsOn, graph, schedule, critical, ready };
}
type LoadedPlan = ReturnType<typeof planOf>;

function leafProgress(plan: LoadedPlan, topId: string): Progress {
  let done = 0;
  let total = 0;
  const stack = [topId];
  while (stack.length > 0) {
    const id = stack.pop()!;
    const kids = plan.children.get(id);
    if (kids) for (const k of kids) stack.push(k.id);
    else {
      total++;
      if (plan.byId.get(id)?.status === "completed") done++;
    }
  }
  return progressOf(done, total);
}

const STATUS_MARK: Partial<Record<string, string>> = {
  completed: "[x]",
  in_progress: "[~]",
  processing: "[~]",
  failed: "[!]",
  error: "[!]",
  rejected: "[!]",
};

/**
 * A compact outline of a task's subtree, `depth` levels down, numbered so dependencies read as
 * `after 1.2`: ids to act on, status, points, hours, critical-path and ready marks. Titles are JSON
 * strings: whoever wrote one, it cannot pass for the outline's own marks, ids or lines.
 */
export async function getPlanOutline(
  deps: Deps,
  userId: string,
  id: string,
  input: z.output<typeof outlineInput>,
): Promise<PlanOutline> {
  const top = await getOwnedRow(deps, userId, id);
  const rootId = top.rootTaskId ?? top.id;
  const plan = await loadPlan(deps, rootId, { titles: true });
  const ready = new Set(plan.ready);

  // Number the subtree first, so a dependency on a later task still reads as its number.
  const numbers = new Map<string, string>([[top.id, "0"]]);
  const shown: { row: Row; number: string; level: number }[] = [];
  let omitted = 0;
  const walk = (parent: Row, prefix: string, level: number) => {
    const kids = plan.children.get(parent.id) ?? [];
    kids.forEach((kid, i) => {
      const number = prefix ? `${prefix}.${i + 1}` : `${i + 1}`;
      if (level > input.depth || shown.length >= OUTLINE_LINES_MAX) {
        omitted++;
        walk(kid, number, level + 1);
        return;
      }
      numbers.set(kid.id, number);
      shown.push({ row: kid, number, level });
      walk(kid, number, level + 1);
    });
  };
  walk(top, "", 1);

  // A parent's mark is its work's progress (its own status is the plan's: "completed" once planned).
  const leaves = new Map<string, { done: number; total: number }>();
  const countLeaves = (row: Row): { done: number; total: number } => {
    const known = leaves.get(row.id);
    if (known) return known;
    const kids = plan.children.get(row.id);
    const c = kids
      ? kids.map(countLeaves).reduce((a, b) => ({ done: a.done + b.done, total: a.total + b.total }))
      : { done: row.status === "completed" ? 1 : 0, total: 1 };
    leaves.set(row.id, c);
    return c;
  };
  const markOf = (row: Row) => {
    if (!plan.children.has(row.id)) return STATUS_MARK[row.status] ?? "[ ]";
    const c = countLeaves(row);
    return c.done === c.total ? "[x]" : c.done > 0 ? "[~]" : "[ ]";
  };
  const line = (row: Row, number: string, level: number) => {
    const facts = [
      row.storyPoints !== null ? `${row.storyPoints} pts` : null,
      row.estimatedHours !== null ? `${row.estimatedHours}h` : null,
      plan.children.has(row.id) ? `${plan.children.get(row.id)!.length} subtasks` : null,
    ].filter(Boolean);
    const after = (plan.dependsOn.get(row.id) ?? []).map((d) => numbers.get(d) ?? d);
    return [
      `${"  ".repeat(level)}${number} ${markOf(row)} ${JSON.stringify(titleOf(row.description))}`,
      facts.length ? ` (${facts.join(", ")})` : "",
      ` id=${row.id}`,
      after.length ? ` after ${after.join(", ")}` : "",
      plan.critical.has(row.id) ? " *critical" : "",
      ready.has(row.id) ? " *ready" : "",
    ].join("");
  };
  const lines = [line(top, "0", 0), ...shown.map((s) => line(s.row, s.number, s.level))];
  if (omitted > 0) {
    lines.push(
      `(${omitted} more tasks below: ask for a subtask's own outline, or a greater depth, to see them)`,
    );
  }
  return {
    task_id: top.id,
    root_task_id: rootId,
    status: top.status as TaskStatus,
    progress: leafProgress(plan, top.id),
    critical_path_hours: plan.schedule ? plan.schedule.criticalPathHours : null,
    outline: lines.join("\n"),
    omitted,
    approval: await approvalOf(deps, top.rootTaskId ? await getOwnedRow(deps, userId, rootId, "read") : top),
    forecast: await forecastOf(deps, userId, plan, rootId, top.id),
  };
}

async function approvalOf(deps: Deps, root: TaskRow) {
  const review = await reviewStateOf(deps, root);
  return { state: review.state, sentence: approvalSentence(review.state, review.required_by) };
}

/**
 * The calibrated forecast for one person, as `GET /tasks/{id}/schedule?team_size=1` gives it (the same
 * runs and seed for the whole plan), with what it learned from in a sentence (issue 33).
 */
async function forecastOf(deps: Deps, userId: string, plan: LoadedPlan, rootId: string, topId: string) {
  const top = plan.graph.index.get(topId);
  if (!plan.graph.order || top === undefined) return null;
  const { calibration, ratiosFor } = await loadCalibration(deps.db, userId, rootId, true);
  const s = schedulePlan(plan.graph, top, 1, `${rootId}:1`, simulationsFor(plan.graph.size), ratiosFor);
  return {
    team_size: 1,
    p50_days: s.forecast.p50_days,
    p90_days: s.forecast.p90_days,
    calibration: calibrationSentence(calibration),
  };
}

/** The leaves that become ready once `id` is done (none while it is done already). */
function unblockedBy(graph: PlanGraph, id: string): string[] {
  const i = graph.index.get(id);
  if (i === undefined || !graph.order) return [];
  const node = graph.nodes[i] as { done: boolean };
  if (node.done) return [];
  const before = new Set(readyLeaves(graph));
  node.done = true;
  try {
    return readyLeaves(graph)
      .filter((j) => !before.has(j))
      .map((j) => graph.nodes[j]!.id);
  } finally {
    node.done = false;
  }
}

/**
 * Task `id` of a plan the caller may read (checked before: every caller has the plan from ownedPlanVersion
 * or getOwnedRow), with what an agent needs to do it. `alsoTitled`: other rows the caller's answer names,
 * titled in the same read.
 */
async function agentTaskIn(
  deps: Deps,
  plan: LoadedPlan,
  id: string,
  alsoTitled: readonly string[] = [],
): Promise<AgentTask> {
  const rootId = plan.rows[0]!.id;
  // The task's row and the root's (its requirements and stack, not its whole answer with epics and
  // stories) in one read, both inside this plan; its comments beside them.
  const [rows, notes] = await Promise.all([
    deps.db
      .select()
      .from(tasks)
      .where(and(inArray(tasks.id, [id, rootId]), or(eq(tasks.id, rootId), eq(tasks.rootTaskId, rootId)))),
    notesOf(deps, id),
  ]);
  const row = rows.find((r) => r.id === id);
  const root = rows.find((r) => r.id === rootId);
  if (!row || !root) throw taskNotFound();
  const stack = toContext(root, null);
  const ancestors: string[] = [];
  for (let p = row.parentId; p; p = plan.byId.get(p)?.parentId ?? null) ancestors.push(p);
  const blocks = plan.graph.edges.filter((e) => e.dependsOnId === row.id).map((e) => e.taskId);
  const unblocks = unblockedBy(plan.graph, row.id);
  await withTitles(deps, plan, [
    ...ancestors,
    ...(plan.dependsOn.get(row.id) ?? []),
    ...blocks,
    ...unblocks,
    ...alsoTitled,
  ]);
  const path: TaskRef[] = [];
  for (let p = row.parentId ? plan.byId.get(row.parentId) : undefined; p; ) {
    path.unshift(refOf(p));
    p = p.parentId ? plan.byId.get(p.parentId) : undefined;
  }
  const refs = (ids: Iterable<string>) =>
    [...ids].flatMap((d) => {
      const r = plan.byId.get(d);
      return r ? [refOf(r)] : [];
    });
  const wanted = new Set(row.requirementIds ?? []);
  return {
    id: row.id,
    title: titleOf(row.description),
    description: row.description,
    status: row.status as TaskStatus,
    is_leaf: !plan.children.has(row.id),
    story_points: row.storyPoints,
    estimate_hours:
      row.estimatedHours === null
        ? null
        : {
            low: row.estimateLowHours ?? row.estimatedHours,
            likely: row.estimatedHours,
            high: row.estimateHighHours ?? row.estimatedHours,
          },
    implementation_details: row.implementationDetails,
    acceptance_criteria: row.acceptanceCriteria ?? [],
    requirements: wanted.size ? (statedScope(root)?.requirements ?? []).filter((r) => wanted.has(r.id)) : [],
    path,
    depends_on: refs(plan.dependsOn.get(row.id) ?? []),
    blocks: refs(blocks),
    unblocks: refs(unblocks),
    critical: plan.critical.has(row.id),
    notes: notes.map((n) => ({ body: n.body, token_name: n.token_name, created_at: n.created_at })),
    project: {
      id: root.id,
      title: titleOf(root.description),
      tech_stack: stack?.tech_stack ?? null,
      best_practices: stack?.best_practices ?? [],
    },
  };
}

/** The task an answer gives, if any, with the titles of the other rows it names read in the same pass. */
async function taskWithTitles(
  deps: Deps,
  plan: LoadedPlan,
  id: string | null | undefined,
  others: readonly string[],
): Promise<AgentTask | null> {
  if (id) return agentTaskIn(deps, plan, id, others);
  await withTitles(deps, plan, others);
  return null;
}

/** One task with everything needed to do it: its text, criteria, requirements, order, notes and project. */
export async function getAgentTask(deps: Deps, userId: string, id: string): Promise<AgentTask> {
  const row = await getOwnedRow(deps, userId, id);
  const plan = await loadPlan(deps, row.rootTaskId ?? row.id, { titles: false });
  return agentTaskIn(deps, plan, row.id);
}

/** Whether the plan is still being made (queued or running), or waits for its owner's review. */
function planningState(root: Row, hasChildren: boolean): string | null {
  if (root.status === "processing" || (root.status === "pending" && !hasChildren))
    return "The plan is still being made";
  if (root.status === "submitted") return "The plan waits for your review (approve it in Atomize)";
  if (root.status === "awaiting_review")
    return "Nothing is planned yet: the reading of the description waits for your check (get_reading, then plan_project)";
  return null;
}

/**
 * The ready leaf of a project (or of one subtree) to take next: critical path first, and a task nobody
 * started before one already in progress. With nothing ready, says why (planning, all done, or waiting).
 */
export async function getNextTask(
  deps: Deps,
  userId: string,
  id: string,
  claimer: Claimer | null = null,
): Promise<NextTask> {
  const { root: rootId, version } = await ownedPlanVersion(deps, userId, id);
  const plan = await planAt(deps, rootId, version);
  const top = { id };
  const inside = subtreeIds(plan, id);
  // What others hold is theirs (issue 41): two agents asking are not given the same task.
  const held = heldByOthers(
    await activeClaims(deps.db, rootId),
    plan.ready,
    claimer ?? { userId, name: "", token: null },
  );
  const ready = plan.ready.filter((r) => inside.has(r) && !held.has(r));
  const notStarted = ready.filter((r) => plan.byId.get(r)?.status !== "in_progress");
  const chosen = notStarted[0] ?? ready[0] ?? null;
  const progress = leafProgress(plan, top.id);
  const root = plan.byId.get(rootId)!;
  const planning = planningState(root, plan.children.has(rootId));
  let message: string;
  if (chosen) {
    message =
      chosen === notStarted[0]
        ? `${ready.length} task${ready.length === 1 ? " is" : "s are"} ready; this one ${plan.critical.has(chosen) ? "is on the critical path" : "comes first"}.`
        : "Every ready task is already in progress; this one is the first of them.";
    if (planning) message += ` ${planning}: more tasks may appear.`;
  } else if (planning) {
    message = `${planning}; ask again in a moment.`;
  } else if (progress.leaves_done === progress.leaves_total) {
    message = "Everything in this plan is done.";
  } else if (!plan.schedule) {
    message = "This plan's dependencies form a cycle; remove one of them to schedule it.";
  } else {
    const waiting = progress.leaves_total - progress.leaves_done;
    message = `Nothing is ready: the ${waiting} remaining task${waiting === 1 ? " waits" : "s wait"} for work outside this part of the plan.`;
  }
  const alsoReady = ready.filter((r) => r !== chosen).slice(0, 10);
  const inProgress = ready.filter((r) => plan.byId.get(r)?.status === "in_progress").slice(0, 10);
  const task = await taskWithTitles(deps, plan, chosen, [...alsoReady, ...inProgress]);
  return {
    project_id: top.id,
    task,
    message,
    also_ready: alsoReady.map((r) => refOf(plan.byId.get(r)!)),
    in_progress: inProgress.map((r) => refOf(plan.byId.get(r)!)),
    progress,
  };
}

/**
 * Sets a task's status (pending, in progress, completed) as the app's own edit does (live in every open
 * tab, `task.ready` for what it unblocks) and says which leaves became ready with it.
 */
export async function setTaskStatus(
  deps: Deps,
  userId: string,
  id: string,
  input: z.output<typeof setStatusInput>,
): Promise<StatusChange> {
  const row = await getOwnedRow(deps, userId, id);
  const rootId = row.rootTaskId ?? row.id;
  // The plan is read once: the change is made in memory too (only this task's status and done mark move),
  // so what became ready, and the progress, come from the same rows (issue 32: was four reads).
  const plan = await loadPlan(deps, rootId, { titles: false });
  const before = new Set(readyLeaves(plan.graph).map((i) => plan.graph.nodes[i]!.id));
  const task = await updateTask(
    deps,
    userId,
    id,
    {
      status: input.status,
      ...(input.actual_hours === undefined ? {} : { actual_hours: input.actual_hours }),
    },
    { graph: plan.graph },
  );
  const mine = plan.byId.get(id);
  if (mine) mine.status = task.status;
  const after = planOf(plan.rows, plan.graph, rootId);
  const unblocked = after.ready.filter((r) => !before.has(r) && r !== id);
  await withTitles(deps, after, [id, ...unblocked]);
  return {
    task: refOf(after.byId.get(id) ?? { id, description: task.description, status: task.status }),
    unblocked: unblocked.map((r) => refOf(after.byId.get(r)!)),
    progress: leafProgress(after, rootId),
    actual_hours: task.actual_hours,
  };
}

/** A plan's memos: what calls on a cached plan would otherwise work out again each time. */
const memos = new WeakMap<LoadedPlan, Map<string, unknown>>();
function memo<T>(plan: LoadedPlan, key: string, make: () => T): T {
  let m = memos.get(plan);
  if (!m) {
    m = new Map();
    memos.set(plan, m);
  }
  if (!m.has(key)) m.set(key, make());
  return m.get(key) as T;
}

function subtreeIds(plan: LoadedPlan, topId: string): Set<string> {
  return memo(plan, `inside:${topId}`, () => subtreeOf(plan, topId));
}

function subtreeOf(plan: LoadedPlan, topId: string): Set<string> {
  const inside = new Set<string>();
  for (const stack = [topId]; stack.length > 0; ) {
    const t = stack.pop()!;
    inside.add(t);
    for (const k of plan.children.get(t) ?? []) stack.push(k.id);
  }
  return inside;
}

/** A list of task ids as one PostgreSQL array parameter (ids are checked UUIDs). */
const uuidArray = (ids: readonly string[]) => sql`${`{${ids.join(",")}}`}::uuid[]`;

/** Ready leaves tried per claim statement, in order (claim_next_task). */
const CLAIM_WINDOW = 64;

/**
 * Of these leaves, those someone other than the claimer holds now, with the claim. A plan's claims are
 * few (one per person or agent at work), so they are read by plan and matched here.
 */
/** The claims held now on a plan, as `activeClaims` reads them. */
type ClaimsRead = Awaited<ReturnType<typeof activeClaims>>;

/** Of the claims held now on a plan, those by others on leaves `ids`. */
function heldByOthers(claims: ClaimsRead, ids: readonly string[], claimer: Claimer) {
  const out = new Map<string, TaskClaim>();
  if (ids.length === 0) return out;
  const wanted = new Set(ids);
  for (const c of claims) {
    const claim = claimOf(c);
    if (claim && wanted.has(c.taskId) && !heldBy(c, claimer)) out.set(c.taskId, claim);
  }
  return out;
}

/**
 * The plan as the agent's views read it, at a version (tree-cache.ts): built once per version and shared
 * by the calls that ask for it meanwhile, so twenty agents asking at once read the plan once. Claims are
 * not part of it (they change no version). Its titles fill in as answers name them.
 */
async function planAt(deps: Deps, rootId: string, version: number): Promise<LoadedPlan> {
  return (await deps.treeCache.get(`agent:${rootId}:${version}`, async () => {
    const plan = await loadPlan(deps, rootId, { titles: false });
    return { value: plan, bytes: plan.rows.length * 600 };
  })) as LoadedPlan;
}

/**
 * Whether leaf `t` likely changes a file a leaf claimed now does (issue 42): both name it with high or
 * medium confidence. Such a leaf is passed over, so two agents do not work in one file at once; two
 * callers at the same instant may still pick two such leaves (neither sees the other's claim yet).
 */
function collidesWithClaimed(rootId: string) {
  return sql`(t.files is not null and exists (
    select 1 from ${taskClaims} k2 join ${tasks} t2 on t2.id = k2.task_id
      cross join lateral jsonb_array_elements(t2.files) b
      cross join lateral jsonb_array_elements(t.files) a
    where k2.root_task_id = ${rootId} and k2.until > now() and t2.files is not null
      and a->>'path' = b->>'path' and a->>'confidence' <> 'low' and b->>'confidence' <> 'low'))`;
}

/**
 * Claims the next ready leaf nobody started or holds, in the order next_task gives (critical path first),
 * for the caller (issue 41). Atomic: the leaf is taken with FOR UPDATE SKIP LOCKED in one statement, so
 * concurrent callers each get a different leaf, and one a claimer committed meanwhile is read again and
 * passed over. None free: `task` is null and the message says why.
 */
export async function claimNextTask(
  deps: Deps,
  claimer: Claimer,
  id: string,
  input: z.output<typeof claimInput>,
): Promise<ClaimedNext> {
  const { root: rootId, version } = await ownedPlanVersion(deps, claimer.userId, id);
  const plan = await planAt(deps, rootId, version);
  const inside = subtreeIds(plan, id);
  const ready = plan.ready.filter((r) => inside.has(r));
  const candidates = ready.filter((r) => plan.byId.get(r)?.status === "pending");
  const minutes = input.minutes ?? CLAIM_MINUTES_DEFAULT;
  await expireClaims(deps, rootId);
  let claimed: (ClaimRow & { taskId: string }) | undefined;
  // One statement: the first free ready leaf, locked with SKIP LOCKED (a leaf another call holds now is
  // passed over), and its claim. A leaf another claimer committed to after this statement's snapshot is
  // locked all the same (its task row did not change): the claim's key refuses it, and the next is tried.
  // Candidates go in windows of CLAIM_WINDOW, in order: the statement's parameters stay small (sending
  // every ready leaf of a big plan with each call was most of a call's cost), and a window whose leaves are
  // all taken moves on to the next.
  // The statement also reads the plan's claims held now (as they were when it began: without the one it
  // takes, which is the caller's), for the answer's held_by_others, saving a read under contention.
  const lost: string[] = [];
  let claimsNow: ClaimsRead | undefined;
  let from = 0;
  for (let attempt = 0; from < candidates.length && !claimed && attempt < 50; attempt++) {
    const window = candidates.slice(from, from + CLAIM_WINDOW);
    const list = uuidArray(window);
    const [row] = resultRows<
      { picked: string | null; held: ClaimsRead } & Partial<ClaimRow & { taskId: string }>
    >(
      await deps.db.execute(sql`with pick as (
          select t.id from ${tasks} t
          where t.id = any(${list}) and t.status = 'pending'
            and not exists (select 1 from ${taskClaims} k where k.task_id = t.id and k.until > now())
            and not ${collidesWithClaimed(rootId)}
            ${lost.length ? sql`and t.id <> all(${uuidArray(lost)})` : sql``}
          order by array_position(${list}, t.id) limit 1
          for update of t skip locked),
        won as (${insertClaim(sql`select pick.id, ${rootId}::uuid, ${claimer.userId}::uuid,
          ${claimer.token?.id ?? null}::uuid, ${claimer.name}, ${claimer.token?.name ?? null}, now(),
          now() + make_interval(mins => ${minutes}) from pick`)})
        select pick.id::text as "picked", won.*, (select coalesce(json_agg(json_build_object(
            'taskId', c.task_id, 'userId', c.user_id, 'tokenId', c.token_id, 'holder', c.holder,
            'agent', c.agent, 'until', c.until)), '[]') from ${taskClaims} c
          where c.root_task_id = ${rootId} and c.until > now()) as held
        from (select 1) one left join pick on true left join won on true`),
    );
    claimsNow = row?.held;
    if (!row?.picked) from += CLAIM_WINDOW;
    else if (row.taskId) claimed = row as ClaimRow & { taskId: string };
    else lost.push(row.picked);
  }
  const held = heldByOthers(claimsNow ?? (await activeClaims(deps.db, rootId)), ready, claimer);
  const progress = memo(plan, `progress:${id}`, () => leafProgress(plan, id));
  const root = plan.byId.get(rootId)!;
  const planning = planningState(root, plan.children.has(rootId));
  // Free leaves passed over only because they share files with claimed ones (issue 42).
  const colliding =
    !claimed && candidates.length > 0
      ? Number(
          resultRows<{ n: number }>(
            await deps.db.execute(sql`select count(*)::int as n from ${tasks} t
              where t.id = any(${uuidArray(candidates.slice(0, 500))}) and t.status = 'pending'
                and not exists (select 1 from ${taskClaims} k where k.task_id = t.id and k.until > now())`),
          )[0]?.n ?? 0,
        )
      : 0;
  let message: string;
  if (claimed) {
    message = `Claimed for you until ${claimOf(claimed)!.claimed_until.slice(11, 16)} UTC: set it in_progress, do it, then completed (which ends the claim).`;
  } else if (colliding > 0) {
    message = `The ${colliding} ready task${colliding === 1 ? "" : "s"} left would change files that claimed tasks change: ask again when one is done.`;
  } else if (held.size > 0) {
    message = `Every ready task is taken: ${held.size} held by others. Ask again when one is done.`;
  } else if (ready.length > 0) {
    message = "Every ready task is already in progress: nothing is free to claim.";
  } else if (planning) {
    message = `${planning}; ask again in a moment.`;
  } else if (progress.leaves_done === progress.leaves_total) {
    message = "Everything in this plan is done.";
  } else {
    message = "Nothing is ready: the remaining tasks wait for work not done yet.";
  }
  const heldIds = [...held.keys()].slice(0, 10);
  const task = await taskWithTitles(deps, plan, claimed?.taskId, heldIds);
  if (claimed) {
    const until = `${claimOf(claimed)!.claimed_until.slice(11, 16)} UTC`;
    await announceClaim(
      deps,
      claimer.userId,
      { id: claimed.taskId, rootTaskId: rootId },
      `Claimed by ${claimOf(claimed)!.claimed_by}`,
      { summary: `took “${task?.title ?? "a task"}” as the next task, until ${until}` },
    );
  }
  return {
    project_id: id,
    task,
    claim: claimed ? claimOf(claimed) : null,
    message,
    held_by_others: heldIds.map((r) => ({
      ...refOf(plan.byId.get(r)!),
      claimed_by: held.get(r)!.claimed_by,
      claimed_until: held.get(r)!.claimed_until,
    })),
    progress,
  };
}
