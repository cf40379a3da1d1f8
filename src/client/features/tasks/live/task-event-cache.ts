import type { RealtimeEvent } from "../../../../shared/schemas/realtime";
import type { Task, TaskStatus, TaskTreeNode } from "../../../../shared/schemas/tasks";

type Patch = Partial<Pick<Task, "status" | "is_atomic" | "needs_attention" | "attention_reason">>;

/** A task.* event carries the task's new status and is_atomic (and a flagged subtask its reason). */
export function patchOf(event: RealtimeEvent): Patch | null {
  if (!event.type.startsWith("task.") || event.type === "task.deleted") return null;
  const patch: Patch = {};
  if (typeof event.status === "string") patch.status = event.status as TaskStatus;
  if (typeof event.is_atomic === "boolean") patch.is_atomic = event.is_atomic;
  if (event.type === "task.updated" && event.data.needs_attention !== undefined) {
    patch.needs_attention = event.data.needs_attention;
    patch.attention_reason = event.data.attention_reason ?? null;
  }
  return Object.keys(patch).length > 0 ? patch : null;
}

export function patchTask<T extends Task>(task: T | undefined, id: string, patch: Patch): T | undefined {
  if (!task || task.id !== id) return task;
  return { ...task, ...patch };
}

/** The same tree with node `id` patched; the very same object when the node is not in it. */
export function patchTree(
  tree: TaskTreeNode | undefined,
  id: string,
  patch: Patch,
): TaskTreeNode | undefined {
  if (!tree) return tree;
  const visit = (node: TaskTreeNode): TaskTreeNode => {
    if (node.id === id) return { ...node, ...patch };
    let changed = false;
    const children = node.children.map((child) => {
      const next = visit(child);
      if (next !== child) changed = true;
      return next;
    });
    return changed ? { ...node, children } : node;
  };
  return visit(tree);
}
