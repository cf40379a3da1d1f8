import { describe, expect, it } from "vitest";
import type { TaskTreeNode } from "../../../../shared/schemas/tasks";
import { indexTree } from "../shared/task-tree";
import { moveTargets } from "./move-section";

const node = (id: string, children: TaskTreeNode[] = []) =>
  ({ id, description: id, children, depends_on: [] }) as unknown as TaskTreeNode;

describe("moveTargets", () => {
  it("offers every node outside the moved node's own subtree, with its depth", () => {
    const tree = node("R", [node("A", [node("A1"), node("A2")]), node("B", [node("B1")])]);
    const index = indexTree(tree);
    expect(moveTargets(index, index.get("A")!.node).map((t) => [t.node.id, t.depth])).toEqual([
      ["R", 0],
      ["B", 1],
      ["B1", 2],
    ]);
    expect(moveTargets(index, index.get("B1")!.node).map((t) => t.node.id)).toEqual([
      "R",
      "A",
      "A1",
      "A2",
      "B",
    ]);
  });
});
