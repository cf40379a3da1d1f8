import { describe, expect, it } from "vitest";
import type { TaskTreeNode } from "../../../../shared/schemas/tasks";
import { dropPlacement, indexTree, summarizeTree } from "./task-tree";

const n = (id: string, children: TaskTreeNode[] = []) => ({ id, description: id, children }) as TaskTreeNode;
// R > A (A1, A2, A3), B
const TREE = n("R", [n("A", [n("A1"), n("A2"), n("A3")]), n("B")]);
const index = indexTree(TREE);

describe("dropPlacement", () => {
  it("drops inside a row as its last child", () => {
    expect(dropPlacement(index, "B", "A", "inside")).toEqual({ parent_id: "A", position: 3 });
    expect(dropPlacement(index, "A3", "A", "inside")).toEqual({ parent_id: "A", position: 2 });
  });

  it("drops before or after a row among its siblings, counted without the dragged task", () => {
    expect(dropPlacement(index, "A1", "A3", "after")).toEqual({ parent_id: "A", position: 2 });
    expect(dropPlacement(index, "A3", "A1", "before")).toEqual({ parent_id: "A", position: 0 });
    expect(dropPlacement(index, "B", "A2", "before")).toEqual({ parent_id: "A", position: 1 });
    expect(dropPlacement(index, "A2", "B", "after")).toEqual({ parent_id: "R", position: 2 });
  });

  it("is no move onto itself, next to where it already is, or beside the root", () => {
    expect(dropPlacement(index, "A1", "A1", "inside")).toBeNull();
    expect(dropPlacement(index, "A1", "A2", "before")).toBeNull();
    expect(dropPlacement(index, "A2", "A1", "after")).toBeNull();
    expect(dropPlacement(index, "A1", "R", "before")).toBeNull();
  });
});

describe("summarizeTree", () => {
  const withStatus = (id: string, status: string, children: TaskTreeNode[] = []) =>
    ({ ...n(id, children), status, story_points: 2, is_atomic: children.length === 0 }) as TaskTreeNode;

  it("counts the work's progress in leaves: a planned root and split parents are 'completed' without work done", () => {
    // R and A are completed because they were planned and split; of the four leaves, one is done.
    const tree = withStatus("R", "completed", [
      withStatus("A", "completed", [withStatus("A1", "completed"), withStatus("A2", "pending")]),
      withStatus("B", "in_progress"),
      withStatus("C", "pending"),
    ]);
    const summary = summarizeTree(tree);
    expect(summary).toMatchObject({ total: 6, completed: 3, leaves: 4, leavesDone: 1, storyPoints: 8 });
  });
});
