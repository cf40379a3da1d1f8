import { expect } from "vitest";
import { flatten, type TreeNode } from "./decomposition";

/** A finished tree has no duplicates: children per node within the cap, distinct positions, every non-atomic node split. */
export function expectCleanTree(tree: TreeNode, opts: { maxSubtasks: number; maxDepth: number }) {
  const nodes = flatten(tree);
  const ids = new Set(nodes.map((n) => n.id));
  expect(ids.size).toBe(nodes.length);
  for (const n of nodes) {
    expect(n.children.length).toBeLessThanOrEqual(opts.maxSubtasks);
    const positions = n.children.map((c) => c.position);
    expect(new Set(positions).size).toBe(positions.length);
    if (n.depth > 0 && !n.is_atomic) expect(n.children.length).toBeGreaterThan(0);
    expect(n.depth).toBeLessThanOrEqual(opts.maxDepth);
  }
  return nodes;
}
