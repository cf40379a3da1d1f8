import { inArray } from "drizzle-orm";
import { taskTitle } from "../../../shared/task-title";
import type { DbOrTx } from "../../db/client";
import { tasks } from "../../db/schema/index";
import type { Deps } from "../../deps";
import type { PlanGraph } from "../../plan/graph";

export const TITLE_IN_MESSAGE = 60;

/**
 * The titles of some of a plan's tasks, read when a message names them: the checks run on the plan's
 * shape alone (loadPlanStructure), without every task's text (issue 32).
 */
export async function titlesOf(db: DbOrTx, graph: PlanGraph, indices: number[]): Promise<string[]> {
  const ids = indices.map((i) => graph.nodes[i]!.id);
  const rows = await db
    .select({ id: tasks.id, description: tasks.description })
    .from(tasks)
    .where(inArray(tasks.id, ids));
  const byId = new Map(rows.map((r) => [r.id, r.description]));
  return ids.map((id) => taskTitle(byId.get(id) ?? "a task", TITLE_IN_MESSAGE));
}

export async function publishOrderChange(
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
