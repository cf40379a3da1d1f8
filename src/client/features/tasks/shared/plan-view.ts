import type { TaskTreeNode } from "../../../../shared/schemas/tasks";
import { taskTitle } from "../../../../shared/task-title";
import type { TreeIndexEntry } from "./task-tree";

/** Titles in the Plan tab and the dependency lists. */
export const PLAN_TITLE_MAX = 90;
/** How many matches the "Blocked by" search offers at once. */
export const CANDIDATES_SHOWN = 8;

export const titleOf = (node: Pick<TaskTreeNode, "description">) =>
  taskTitle(node.description, PLAN_TITLE_MAX);

/**
 * The calendar date `workingDays` working days (Monday to Friday) after `from`: a part of a day counts as
 * a whole one, and a day that starts on a weekend starts on the Monday after.
 */
export function finishDate(from: Date, workingDays: number): Date {
  const date = new Date(from);
  let left = Math.ceil(Math.max(0, workingDays));
  while (left > 0) {
    date.setDate(date.getDate() + 1);
    const day = date.getDay();
    if (day !== 0 && day !== 6) left--;
  }
  return date;
}

/** Every node above `id`, nearest first. */
function ancestorsOf(index: ReadonlyMap<string, TreeIndexEntry>, id: string): Set<string> {
  const out = new Set<string>();
  for (let p = index.get(id)?.parent; p; p = index.get(p.id)?.parent ?? null) out.add(p.id);
  return out;
}

/** The ids of `node`'s subtree, itself included. */
function subtreeIds(node: TaskTreeNode): Set<string> {
  const out = new Set<string>();
  const stack = [node];
  while (stack.length) {
    const n = stack.pop()!;
    out.add(n.id);
    stack.push(...n.children);
  }
  return out;
}

/**
 * The tasks `node` could be made to wait for, matching `query` in their title: not itself, its ancestors
 * or its subtasks (the server refuses those), nor what it already waits for. Cycles are the server's to
 * find (it names them).
 */
export function dependencyCandidates(
  index: ReadonlyMap<string, TreeIndexEntry>,
  node: TaskTreeNode,
  query: string,
  limit = CANDIDATES_SHOWN,
): TaskTreeNode[] {
  const q = query.trim().toLowerCase();
  if (!q) return [];
  const excluded = new Set([...ancestorsOf(index, node.id), ...subtreeIds(node), ...node.depends_on]);
  const out: TaskTreeNode[] = [];
  for (const { node: other } of index.values()) {
    if (excluded.has(other.id)) continue;
    if (!titleOf(other).toLowerCase().includes(q)) continue;
    out.push(other);
    if (out.length >= limit) break;
  }
  return out;
}

/** The tasks that wait for `id`. */
export function blockedTasks(index: ReadonlyMap<string, TreeIndexEntry>, id: string): TaskTreeNode[] {
  const out: TaskTreeNode[] = [];
  for (const { node } of index.values()) if (node.depends_on.includes(id)) out.push(node);
  return out;
}

export { formatRange } from "../../../../shared/estimate-text";
