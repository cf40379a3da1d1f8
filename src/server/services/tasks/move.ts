import { and, asc, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import { UUID_PATTERN } from "../../../shared/ids";
import type { moveTaskInput } from "../../../shared/schemas/schedule";
import { tasks } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { PlanGraph } from "../../plan/graph";
import { getOwnedRow, taskNotFound } from "../../plan/owned";
import { beginRevision, recordRevision, revisionTitle } from "../../plan/revisions";
import { loadPlanStructure } from "../../plan/rows";
import { titlesOf } from "./dependencies";

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
  if (!UUID_PATTERN.test(input.parent_id)) throw taskNotFound();
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
    if (!parent || (parent.rootTaskId ?? parent.id) !== rootId) throw taskNotFound();
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
