import { eq, or } from "drizzle-orm";
import type { z } from "zod";
import { defaultActualHours } from "../../../shared/actuals";
import type { Task, updateTaskInput } from "../../../shared/schemas/tasks";
import { taskClaims, taskDependencies, tasks } from "../../db/schema";
import type { Deps } from "../../deps";
import { readingToCheck } from "../../engine/brief";
import { AppError } from "../../errors";
import { quoted, recordActivity } from "../../plan/activity";
import { type PlanGraph, readyLeaves } from "../../plan/graph";
import { getOwnedRow } from "../../plan/owned";
import { beginRevision, recordRevision, revisionTitle } from "../../plan/revisions";
import type { TaskRow } from "../../plan/rows";
import { hasChildren, loadPlanGraph } from "../../plan/rows";
import { roleIn, teamSettings } from "../teams/teams";
import { getTask } from "./get-task";

/** Creating and changing tasks, and telling the watchers what changed and what became ready. */

/**
 * `known.graph`: the plan's graph as read just before this change, when the caller has it (MCP's status
 * change): what became ready is told from it, with this task's done mark moved, instead of a new read.
 */
export async function updateTask(
  deps: Deps,
  userId: string,
  id: string,
  input: z.output<typeof updateTaskInput>,
  known: { graph?: PlanGraph } = {},
): Promise<Task> {
  const { team_id: teamChange, requires_approval: approval, ...rest } = input;
  if (approval !== undefined) {
    await setRequiresApproval(deps, userId, id, approval);
    if (Object.keys(rest).length === 0 && teamChange === undefined) return getTask(deps, userId, id);
  }
  if (teamChange !== undefined) {
    const creator = await moveToTeam(deps, userId, id, teamChange);
    // Read as its creator: an admin who took it out of the team no longer sees it, yet did it.
    if (Object.keys(rest).length === 0) return getTask(deps, creator, id);
  }
  return updateTaskFields(deps, userId, id, rest, known);
}

async function updateTaskFields(
  deps: Deps,
  userId: string,
  id: string,
  input: Omit<z.output<typeof updateTaskInput>, "team_id">,
  known: { graph?: PlanGraph },
): Promise<Task> {
  const before = await getOwnedRow(deps, userId, id);
  const set: Partial<TaskRow> = { updatedAt: new Date() };
  const unplanned = before.parentId === null && before.status === "awaiting_review";
  if (unplanned && input.status !== undefined) {
    throw new AppError(
      "CONFLICT",
      "This project is not planned yet: check its reading and plan it before changing its status.",
    );
  }
  if (input.description !== undefined) set.description = input.description;
  // A new description waiting for its check is read again: the check is of what it now says.
  if (unplanned && input.description !== undefined)
    set.reading = readingToCheck({ description: input.description, options: before.options });
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
    if (input.status !== "completed") set.rejectionReason = null;
  }
  Object.assign(set, await actualsOf(deps, before, input));
  // A change to what the plan says (not only progress) is a person's edit: it locks the node against
  // re-plans and is saved as a revision of the plan. Status and actual hours are progress.
  const edited = Object.keys(input).filter((k) => k !== "status" && k !== "actual_hours");
  const rootId = before.rootTaskId ?? before.id;
  const progress = progressActivity(before, input).map((summary) => ({
    rootId,
    taskId: id,
    kind: "status" as const,
    summary,
  }));
  if (edited.length === 0) {
    await deps.db.transaction(async (tx) => {
      await tx.update(tasks).set(set).where(eq(tasks.id, id));
      await recordActivity(tx, progress);
    });
  } else {
    set.editedAt = new Date();
    await deps.db.transaction(async (tx) => {
      await beginRevision(tx, rootId);
      await tx.update(tasks).set(set).where(eq(tasks.id, id));
      await recordRevision(tx, {
        rootId,
        taskId: id,
        kind: "edit",
        summary: `Edited ${revisionTitle(input.description ?? before.description)}: ${edited.map((k) => k.replace(/_/g, " ")).join(", ")}`,
      });
      await recordActivity(tx, progress);
    });
  }
  // Done work is nobody's to hold any more (issue 41).
  if (set.completedAt && before.status !== "completed") {
    await deps.db.delete(taskClaims).where(eq(taskClaims.taskId, id));
  }
  const task = await getTask(deps, userId, id);
  await publishTaskChange(deps, userId, task, before.status);
  if ((before.status === "completed") !== (task.status === "completed")) {
    const i = known.graph?.index.get(id);
    if (known.graph && i !== undefined) {
      (known.graph.nodes[i] as { done: boolean }).done = task.status === "completed";
    }
    await publishNewlyReady(deps, userId, task.root_task_id ?? task.id, id, before.status === "completed", {
      graph: i === undefined ? undefined : known.graph,
    });
  }
  return task;
}

/** What a change of progress (status, hours worked) did, as the plan's activity says it. */
function progressActivity(before: TaskRow, input: z.output<typeof updateTaskInput>): string[] {
  const said: string[] = [];
  const title = quoted(before.description);
  if (input.status !== undefined && input.status !== before.status) {
    if (input.status === "completed") said.push(`marked ${title} done`);
    else if (input.status === "in_progress") said.push(`started ${title}`);
    else if (before.status === "completed") said.push(`reopened ${title}`);
    else said.push(`set ${title} to ${input.status.replace(/_/g, " ")}`);
  }
  if (input.actual_hours !== undefined && input.actual_hours !== before.actualHours) {
    said.push(
      input.actual_hours === null
        ? `cleared the hours worked on ${title}`
        : `entered ${input.actual_hours} h worked on ${title}`,
    );
  }
  return said;
}

/**
 * What a status change or entered hours do to a task's actuals (issue 33; shared/actuals.ts): its first
 * move to in progress starts its working time; completing it stamps the finish and, unless a person
 * entered its hours, takes the working time since the start; reopening it clears the finish and the
 * working time (entered hours stay). Hours are entered on leaves only.
 */
async function actualsOf(
  deps: Deps,
  before: TaskRow,
  input: z.output<typeof updateTaskInput>,
): Promise<Partial<TaskRow>> {
  const set: Partial<TaskRow> = {};
  const now = new Date();
  if (input.actual_hours !== undefined && (await hasChildren(deps.db, before.id))) {
    const message = "Actual hours are recorded on tasks without subtasks: a parent's come from its subtasks.";
    throw new AppError("UNPROCESSABLE_CONTENT", message, {
      fieldErrors: [{ field: "actual_hours", message }],
    });
  }
  const status = input.status ?? before.status;
  const completing = input.status === "completed" && before.status !== "completed";
  if (input.status === "in_progress" && !before.startedAt) set.startedAt = now;
  if (input.status !== undefined && input.status !== "completed") {
    set.completedAt = null;
    if (before.actualSource === "working_time") {
      set.actualHours = null;
      set.actualSource = null;
    }
  }
  if (completing) {
    set.completedAt = now;
    if (before.actualSource !== "person") {
      const measured = defaultActualHours(before.startedAt, now, before.estimateHighHours);
      set.actualHours = measured;
      set.actualSource = measured === null ? null : "working_time";
    }
  } else if (input.status === "completed") {
    // Completed again: the finish it had stands.
    set.completedAt = before.completedAt ?? now;
  }
  if (input.actual_hours !== undefined) {
    set.actualHours = input.actual_hours;
    set.actualSource = input.actual_hours === null ? null : "person";
    // Hours entered on work that never started still say when it was done, not when it began.
    if (input.actual_hours !== null && status === "completed" && !before.completedAt && !completing) {
      set.completedAt = now;
    }
  }
  return set;
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
  known: { graph?: PlanGraph },
) {
  let graph = known.graph;
  if (!graph) {
    const [any] = await deps.db
      .select({ id: taskDependencies.taskId })
      .from(taskDependencies)
      .where(eq(taskDependencies.rootTaskId, rootId))
      .limit(1);
    if (!any) return; // without dependencies, completing a task unblocks nothing
    graph = await loadPlanGraph(deps.db, rootId);
  }
  if (graph.edges.length === 0) return;
  const i = graph.index.get(changed);
  if (!graph.order || i === undefined) return;
  const after = new Set(readyLeaves(graph));
  const node = graph.nodes[i] as { done: boolean };
  const isDone = node.done;
  node.done = wasDone;
  const before = new Set(readyLeaves(graph));
  node.done = isDone;
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

export async function publishTaskChange(deps: Deps, userId: string, task: Task, previousStatus: string) {
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

/**
 * Moves a project into a team, or out of one (null), with every node of it (issue 41). Its creator moves
 * it, and must be an owner or admin of the team it goes into; an owner or admin of its team may also move
 * it out. Not an edit of the plan: no revision, no lock.
 */
async function moveToTeam(deps: Deps, userId: string, id: string, teamId: string | null): Promise<string> {
  const row = await getOwnedRow(deps, userId, id);
  if (row.parentId !== null)
    throw new AppError("UNPROCESSABLE_CONTENT", "Only a project moves into a team, with all its tasks.", {
      fieldErrors: [{ field: "team_id", message: "Only a project moves into a team, with all its tasks." }],
    });
  if (row.teamId === teamId) return row.userId;
  if (teamId !== null) {
    const role = await roleIn(deps, userId, teamId);
    if (row.userId !== userId || (role !== "owner" && role !== "admin"))
      throw new AppError(
        "FORBIDDEN",
        "A project moves into a team by its creator, who must be an owner or admin of that team.",
      );
  } else {
    const role = row.teamId ? await roleIn(deps, userId, row.teamId).catch(() => null) : null;
    if (row.userId !== userId && role !== "owner" && role !== "admin")
      throw new AppError(
        "FORBIDDEN",
        "A project leaves its team by its creator, or an owner or admin of the team.",
      );
  }
  const teamName = teamId ? ((await teamSettings(deps.db, teamId))?.name ?? null) : null;
  await deps.db.transaction(async (tx) => {
    await tx
      .update(tasks)
      .set({ teamId })
      .where(or(eq(tasks.id, row.id), eq(tasks.rootTaskId, row.id)));
    await recordActivity(tx, {
      rootId: row.id,
      taskId: row.id,
      kind: "team",
      summary: teamName
        ? `moved the project into the team ${quoted(teamName)}`
        : "took the project out of its team",
    });
  });
  await deps.events.publish({
    type: "task.updated",
    userId,
    taskId: row.id,
    rootTaskId: row.id,
    message: teamId ? "Moved into a team" : "Moved out of its team",
  });
  return row.userId;
}

/**
 * Turns the plan's approval on or off (issue 41): its creator, or an owner or admin of its team. A
 * setting of the plan, not an edit of it: no revision.
 */
async function setRequiresApproval(deps: Deps, userId: string, id: string, on: boolean) {
  const row = await getOwnedRow(deps, userId, id);
  if (row.parentId !== null) {
    const message = "Approval is a project's: set it on the project.";
    throw new AppError("UNPROCESSABLE_CONTENT", message, {
      fieldErrors: [{ field: "requires_approval", message }],
    });
  }
  if (row.userId !== userId) {
    const role = row.teamId ? await roleIn(deps, userId, row.teamId) : null;
    if (role !== "owner" && role !== "admin")
      throw new AppError(
        "FORBIDDEN",
        "A plan's approval is set by its creator, or an owner or admin of its team.",
      );
  }
  if (!on && row.teamId && (await teamSettings(deps.db, row.teamId))?.requiresApproval)
    throw new AppError(
      "CONFLICT",
      "This plan's team has every plan approved before export: an owner or admin turns that off in the team's settings.",
    );
  await deps.db.transaction(async (tx) => {
    await tx
      .update(tasks)
      .set({ options: { ...(row.options ?? {}), requires_approval: on } as NonNullable<TaskRow["options"]> })
      .where(eq(tasks.id, row.id));
    await recordActivity(tx, {
      rootId: row.id,
      taskId: row.id,
      kind: "review",
      summary: on
        ? "made the plan need an approval before export"
        : "let the plan go out without an approval",
    });
  });
  await deps.events.publish({
    type: "task.updated",
    userId,
    taskId: row.id,
    rootTaskId: row.id,
    message: on ? "The plan now needs an approval" : "The plan no longer needs an approval",
  });
}
