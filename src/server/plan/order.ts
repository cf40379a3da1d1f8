import { and, asc, eq, inArray, or, sql } from "drizzle-orm";
import type { z } from "zod";
import { UUID_PATTERN } from "../../shared/ids";
import type {
  addDependencyInput,
  moveTaskInput,
  Schedule,
  scheduleInput,
  TaskDependencies,
} from "../../shared/schemas/schedule";
import { taskTitle } from "../../shared/task-title";
import type { DbOrTx } from "../db/client";
import { taskDependencies, tasks } from "../db/schema/index";
import type { Deps } from "../deps";
import { AppError } from "../errors";
import { loadCalibration } from "./calibration";
import { PlanGraph, schedulePlan } from "./graph";
import { getOwnedRow, TASK_NOT_FOUND } from "./owned";
import { beginRevision, recordRevision, revisionTitle } from "./revisions";
import { loadPlanGraph, loadPlanStructure } from "./rows";

/**
 * Forecast runs per schedule, by the plan's size: 1,000 for a small plan, fewer for a large one (107 for
 * 2,801 nodes, never under 20), so the work per request stays bounded (about 300,000 node-steps) and a
 * schedule well under 100 ms. A large plan's finish varies less (it adds up many independent leaves), so
 * fewer runs give as steady a P50/P90; the answer says how many ran.
 */
export function simulationsFor(nodes: number): number {
  return Math.max(20, Math.min(1000, Math.floor(300_000 / Math.max(1, nodes))));
}

const notFound = () => new AppError("NOT_FOUND", TASK_NOT_FOUND);

/** What a task waits for and what waits for it. */
export async function dependenciesOf(db: DbOrTx, taskId: string): Promise<TaskDependencies> {
  const rows = await db
    .select({ taskId: taskDependencies.taskId, dependsOnId: taskDependencies.dependsOnId })
    .from(taskDependencies)
    .where(or(eq(taskDependencies.taskId, taskId), eq(taskDependencies.dependsOnId, taskId)))
    .orderBy(asc(taskDependencies.createdAt));
  return {
    task_id: taskId,
    depends_on: rows.filter((r) => r.taskId === taskId).map((r) => r.dependsOnId),
    blocks: rows.filter((r) => r.dependsOnId === taskId).map((r) => r.taskId),
  };
}

/** The caller's task's dependencies, both ways (404 when the task is not theirs). */
export async function getDependencies(deps: Deps, userId: string, id: string): Promise<TaskDependencies> {
  const task = await getOwnedRow(deps, userId, id);
  return dependenciesOf(deps.db, task.id);
}

const TITLE_IN_MESSAGE = 60;

/**
 * The titles of some of a plan's tasks, read when a message names them: the checks run on the plan's
 * shape alone (loadPlanStructure), without every task's text (issue 32).
 */
async function titlesOf(db: DbOrTx, graph: PlanGraph, indices: number[]): Promise<string[]> {
  const ids = indices.map((i) => graph.nodes[i]!.id);
  const rows = await db
    .select({ id: tasks.id, description: tasks.description })
    .from(tasks)
    .where(inArray(tasks.id, ids));
  const byId = new Map(rows.map((r) => [r.id, r.description]));
  return ids.map((id) => taskTitle(byId.get(id) ?? "a task", TITLE_IN_MESSAGE));
}

/**
 * Makes `taskId` wait for `input.depends_on`. Both must be the caller's and in the same tree (404
 * otherwise, as for any task that is not yours); a task cannot wait for itself, its ancestors or its
 * descendants, and no dependency may close a cycle (422, naming the cycle). Concurrent changes to one
 * tree's dependencies are serialised on its root row, so two requests cannot close a cycle between them.
 */
export async function addDependency(
  deps: Deps,
  userId: string,
  taskId: string,
  input: z.output<typeof addDependencyInput>,
): Promise<TaskDependencies> {
  const task = await getOwnedRow(deps, userId, taskId);
  const rootId = task.rootTaskId ?? task.id;
  if (!UUID_PATTERN.test(input.depends_on)) throw notFound();
  const result = await deps.db.transaction(async (tx) => {
    await beginRevision(tx, rootId);
    const [other] = await tx
      .select({ id: tasks.id, rootTaskId: tasks.rootTaskId, description: tasks.description })
      .from(tasks)
      .where(eq(tasks.id, input.depends_on))
      .limit(1);
    if (!other || (other.rootTaskId ?? other.id) !== rootId) throw notFound();
    if (other.id === task.id) throw unprocessable("A task cannot depend on itself.");
    const graph = await loadPlanStructure(tx, rootId);
    const a = graph.index.get(task.id);
    const b = graph.index.get(other.id);
    if (a === undefined || b === undefined) throw notFound();
    const mine = `"${taskTitle(task.description, TITLE_IN_MESSAGE)}"`;
    const theirs = `"${taskTitle(other.description, TITLE_IN_MESSAGE)}"`;
    if (graph.isAncestor(b, a)) {
      throw unprocessable(
        `${mine} is part of ${theirs}, so it cannot depend on it: a task can only depend on work outside its own branch.`,
      );
    }
    if (graph.isAncestor(a, b)) {
      throw unprocessable(
        `${theirs} is part of ${mine}, so ${mine} cannot depend on it: a task can only depend on work outside its own branch.`,
      );
    }
    const cycle = graph.cycleThrough(a, b);
    if (cycle) {
      const names = await titlesOf(tx, graph, cycle);
      throw unprocessable(`This would create a cycle: ${names.join(" -> ")}`);
    }
    await tx
      .insert(taskDependencies)
      .values({ taskId: task.id, dependsOnId: other.id, rootTaskId: rootId, source: "person" })
      .onConflictDoNothing();
    await recordRevision(tx, {
      rootId,
      taskId: task.id,
      kind: "dependency",
      summary: `Made ${mine} wait for ${theirs}`,
    });
    return dependenciesOf(tx, task.id);
  });
  await publishOrderChange(deps, userId, task.id, rootId, "Dependency added");
  return result;
}

/** Removes "taskId waits for dependsOnId"; 404 when the task is not the caller's or has no such dependency. */
export async function removeDependency(
  deps: Deps,
  userId: string,
  taskId: string,
  dependsOnId: string,
): Promise<void> {
  const task = await getOwnedRow(deps, userId, taskId);
  if (!UUID_PATTERN.test(dependsOnId)) throw notFound();
  const rootId = task.rootTaskId ?? task.id;
  await deps.db.transaction(async (tx) => {
    await beginRevision(tx, rootId);
    const removed = await tx
      .delete(taskDependencies)
      .where(and(eq(taskDependencies.taskId, task.id), eq(taskDependencies.dependsOnId, dependsOnId)))
      .returning({ taskId: taskDependencies.taskId });
    if (removed.length === 0) throw new AppError("NOT_FOUND", "This task does not depend on that task.");
    const [other] = await tx
      .select({ description: tasks.description })
      .from(tasks)
      .where(eq(tasks.id, dependsOnId));
    await recordRevision(tx, {
      rootId,
      taskId: task.id,
      kind: "dependency",
      summary: `Let ${revisionTitle(task.description)} go ahead without ${revisionTitle(other?.description ?? "a task")}`,
    });
  });
  await publishOrderChange(deps, userId, task.id, task.rootTaskId ?? task.id, "Dependency removed");
}

function unprocessable(message: string) {
  return new AppError("UNPROCESSABLE_CONTENT", message, { fieldErrors: [{ field: "depends_on", message }] });
}

async function publishOrderChange(
  deps: Deps,
  userId: string,
  taskId: string,
  rootId: string,
  message: string,
) {
  await deps.events.publish({
    type: "task.updated",
    userId,
    taskId,
    rootTaskId: rootId,
    message,
    data: { dependencies_changed: true },
  });
}

/** The existing files each leaf of a plan likely changes, confidently (high or medium), by leaf id. */
async function confidentFiles(deps: Deps, rootId: string): Promise<Map<string, string[]>> {
  const rows = await deps.db
    .select({ id: tasks.id, files: tasks.files })
    .from(tasks)
    .where(and(eq(tasks.rootTaskId, rootId), sql`${tasks.files} is not null`));
  return new Map(
    rows.map((r) => [
      r.id,
      (r.files ?? []).filter((f) => !f.new && f.confidence !== "low").map((f) => f.path),
    ]),
  );
}

/** Leaves of one wave that likely change the same file (issue 42): each file once per wave. */
export function collisionsIn(
  waves: string[][],
  files: Map<string, string[]>,
): { wave: number; path: string; task_ids: string[] }[] {
  const out: { wave: number; path: string; task_ids: string[] }[] = [];
  waves.forEach((wave, w) => {
    const byPath = new Map<string, string[]>();
    for (const id of wave) for (const p of files.get(id) ?? []) byPath.set(p, [...(byPath.get(p) ?? []), id]);
    for (const [path, ids] of byPath) if (ids.length > 1) out.push({ wave: w, path, task_ids: ids });
  });
  return out;
}

/**
 * The schedule of a task's subtree (the whole plan for a root): critical path, waves, ready leaves and a
 * seeded Monte Carlo forecast for `team_size` people (docs/decisions/018-plans-a-team-can-run.md),
 * calibrated on finished leaves' actual hours unless asked not to be (decision 031).
 */
export async function getSchedule(
  deps: Deps,
  userId: string,
  id: string,
  input: z.output<typeof scheduleInput>,
): Promise<Schedule> {
  const row = await getOwnedRow(deps, userId, id);
  const rootId = row.rootTaskId ?? row.id;
  const graph = await loadPlanGraph(deps.db, rootId);
  if (!graph.order) {
    // Every write checks for cycles, so only a concurrent or manual change could leave one behind.
    throw new AppError(
      "CONFLICT",
      "This plan's dependencies form a cycle; remove one of them to schedule it.",
    );
  }
  const top = graph.index.get(row.id);
  if (top === undefined) throw notFound();
  const { calibration, ratiosFor } = await loadCalibration(deps.db, userId, rootId, input.calibrate);
  const s = schedulePlan(
    graph,
    top,
    input.team_size,
    `${rootId}:${input.team_size}`,
    simulationsFor(graph.size),
    ratiosFor,
  );
  const ids = (list: number[]) => list.map((i) => graph.nodes[i]!.id);
  const waves = s.waves.map(ids);
  const files = await confidentFiles(deps, rootId);
  return {
    task_id: row.id,
    critical_path: ids(s.criticalPath),
    critical_path_hours: s.criticalPathHours,
    waves,
    collisions: collisionsIn(waves, files),
    files: Object.fromEntries(waves.flat().flatMap((id) => (files.has(id) ? [[id, files.get(id)!]] : []))),
    ready: ids(s.ready),
    unestimated: ids(s.unestimated),
    forecast: s.forecast,
    calibration,
  };
}

/**
 * Moves a task (with its subtree) under another parent of the same plan, at a 0-based place among that
 * parent's children (past the end means last). The root cannot move; a task cannot go under itself or
 * its own subtasks (422); a parent of another plan or not yours is 404. A move that would turn a
 * dependency into one between a task and its own ancestor, or close a cycle through the new tree, is
 * refused (422) and changes nothing. Siblings keep their order (renumbered 1..n).
 */
export async function moveTask(
  deps: Deps,
  userId: string,
  id: string,
  input: z.output<typeof moveTaskInput>,
): Promise<{ id: string; parent_id: string; position: number; depth: number }> {
  const task = await getOwnedRow(deps, userId, id);
  if (!task.parentId) throw new AppError("UNPROCESSABLE_CONTENT", "The root task cannot be moved.");
  const rootId = task.rootTaskId ?? task.id;
  if (!UUID_PATTERN.test(input.parent_id)) throw notFound();
  const moved = await deps.db.transaction(async (tx) => {
    await beginRevision(tx, rootId);
    const [parent] = await tx
      .select({
        id: tasks.id,
        rootTaskId: tasks.rootTaskId,
        depth: tasks.depth,
        description: tasks.description,
      })
      .from(tasks)
      .where(eq(tasks.id, input.parent_id))
      .limit(1);
    if (!parent || (parent.rootTaskId ?? parent.id) !== rootId) throw notFound();
    const siblings = await tx
      .select({ id: tasks.id })
      .from(tasks)
      .where(eq(tasks.parentId, parent.id))
      .orderBy(asc(tasks.position), asc(tasks.createdAt));
    const order = siblings.map((s) => s.id).filter((s) => s !== task.id);
    order.splice(Math.min(input.position, order.length), 0, task.id);
    const delta = parent.depth + 1 - task.depth;
    // The order must still hold in the new tree, checked before anything is written. Among its own
    // siblings a task keeps its ancestors and descendants, so the order cannot break: only a move under
    // another parent reads the plan's shape and checks the new tree in memory (the task's parent changed).
    if (parent.id !== task.parentId) {
      const before = await loadPlanStructure(tx, rootId);
      const self = before.index.get(task.id)!;
      const target = before.index.get(parent.id)!;
      if (target === self || before.isAncestor(self, target)) {
        throw new AppError(
          "UNPROCESSABLE_CONTENT",
          "A task cannot be moved under itself or one of its subtasks.",
          {
            fieldErrors: [
              { field: "parent_id", message: "A task cannot be moved under itself or one of its subtasks." },
            ],
          },
        );
      }
      const after = new PlanGraph(
        before.nodes.map((n, i) => (i === self ? { ...n, parentId: parent.id } : n)),
        before.edges,
      );
      const related = after.edges.find((e) => {
        const a = after.index.get(e.taskId)!;
        const b = after.index.get(e.dependsOnId)!;
        return after.isAncestor(a, b) || after.isAncestor(b, a);
      });
      if (related || !after.order) {
        const names = related
          ? await titlesOf(tx, after, [
              after.index.get(related.taskId)!,
              after.index.get(related.dependsOnId)!,
            ])
          : [];
        const message = related
          ? `This move would put "${names[0]}" and "${names[1]}", which depend on each other, in one branch. Remove that dependency first.`
          : "This move would create a cycle in the plan's order. Remove a dependency first.";
        throw new AppError("UNPROCESSABLE_CONTENT", message, {
          fieldErrors: [{ field: "parent_id", message }],
        });
      }
    }
    // Placed by hand: a re-plan leaves it where the person put it.
    await tx
      .update(tasks)
      .set({ parentId: parent.id, updatedAt: new Date(), editedAt: new Date() })
      .where(eq(tasks.id, task.id));
    // The new siblings numbered 1..n in one statement (only those whose place changes are written).
    await tx.execute(sql`update ${tasks} t set position = x.place::int
      from jsonb_array_elements_text(${JSON.stringify(order)}::jsonb) with ordinality as x(id, place)
      where t.id = x.id::uuid and t.position <> x.place::int`);
    if (delta !== 0) {
      await tx.execute(sql`with recursive sub(id) as (
          select ${task.id}::uuid union all select t.id from ${tasks} t join sub on t.parent_id = sub.id)
        update ${tasks} set depth = depth + ${delta} where id in (select id from sub)`);
    }
    await tx
      .update(tasks)
      .set({ isAtomic: false })
      .where(and(eq(tasks.id, parent.id), eq(tasks.isAtomic, true)));
    await recordRevision(tx, {
      rootId,
      taskId: task.id,
      kind: "move",
      summary: `Moved ${revisionTitle(task.description)} under ${revisionTitle(parent.description)}`,
    });
    return {
      id: task.id,
      parent_id: parent.id,
      position: order.indexOf(task.id),
      depth: task.depth + delta,
    };
  });
  await deps.events.publish({
    type: "task.updated",
    userId,
    taskId: task.id,
    rootTaskId: rootId,
    message: "Task moved",
    data: { moved: true, parent_id: moved.parent_id, position: moved.position },
  });
  return moved;
}
