import type { TaskTreeNode } from "../../../../shared/schemas/tasks";

/** One visible row of the hierarchy: a node whose ancestors are all expanded. */
export type TreeRow = {
  node: TaskTreeNode;
  /** 1 for the root (aria-level). */
  level: number;
  hasChildren: boolean;
  expanded: boolean;
  /** aria-posinset / aria-setsize among its siblings. */
  posInSet: number;
  setSize: number;
  parentId: string | null;
};

/**
 * The rows to render: a depth-first walk that descends only into expanded nodes, so a collapsed
 * 3,000-node tree costs as much as its visible rows. Iterative, so deep trees cannot overflow the stack.
 */
export function flattenVisible(root: TaskTreeNode, expanded: ReadonlySet<string>): TreeRow[] {
  const rows: TreeRow[] = [];
  const stack: [TaskTreeNode, number, number, number, string | null][] = [[root, 1, 1, 1, null]];
  while (stack.length > 0) {
    const [node, level, posInSet, setSize, parentId] = stack.pop()!;
    const hasChildren = node.children.length > 0;
    const isExpanded = hasChildren && expanded.has(node.id);
    rows.push({ node, level, hasChildren, expanded: isExpanded, posInSet, setSize, parentId });
    if (isExpanded) {
      const n = node.children.length;
      for (let i = n - 1; i >= 0; i--) stack.push([node.children[i]!, level + 1, i + 1, n, node.id]);
    }
  }
  return rows;
}

/** Visits every node, parents before children, without recursion. */
export function walkTree(
  root: TaskTreeNode,
  visit: (node: TaskTreeNode, parent: TaskTreeNode | null) => void,
) {
  const stack: [TaskTreeNode, TaskTreeNode | null][] = [[root, null]];
  while (stack.length > 0) {
    const [node, parent] = stack.pop()!;
    visit(node, parent);
    for (let i = node.children.length - 1; i >= 0; i--) stack.push([node.children[i]!, node]);
  }
}

/** Ids of every node that has children (what "Expand All" opens). */
export function expandableIds(root: TaskTreeNode): Set<string> {
  const ids = new Set<string>();
  walkTree(root, (node) => {
    if (node.children.length > 0) ids.add(node.id);
  });
  return ids;
}

export type TreeIndexEntry = { node: TaskTreeNode; parent: TaskTreeNode | null };

export function indexTree(root: TaskTreeNode): Map<string, TreeIndexEntry> {
  const index = new Map<string, TreeIndexEntry>();
  walkTree(root, (node, parent) => index.set(node.id, { node, parent }));
  return index;
}

export type TreeSummary = {
  /** Every node, the root included. */
  total: number;
  completed: number;
  /** Leaves done: the work's progress (a parent's status is its plan's, "completed" once it is split). */
  leavesDone: number;
  /** The work items (leaves) by status: a group's own status says only that it was split. */
  byStatus: Record<string, number>;
  atomic: number;
  /** Story points of the leaves (the work items), so parents' estimates are not counted twice. */
  storyPoints: number;
  leaves: number;
};

export function summarizeTree(root: TaskTreeNode): TreeSummary {
  const summary: TreeSummary = {
    total: 0,
    completed: 0,
    leavesDone: 0,
    byStatus: {},
    atomic: 0,
    storyPoints: 0,
    leaves: 0,
  };
  walkTree(root, (node) => {
    summary.total++;
    if (node.status === "completed") summary.completed++;
    if (node.is_atomic) summary.atomic++;
    if (node.children.length === 0) {
      summary.leaves++;
      summary.byStatus[node.status] = (summary.byStatus[node.status] ?? 0) + 1;
      if (node.status === "completed") summary.leavesDone++;
      summary.storyPoints += node.story_points ?? 0;
    }
  });
  return summary;
}

/** "7/10"; scores may be fractional, shown with at most one decimal. */
export function formatComplexity(score: number): string {
  return `${Math.round(score * 10) / 10}/10`;
}

/**
 * Where a dragged task goes for POST /tasks/{id}/move: under the target (last), or before or after it
 * among the target's siblings (the place counted without the dragged task, as the server counts it).
 * Null when the drop changes nothing or is not a move (onto itself, the root's siblings).
 */
export function dropPlacement(
  index: ReadonlyMap<string, TreeIndexEntry>,
  dragged: string,
  target: string,
  where: "before" | "inside" | "after",
): { parent_id: string; position: number } | null {
  const t = index.get(target);
  if (!t || dragged === target) return null;
  if (where === "inside") {
    const others = t.node.children.filter((c) => c.id !== dragged);
    return { parent_id: target, position: others.length };
  }
  if (!t.parent) return null;
  const siblings = t.parent.children.map((c) => c.id).filter((id) => id !== dragged);
  const i = siblings.indexOf(target);
  const position = where === "before" ? i : i + 1;
  const current = t.parent.children.map((c) => c.id).indexOf(dragged);
  if (current !== -1 && current === position) return null; // dropped where it already is
  return { parent_id: t.parent.id, position };
}
