import type { Task } from "../../../shared/schemas/tasks";
import type { Deps } from "../../deps";
import { updateTask } from "./update-task";

export function completeTask(deps: Deps, userId: string, id: string): Promise<Task> {
  return updateTask(deps, userId, id, { status: "completed" });
}
