import { and, eq, inArray, or } from "drizzle-orm";
import { claimOf } from "../../../shared/claims";
import type { AgentTask, Progress, TaskRef } from "../../../shared/schemas/agent";
import type { TaskClaim, TaskStatus } from "../../../shared/schemas/tasks";
import { taskTitle } from "../../../shared/task-title";
import { tasks } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { PlanGraph, readyLeaves, schedulePlan } from "../../plan/graph";
import { taskNotFound } from "../../plan/owned";
import { progressOf } from "../../plan/progress";
import { loadPlanEdges, loadPlanRows, loadTitles, type PlanRow, planNodeOf } from "../../plan/rows";
import { type activeClaims, type Claimer, heldBy } from "./claims";
import { notesOf } from "./notes";
import { statedScope, toContext } from "./serialize";

/**
 * The plan as a coding agent or a script reads it (the MCP tools, the CLI): the projects with their
 * progress, a compact outline, one task with everything needed to do it, and the next task to take.
 */

const TITLE_MAX = 80;

/** Forecast runs are not needed here (only the critical path and the ready leaves): none. */
const SIMULATIONS = 0;

export type Row = PlanRow;

export const titleOf = (description: string) => taskTitle(description, TITLE_MAX);

export const refOf = (r: Pick<Row, "id" | "description" | "status">): TaskRef => ({
  id: r.id,
  title: titleOf(r.description),
  status: r.status as TaskStatus,
});

/** The tree's rows with their children lists, dependencies and (when the order has no cycle) schedule marks. */
export async function loadPlan(deps: Deps, rootId: string, opts: { titles?: boolean } = {}) {
  const [rows, edges] = await Promise.all([
    loadPlanRows(deps.db, rootId, opts),
    loadPlanEdges(deps.db, rootId),
  ]);
  return planOf(rows, new PlanGraph(rows.map(planNodeOf), edges), rootId);
}

/** Reads the titles of the plan's rows that an answer names (a plan loaded without them). */
export async function withTitles(deps: Deps, plan: LoadedPlan, ids: Iterable<string>): Promise<void> {
  const missing = [...new Set(ids)].filter((id) => plan.byId.get(id)?.description === "");
  const titles = await loadTitles(deps.db, missing);
  for (const [id, description] of titles) plan.byId.get(id)!.description = description;
}

/** The plan's lookups and schedule marks from its rows and graph (again after a change made in memory). */
export function planOf(rows: Row[], graph: PlanGraph, rootId: string) {
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

export type LoadedPlan = ReturnType<typeof planOf>;

export function leafProgress(plan: LoadedPlan, topId: string): Progress {
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
export async function agentTaskIn(
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
export async function taskWithTitles(
  deps: Deps,
  plan: LoadedPlan,
  id: string | null | undefined,
  others: readonly string[],
): Promise<AgentTask | null> {
  if (id) return agentTaskIn(deps, plan, id, others);
  await withTitles(deps, plan, others);
  return null;
}

/** Whether the plan is still being made (queued or running), or waits for its owner's review. */
export function planningState(root: Row, hasChildren: boolean): string | null {
  if (root.status === "processing" || (root.status === "pending" && !hasChildren))
    return "The plan is still being made";
  if (root.status === "submitted") return "The plan waits for your review (approve it in Atomize)";
  if (root.status === "awaiting_review")
    return "Nothing is planned yet: the reading of the description waits for your check (get_reading, then plan_project)";
  return null;
}

/** A plan's memos: what calls on a cached plan would otherwise work out again each time. */
const memos = new WeakMap<LoadedPlan, Map<string, unknown>>();

export function memo<T>(plan: LoadedPlan, key: string, make: () => T): T {
  let m = memos.get(plan);
  if (!m) {
    m = new Map();
    memos.set(plan, m);
  }
  if (!m.has(key)) m.set(key, make());
  return m.get(key) as T;
}

export function subtreeIds(plan: LoadedPlan, topId: string): Set<string> {
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

/**
 * Of these leaves, those someone other than the claimer holds now, with the claim. A plan's claims are
 * few (one per person or agent at work), so they are read by plan and matched here.
 */
/** The claims held now on a plan, as `activeClaims` reads them. */
export type ClaimsRead = Awaited<ReturnType<typeof activeClaims>>;

/** Of the claims held now on a plan, those by others on leaves `ids`. */
export function heldByOthers(claims: ClaimsRead, ids: readonly string[], claimer: Claimer) {
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
export async function planAt(deps: Deps, rootId: string, version: number): Promise<LoadedPlan> {
  return (await deps.treeCache.get(`agent:${rootId}:${version}`, async () => {
    const plan = await loadPlan(deps, rootId, { titles: false });
    return { value: plan, bytes: plan.rows.length * 600 };
  })) as LoadedPlan;
}
