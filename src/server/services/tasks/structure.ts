import { eq, sql } from "drizzle-orm";
import type { z } from "zod";
import type { addTaskInput, Task, updateEventModelInput } from "../../../shared/schemas/tasks";
import { resultRows } from "../../db/client";
import { epics, eventModels, tasks, userStories } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { queueNodeSplit, queuePlan, stopPlan } from "../../engine/jobs";
import { AppError } from "../../errors";
import { refreshAttentionWarning } from "../../plan/attention";
import { lockChildren } from "../../plan/locks";
import { getOwnedRow } from "../../plan/owned";
import { beginRevision, recordRevision, revisionTitle } from "../../plan/revisions";
import { assertPlanRoom } from "../../plan/size";
import { countMonthlyUse, monthlyUseApplies } from "./allowance";
import { getTask } from "./read";
import { toMetadata, toTask } from "./serialize";

/** Changing a plan's shape: deleting, restarting a decomposition, the event model, adding a task. */

/** Deletes a task and its whole subtree (and a root's epics, stories and event model) in one transaction. */
export async function deleteTask(deps: Deps, userId: string, id: string): Promise<{ deleted: number }> {
  const row = await getOwnedRow(deps, userId, id);
  const rootId = row.rootTaskId ?? row.id;
  // Deleting a plan while its last split commits can meet that split's job bookkeeping in PostgreSQL's
  // deadlock detector, which aborts one of the two and asks for it to be tried again: so it is.
  const result = await retryOnDeadlock(() =>
    deps.db.transaction(async (tx) => {
      // Deleting a project stops its decomposition in every process.
      if (!row.parentId) await stopPlan(deps.jobs, row.id, tx);
      else await beginRevision(tx, rootId);
      // Foreign keys cascade parent -> children, so one statement removes the subtree atomically.
      const [counted] = resultRows<{ n: number }>(
        await tx.execute(sql`with recursive sub(id) as (
          select id from ${tasks} where id = ${id}
          union all select t.id from ${tasks} t join sub on t.parent_id = sub.id)
        select count(*)::int as n from sub`),
      );
      await tx.delete(tasks).where(eq(tasks.id, id));
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
    }),
  );
  await deps.events.publish({
    type: "task.deleted",
    userId,
    taskId: id,
    rootTaskId: rootId,
    // The plan may be gone, and its team with it from the event's trigger: its members' dashboards hear of it.
    ...(row.teamId ? { teamId: row.teamId } : {}),
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
  const root = row.rootTaskId ? await getOwnedRow(deps, userId, row.rootTaskId) : row;
  if (root.status === "awaiting_review") {
    // Nothing was planned yet: the project starts when its owner plans it from the checked reading.
    throw new AppError(
      "CONFLICT",
      "This project has not been planned yet: check its reading and plan it (POST /api/tasks/{id}/plan).",
    );
  }
  const rootId = row.rootTaskId ?? row.id;
  const applies = await monthlyUseApplies(deps, userId);
  await deps.db.transaction(async (tx) => {
    await countMonthlyUse(tx, userId, { applies, allPlanning: deps.config.MONTHLY_LIMIT_ALL_PLANNING });
    // A project's run stops first, so no split of it commits between the delete and the restart.
    if (!row.parentId) await stopPlan(deps.jobs, id, tx);
    await tx.delete(tasks).where(eq(tasks.parentId, id));
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
      await queuePlan(deps.jobs, id, tx);
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
      await queueNodeSplit(deps.jobs, rootId, id, tx);
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

  const applies = input.auto_decompose ? await monthlyUseApplies(deps, userId) : false;
  const row = await deps.db.transaction(async (tx) => {
    // Decomposing the new task with a model costs model calls: it uses one of the monthly allowance.
    await countMonthlyUse(tx, userId, {
      applies,
      allPlanning: deps.config.MONTHLY_LIMIT_ALL_PLANNING,
      hint: " You can still add the task without automatic decomposition.",
    });
    await beginRevision(tx, rootId);
    await assertPlanRoom(tx, rootId, 1, deps.config.PLAN_MAX_NODES);
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
    if (input.auto_decompose) await queueNodeSplit(deps.jobs, rootId, inserted!.id, tx);
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

/** Runs a transaction again (up to three times) when PostgreSQL aborted it to break a deadlock. */
async function retryOnDeadlock<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      const code =
        (err as { code?: unknown; cause?: { code?: unknown } }).code ??
        (err as { cause?: { code?: unknown } }).cause?.code;
      if ((code !== "40P01" && code !== "40001") || attempt >= 3) throw err;
    }
  }
}
