import { and, asc, count, desc, eq, isNull, or, type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import { findApplicationType, findStack } from "../../../shared/catalogue";
import { UUID_PATTERN } from "../../../shared/ids";
import {
  type addTaskInput,
  type createTaskInput,
  type listTasksInput,
  type RemoteLink,
  statsGroupOf,
  type statsInput,
  type Task,
  type TaskList,
  type TaskStats,
  type TaskTreeNode,
  type TaskUsage,
  type updateEventModelInput,
  type updateTaskInput,
} from "../../../shared/schemas/tasks";
import { resultRows } from "../../db/client";
import {
  epics,
  eventModels,
  remoteItems,
  taskDependencies,
  tasks,
  userStories,
  users,
} from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { refreshAttentionWarning } from "../../plan/attention";
import { PlanGraph, readyLeaves, rollups } from "../../plan/graph";
import { lockChildren } from "../../plan/locks";
import { getOwnedRow, TASK_NOT_FOUND } from "../../plan/owned";
import { loadLeafProgress, progressOf } from "../../plan/progress";
import { beginRevision, recordRevision, revisionTitle } from "../../plan/revisions";
import type { TaskRow } from "../../plan/rows";
import { dependsOnLists, loadPlanGraph, planNodeOf } from "../../plan/rows";
import { currentUsagePeriod } from "../auth/accounts";
import type { UserRow } from "../auth/sessions";
import { type RootExtras, toMetadata, toTask } from "./serialize";

export { getOwnedRow, TASK_NOT_FOUND };

const notFound = () => new AppError("NOT_FOUND", TASK_NOT_FOUND);

// Counts computed by correlated subqueries on indexed columns, so a page of tasks is one query. The
// outer row is named explicitly: drizzle renders a bare column unqualified, which would bind to the
// subquery's own table.
const outer = (column: string) => sql.raw(`"tasks"."${column}"`);
const childrenCount = sql<number>`(select count(*)::int from ${tasks} c where c.parent_id = ${outer("id")})`;
const descendantsCount = sql<number>`(case when ${outer("parent_id")} is null
  then (select count(*)::int from ${tasks} d where d.root_task_id = ${outer("id")})
  else (with recursive sub(id) as (
          select s.id from ${tasks} s where s.parent_id = ${outer("id")}
          union all select x.id from ${tasks} x join sub on x.parent_id = sub.id)
        select count(*)::int from sub) end)`;

async function loadRootExtras(deps: Deps, rootId: string): Promise<RootExtras> {
  const [e, s, m] = await Promise.all([
    deps.db.select().from(epics).where(eq(epics.rootTaskId, rootId)).orderBy(asc(epics.position)),
    deps.db
      .select()
      .from(userStories)
      .where(eq(userStories.rootTaskId, rootId))
      .orderBy(asc(userStories.position)),
    deps.db.select().from(eventModels).where(eq(eventModels.rootTaskId, rootId)).limit(1),
  ]);
  return { epics: e, stories: s, eventModel: m[0] ?? null };
}

export async function listTasks(
  deps: Deps,
  userId: string,
  input: z.output<typeof listTasksInput>,
): Promise<TaskList> {
  const where = input.top_level_only
    ? and(eq(tasks.userId, userId), isNull(tasks.parentId))
    : eq(tasks.userId, userId);
  const rows = await deps.db
    .select({
      row: tasks,
      children: childrenCount,
      descendants: descendantsCount,
      total: sql<number>`count(*) over ()::int`,
    })
    .from(tasks)
    .where(where)
    .orderBy(desc(tasks.createdAt), desc(tasks.id))
    .limit(input.page_size)
    .offset((input.page - 1) * input.page_size);
  const total = rows[0]?.total ?? (await deps.db.select({ n: count() }).from(tasks).where(where))[0]!.n;
  const [dependsOn, progress] = await Promise.all([
    dependsOnLists(
      deps.db,
      rows.map((r) => r.row.id),
    ),
    loadLeafProgress(
      deps.db,
      userId,
      rows.map((r) => r.row),
    ),
  ]);
  return {
    tasks: rows.map((r) => ({
      ...toTask(r.row, {
        children: r.children,
        descendants: r.descendants,
        dependsOn: dependsOn.get(r.row.id) ?? [],
      }),
      progress: progress.get(r.row.id) ?? progressOf(0, 0),
    })),
    total,
    page: input.page,
    page_size: input.page_size,
  };
}

export async function getTask(deps: Deps, userId: string, id: string): Promise<Task> {
  if (!UUID_PATTERN.test(id)) throw notFound();
  const [r] = await deps.db
    .select({ row: tasks, children: childrenCount, descendants: descendantsCount })
    .from(tasks)
    .where(and(eq(tasks.id, id), eq(tasks.userId, userId)))
    .limit(1);
  if (!r) throw notFound();
  const [extras, dependsOn, remote] = await Promise.all([
    r.row.parentId === null ? loadRootExtras(deps, r.row.id) : null,
    dependsOnLists(deps.db, [r.row.id]),
    remoteLinks(deps.db, eq(remoteItems.taskId, r.row.id)),
  ]);
  return toTask(
    r.row,
    {
      children: r.children,
      descendants: r.descendants,
      dependsOn: dependsOn.get(r.row.id) ?? [],
      remote: remote.get(r.row.id) ?? [],
    },
    extras,
  );
}

/** What exports made, per task (for the tree's links). */
async function remoteLinks(db: Deps["db"], where: SQL): Promise<Map<string, RemoteLink[]>> {
  const rows = await db
    .select({
      taskId: remoteItems.taskId,
      kind: remoteItems.kind,
      key: remoteItems.remoteKey,
      url: remoteItems.url,
      status: remoteItems.remoteStatus,
    })
    .from(remoteItems)
    .where(where)
    .orderBy(asc(remoteItems.createdAt));
  const out = new Map<string, RemoteLink[]>();
  for (const r of rows) {
    if (!r.taskId) continue;
    const list = out.get(r.taskId) ?? [];
    list.push({ kind: r.kind, key: r.key, url: r.url, status: r.status });
    out.set(r.taskId, list);
  }
  return out;
}

/** The tree below (and including) a task: every node of its root loads in one indexed query. */
export async function getTaskTree(deps: Deps, userId: string, id: string): Promise<TaskTreeNode> {
  const target = await getOwnedRow(deps, userId, id);
  const rootId = target.rootTaskId ?? target.id;
  const [rows, extras, edges, remote] = await Promise.all([
    deps.db
      .select()
      .from(tasks)
      .where(and(eq(tasks.userId, userId), or(eq(tasks.id, rootId), eq(tasks.rootTaskId, rootId))))
      .orderBy(asc(tasks.depth), asc(tasks.position), asc(tasks.createdAt)),
    loadRootExtras(deps, rootId),
    deps.db
      .select({ taskId: taskDependencies.taskId, dependsOnId: taskDependencies.dependsOnId })
      .from(taskDependencies)
      .where(eq(taskDependencies.rootTaskId, rootId))
      .orderBy(asc(taskDependencies.createdAt)),
    remoteLinks(deps.db, eq(remoteItems.rootTaskId, rootId)),
  ]);
  return buildTree(rows, target.id, extras, edges, remote);
}

/**
 * Assembles rows (ordered by depth) into nested nodes in O(n), counting children and descendants, adding
 * each node's dependencies and every parent's roll-up on the way.
 */
export function buildTree(
  rows: TaskRow[],
  targetId: string,
  rootExtras: RootExtras | null,
  edges: { taskId: string; dependsOnId: string }[] = [],
  remote: Map<string, RemoteLink[]> = new Map(),
): TaskTreeNode {
  const dependsOn = new Map<string, string[]>();
  for (const e of edges) {
    const list = dependsOn.get(e.taskId);
    if (list) list.push(e.dependsOnId);
    else dependsOn.set(e.taskId, [e.dependsOnId]);
  }
  const graph = new PlanGraph(rows.map(planNodeOf), []);
  const rollup = rollups(
    graph,
    rows.map((_, i) => rows.length - 1 - i),
  );
  const nodes = new Map<string, TaskTreeNode>();
  rows.forEach((row, i) => {
    nodes.set(row.id, {
      ...toTask(
        row,
        { children: 0, descendants: 0, dependsOn: dependsOn.get(row.id) ?? [], remote: remote.get(row.id) },
        row.parentId === null ? rootExtras : null,
      ),
      children: [],
      rollup: rollup[i] ?? null,
    });
  });
  for (const row of rows) {
    if (!row.parentId) continue;
    const parent = nodes.get(row.parentId);
    if (parent) parent.children.push(nodes.get(row.id)!);
  }
  // Rows come ordered by depth, so walking them backwards visits every child before its parent.
  for (let i = rows.length - 1; i >= 0; i--) {
    const node = nodes.get(rows[i]!.id)!;
    node.children_count = node.children.length;
    node.total_subtasks = node.children.reduce((sum, c) => sum + 1 + c.total_subtasks, 0);
  }
  const target = nodes.get(targetId);
  if (!target) throw notFound();
  return target;
}

export async function getTaskStats(
  deps: Deps,
  userId: string,
  input: z.output<typeof statsInput>,
): Promise<TaskStats> {
  const rows = await deps.db
    .select({ status: tasks.status, n: count() })
    .from(tasks)
    .where(
      input.top_level_only ? and(eq(tasks.userId, userId), isNull(tasks.parentId)) : eq(tasks.userId, userId),
    )
    .groupBy(tasks.status);
  const stats: TaskStats = { total: 0, completed: 0, in_progress: 0, pending: 0, rejected: 0, failed: 0 };
  for (const r of rows) {
    stats.total += r.n;
    const group = statsGroupOf(r.status);
    if (group) stats[group] += r.n;
  }
  return stats;
}

function firstOfNextMonth(now = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

export function usageOf(user: UserRow): TaskUsage {
  const period = currentUsagePeriod();
  return {
    used: user.usagePeriod === period ? user.tasksCreatedThisMonth : 0,
    limit: user.role === "admin" ? null : user.monthlyTaskLimit,
    period,
    resets_at: firstOfNextMonth().toISOString(),
  };
}

function monthName(d: Date) {
  return d.toLocaleString("en", { month: "long", day: "numeric", timeZone: "UTC" });
}

type Tx = Parameters<Parameters<Deps["db"]["transaction"]>[0]>[0];

/**
 * Counts one use of the monthly task limit, or refuses it (429) when the limit is reached; admins have
 * none. Every request that starts a decomposition uses one: creating a task, restarting a task's
 * decomposition, resubmitting a rejected plan and adding a task with auto_decompose (each costs model
 * calls; docs/decisions/009-usage-and-subscriptions.md). Call it first in the transaction that queues
 * the work: it locks the user's row, so concurrent requests cannot overrun the limit, and a refusal
 * rolls everything back.
 */
export async function countMonthlyUse(tx: Tx, userId: string, hint = ""): Promise<void> {
  const [user] = await tx.select().from(users).where(eq(users.id, userId)).for("update");
  if (!user) throw new AppError("UNAUTHORIZED", "Not authenticated");
  const period = currentUsagePeriod();
  const used = user.usagePeriod === period ? user.tasksCreatedThisMonth : 0;
  if (user.role !== "admin" && used >= user.monthlyTaskLimit) {
    throw new AppError(
      "TOO_MANY_REQUESTS",
      `You have reached your monthly limit of ${user.monthlyTaskLimit} tasks. It resets on ${monthName(firstOfNextMonth())}.${hint}`,
    );
  }
  await tx
    .update(users)
    .set({ tasksCreatedThisMonth: used + 1, usagePeriod: period })
    .where(eq(users.id, userId));
}

/** Creates a top-level task, counting it against the monthly limit in the same transaction. */
export async function createTask(
  deps: Deps,
  userId: string,
  input: z.output<typeof createTaskInput>,
): Promise<Task> {
  const prefs = input.tech_preferences ?? {};
  const appType = prefs.application_type ? findApplicationType(prefs.application_type) : undefined;
  if (prefs.application_type && !appType) {
    throw new AppError("UNPROCESSABLE_CONTENT", "Unknown application type", {
      fieldErrors: [{ field: "tech_preferences.application_type", message: "Unknown application type" }],
    });
  }
  if (prefs.tech_stack_id && !appType) {
    throw new AppError("UNPROCESSABLE_CONTENT", "Choose an application type before a tech stack", {
      fieldErrors: [
        {
          field: "tech_preferences.tech_stack_id",
          message: "Choose an application type before a tech stack",
        },
      ],
    });
  }
  const stack = prefs.tech_stack_id && appType ? findStack(appType.id, prefs.tech_stack_id) : undefined;
  if (prefs.tech_stack_id && !stack) {
    const message = `The tech stack does not belong to ${appType!.label}`;
    throw new AppError("UNPROCESSABLE_CONTENT", message, {
      fieldErrors: [{ field: "tech_preferences.tech_stack_id", message }],
    });
  }
  const techPreferences = {
    application_type: appType?.id ?? null,
    tech_stack_id: stack?.id ?? null,
    github_repo: prefs.github_repo?.replace(/\/$/, "") || null,
    additional_requirements: prefs.additional_requirements || null,
  };
  const techStack = appType
    ? {
        application_type: appType.id,
        description: stack ? `${stack.name}: ${stack.description}` : appType.description,
        ...(stack
          ? { frontend: stack.frontend_framework, backend: stack.backend_language, database: stack.database }
          : {}),
      }
    : null;

  const row = await deps.db.transaction(async (tx) => {
    await countMonthlyUse(tx, userId);
    const [inserted] = await tx
      .insert(tasks)
      .values({
        userId,
        description: input.description,
        status: "pending",
        options: {
          max_depth: input.max_depth,
          max_subtasks: input.max_subtasks,
          complexity_threshold: input.complexity_threshold,
          use_context: input.use_context,
          requires_approval: input.requires_approval,
          tech_preferences: techPreferences,
        },
        context: techStack ? { tech_stack: techStack, best_practices: [] } : null,
      })
      .returning();
    await deps.runs.start(inserted!.id, tx);
    return inserted!;
  });
  deps.log.info("task created", { taskId: row.id, userId });
  await deps.events.publish({
    type: "task.created",
    userId,
    taskId: row.id,
    rootTaskId: row.id,
    status: row.status,
  });
  return toTask(row, { children: 0, descendants: 0 }, { epics: [], stories: [], eventModel: null });
}

export async function updateTask(
  deps: Deps,
  userId: string,
  id: string,
  input: z.output<typeof updateTaskInput>,
): Promise<Task> {
  const before = await getOwnedRow(deps, userId, id);
  const set: Partial<TaskRow> = { updatedAt: new Date() };
  if (input.description !== undefined) set.description = input.description;
  if (input.is_atomic !== undefined) set.isAtomic = input.is_atomic;
  if (input.implementation_details !== undefined) set.implementationDetails = input.implementation_details;
  if (input.complexity_score !== undefined) set.complexityScore = input.complexity_score;
  if (input.story_points !== undefined) set.storyPoints = input.story_points;
  if (input.acceptance_criteria !== undefined) set.acceptanceCriteria = input.acceptance_criteria;
  if (input.estimate_hours !== undefined) {
    set.estimateLowHours = input.estimate_hours?.low ?? null;
    set.estimatedHours = input.estimate_hours?.likely ?? null;
    set.estimateHighHours = input.estimate_hours?.high ?? null;
  }
  // A person's numbers are theirs: the "estimated by rule" mark no longer applies.
  if (
    input.complexity_score !== undefined ||
    input.story_points !== undefined ||
    input.estimate_hours !== undefined
  )
    set.estimateSource = "person";
  if (input.status !== undefined) {
    set.status = input.status;
    set.completedAt = input.status === "completed" ? new Date() : null;
    if (input.status !== "completed") set.rejectionReason = null;
  }
  // A change to what the plan says (not only progress) is a person's edit: it locks the node against
  // re-plans and is saved as a revision of the plan.
  const edited = Object.keys(input).filter((k) => k !== "status");
  const rootId = before.rootTaskId ?? before.id;
  if (edited.length === 0) {
    await deps.db
      .update(tasks)
      .set(set)
      .where(and(eq(tasks.id, id), eq(tasks.userId, userId)));
  } else {
    set.editedAt = new Date();
    await deps.db.transaction(async (tx) => {
      await beginRevision(tx, rootId);
      await tx
        .update(tasks)
        .set(set)
        .where(and(eq(tasks.id, id), eq(tasks.userId, userId)));
      await recordRevision(tx, {
        rootId,
        taskId: id,
        kind: "edit",
        summary: `Edited ${revisionTitle(input.description ?? before.description)}: ${edited.map((k) => k.replace(/_/g, " ")).join(", ")}`,
      });
    });
  }
  const task = await getTask(deps, userId, id);
  await publishTaskChange(deps, userId, task, before.status);
  if ((before.status === "completed") !== (task.status === "completed")) {
    await publishNewlyReady(deps, userId, task.root_task_id ?? task.id, id, before.status === "completed");
  }
  return task;
}

/**
 * After a task is completed (or reopened), the leaves whose dependencies are now all done, if any: one
 * `task.ready` event for the plan, so every open Plan tab updates its "Next up" list live.
 */
async function publishNewlyReady(
  deps: Deps,
  userId: string,
  rootId: string,
  changed: string,
  wasDone: boolean,
) {
  const [any] = await deps.db
    .select({ id: taskDependencies.taskId })
    .from(taskDependencies)
    .where(eq(taskDependencies.rootTaskId, rootId))
    .limit(1);
  if (!any) return; // without dependencies, completing a task unblocks nothing
  const graph = await loadPlanGraph(deps.db, rootId);
  const i = graph.index.get(changed);
  if (!graph.order || i === undefined) return;
  const after = new Set(readyLeaves(graph));
  const node = graph.nodes[i] as { done: boolean };
  node.done = wasDone;
  const before = new Set(readyLeaves(graph));
  const ready = [...after].filter((j) => !before.has(j)).map((j) => graph.nodes[j]!.id);
  if (ready.length === 0) return;
  await deps.events.publish({
    type: "task.ready",
    userId,
    taskId: changed,
    rootTaskId: rootId,
    data: { ready, ready_count: after.size },
  });
}

async function publishTaskChange(deps: Deps, userId: string, task: Task, previousStatus: string) {
  const base = {
    userId,
    taskId: task.id,
    rootTaskId: task.root_task_id ?? task.id,
    status: task.status,
    isAtomic: task.is_atomic,
  };
  await deps.events.publish({ type: "task.updated", ...base });
  if (task.status !== previousStatus) {
    await deps.events.publish({
      type: "task.status_changed",
      ...base,
      data: { previous_status: previousStatus },
    });
    if (task.status === "completed") await deps.events.publish({ type: "task.completed", ...base });
  }
}

export function completeTask(deps: Deps, userId: string, id: string): Promise<Task> {
  return updateTask(deps, userId, id, { status: "completed" });
}

/** Deletes a task and its whole subtree (and a root's epics, stories and event model) in one transaction. */
export async function deleteTask(deps: Deps, userId: string, id: string): Promise<{ deleted: number }> {
  const row = await getOwnedRow(deps, userId, id);
  const rootId = row.rootTaskId ?? row.id;
  const result = await deps.db.transaction(async (tx) => {
    // Deleting a project stops its decomposition in every process.
    if (!row.parentId) await deps.runs.stop(row.id, tx);
    else await beginRevision(tx, rootId);
    // Foreign keys cascade parent -> children, so one statement removes the subtree atomically.
    const [counted] = resultRows<{ n: number }>(
      await tx.execute(sql`with recursive sub(id) as (
          select id from ${tasks} where id = ${id}
          union all select t.id from ${tasks} t join sub on t.parent_id = sub.id)
        select count(*)::int as n from sub`),
    );
    await tx.delete(tasks).where(and(eq(tasks.id, id), eq(tasks.userId, userId)));
    const n = counted?.n ?? 0;
    if (row.parentId) {
      await recordRevision(tx, {
        rootId,
        taskId: id,
        kind: "remove",
        summary: `Deleted ${revisionTitle(row.description)}${n > 1 ? ` with ${n - 1} subtask${n === 2 ? "" : "s"}` : ""}`,
      });
    }
    return { deleted: counted?.n ?? 0 };
  });
  await deps.events.publish({
    type: "task.deleted",
    userId,
    taskId: id,
    rootTaskId: rootId,
    data: { parent_id: row.parentId, deleted: result.deleted },
  });
  return result;
}

export async function deleteSubtask(deps: Deps, userId: string, id: string): Promise<{ deleted: number }> {
  const row = await getOwnedRow(deps, userId, id);
  if (!row.parentId) {
    throw new AppError(
      "BAD_REQUEST",
      "The root task cannot be deleted as a subtask. Delete the task instead.",
    );
  }
  return deleteTask(deps, userId, id);
}

/**
 * Drops what a decomposition produced below a task and runs it again (stopping any run in progress).
 * On a subtask, only its own subtree is redone. Uses one of the monthly allowance, like a new task.
 */
export async function restartDecomposition(deps: Deps, userId: string, id: string): Promise<Task> {
  const row = await getOwnedRow(deps, userId, id);
  const rootId = row.rootTaskId ?? row.id;
  await deps.db.transaction(async (tx) => {
    await countMonthlyUse(tx, userId);
    // A project's run stops first, so no split of it commits between the delete and the restart.
    if (!row.parentId) await deps.runs.stop(id, tx);
    await tx.delete(tasks).where(and(eq(tasks.parentId, id), eq(tasks.userId, userId)));
    if (!row.parentId) {
      await tx.delete(epics).where(eq(epics.rootTaskId, id));
      await tx.delete(userStories).where(eq(userStories.rootTaskId, id));
      await tx.delete(eventModels).where(eq(eventModels.rootTaskId, id));
      const { approved_at: _dropped, ...options } = row.options ?? {};
      await tx
        .update(tasks)
        .set({
          status: "pending",
          rejectionReason: null,
          failureReason: null,
          isAtomic: false,
          completedAt: null,
          complexityScore: null,
          storyPoints: null,
          implementationDetails: null,
          predictions: null,
          warnings: [],
          options,
          updatedAt: new Date(),
        })
        .where(eq(tasks.id, id));
      await deps.runs.start(id, tx);
    } else {
      await tx
        .update(tasks)
        .set({
          isAtomic: false,
          completedAt: null,
          needsAttention: false,
          attentionReason: null,
          updatedAt: new Date(),
        })
        .where(eq(tasks.id, id));
      // Flags in the dropped subtree went with it: the root's warning counts what is left.
      await refreshAttentionWarning(tx, rootId);
      await deps.runs.startNode(rootId, id, tx);
    }
  });
  const task = await getTask(deps, userId, id);
  await deps.events.publish({
    type: "task.updated",
    userId,
    taskId: id,
    rootTaskId: rootId,
    status: task.status,
    message: "Decomposition restarted",
  });
  return task;
}

export async function updateEventModel(
  deps: Deps,
  userId: string,
  id: string,
  input: z.output<typeof updateEventModelInput>,
) {
  const row = await getOwnedRow(deps, userId, id);
  const rootId = row.rootTaskId ?? row.id;
  // user_edited_at marks the model as a person's: a decomposition finishing later keeps it.
  const now = new Date();
  const [saved] = await deps.db
    .insert(eventModels)
    .values({ rootTaskId: rootId, markdown: input.event_model_markdown, userEditedAt: now })
    .onConflictDoUpdate({
      target: eventModels.rootTaskId,
      set: { markdown: input.event_model_markdown, userEditedAt: now, updatedAt: now },
    })
    .returning();
  return toMetadata(saved ?? null)!;
}

/**
 * Adds a task before or after a sibling, or as a child, keeping sibling order. With auto_decompose
 * (the default) the new task is decomposed, which uses one of the monthly allowance.
 */
export async function addTask(
  deps: Deps,
  userId: string,
  targetId: string,
  input: z.output<typeof addTaskInput>,
): Promise<Task> {
  if (input.target_task_id !== undefined && input.target_task_id !== targetId) {
    throw new AppError("UNPROCESSABLE_CONTENT", "target_task_id does not match the task in the URL", {
      fieldErrors: [
        { field: "target_task_id", message: "target_task_id does not match the task in the URL" },
      ],
    });
  }
  const target = await getOwnedRow(deps, userId, targetId);
  if (input.position !== "child" && !target.parentId) {
    throw new AppError("BAD_REQUEST", "The root task has no siblings: add the new task as a child instead.");
  }
  const parentId = input.position === "child" ? target.id : target.parentId!;
  const depth = input.position === "child" ? target.depth + 1 : target.depth;
  const rootId = target.rootTaskId ?? target.id;

  const row = await deps.db.transaction(async (tx) => {
    // Decomposing the new task costs model calls: it uses one of the monthly allowance.
    if (input.auto_decompose) {
      await countMonthlyUse(tx, userId, " You can still add the task without automatic decomposition.");
    }
    await beginRevision(tx, rootId);
    const siblings = await lockChildren(tx, parentId);
    let position: number;
    if (input.position === "child") {
      position = (siblings.at(-1)?.position ?? 0) + 1;
    } else {
      const i = siblings.findIndex((s) => s.id === target.id);
      const neighbour = input.position === "before" ? siblings[i - 1] : siblings[i + 1];
      const here = target.position;
      position = neighbour
        ? (here + neighbour.position) / 2
        : input.position === "before"
          ? here - 1
          : here + 1;
    }
    const [inserted] = await tx
      .insert(tasks)
      .values({
        userId,
        parentId,
        rootTaskId: rootId,
        depth,
        position,
        description: input.description,
        status: "pending",
        options: { auto_decompose: input.auto_decompose },
        editedAt: new Date(),
      })
      .returning();
    await tx.update(tasks).set({ isAtomic: false, updatedAt: new Date() }).where(eq(tasks.id, parentId));
    await recordRevision(tx, {
      rootId,
      taskId: inserted!.id,
      kind: "add",
      summary: `Added ${revisionTitle(input.description)}`,
    });
    if (input.auto_decompose) await deps.runs.startNode(rootId, inserted!.id, tx);
    return inserted!;
  });
  await deps.events.publish({
    type: "task.created",
    userId,
    taskId: row.id,
    rootTaskId: rootId,
    status: row.status,
    data: { parent_id: parentId },
  });
  return toTask(row, { children: 0, descendants: 0 });
}
