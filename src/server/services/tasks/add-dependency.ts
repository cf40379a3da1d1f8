import { eq } from "drizzle-orm";
import type { z } from "zod";
import { UUID_PATTERN } from "../../../shared/ids";
import type { addDependencyInput, TaskDependencies } from "../../../shared/schemas/schedule";
import { taskTitle } from "../../../shared/task-title";
import { taskDependencies, tasks } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { dependenciesOf } from "../../plan/order";
import { getOwnedRow, taskNotFound } from "../../plan/owned";
import { beginRevision, recordRevision } from "../../plan/revisions";
import { loadPlanStructure } from "../../plan/rows";
import { publishOrderChange, TITLE_IN_MESSAGE, titlesOf } from "./dependencies";

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
  if (!UUID_PATTERN.test(input.depends_on)) throw taskNotFound();
  const result = await deps.db.transaction(async (tx) => {
    await beginRevision(tx, rootId);
    const [other] = await tx
      .select({ id: tasks.id, rootTaskId: tasks.rootTaskId, description: tasks.description })
      .from(tasks)
      .where(eq(tasks.id, input.depends_on))
      .limit(1);
    if (!other || (other.rootTaskId ?? other.id) !== rootId) throw taskNotFound();
    if (other.id === task.id) throw unprocessable("A task cannot depend on itself.");
    const graph = await loadPlanStructure(tx, rootId);
    const a = graph.index.get(task.id);
    const b = graph.index.get(other.id);
    if (a === undefined || b === undefined) throw taskNotFound();
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

function unprocessable(message: string) {
  return new AppError("UNPROCESSABLE_CONTENT", message, { fieldErrors: [{ field: "depends_on", message }] });
}
