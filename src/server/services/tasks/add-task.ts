import { eq } from "drizzle-orm";
import type { z } from "zod";
import type { addTaskInput, Task } from "../../../shared/schemas/tasks";
import { tasks } from "../../db/schema";
import type { Deps } from "../../deps";
import { queueNodeSplit } from "../../engine/jobs";
import { AppError } from "../../errors";
import { lockChildren } from "../../plan/locks";
import { getOwnedRow } from "../../plan/owned";
import { beginRevision, recordRevision, revisionTitle } from "../../plan/revisions";
import { assertPlanRoom } from "../../plan/size";
import { countMonthlyUse, monthlyUseApplies } from "./allowance";
import { toTask } from "./serialize";

/** Changing a plan's shape: deleting, restarting a decomposition, the event model, adding a task. */

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
