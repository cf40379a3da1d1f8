import type { TaskDependencies } from "../../../shared/schemas/schedule";
import type { Deps } from "../../deps";
import { dependenciesOf } from "../../plan/order";
import { getOwnedRow } from "../../plan/owned";

/** The caller's task's dependencies, both ways (404 when the task is not theirs). */
export async function getDependencies(deps: Deps, userId: string, id: string): Promise<TaskDependencies> {
  const task = await getOwnedRow(deps, userId, id);
  return dependenciesOf(deps.db, task.id);
}
