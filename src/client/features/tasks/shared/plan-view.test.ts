import { describe, expect, it } from "vitest";
import type { TaskTreeNode } from "../../../../shared/schemas/tasks";
import { blockedTasks, dependencyCandidates, finishDate, formatRange } from "./plan-view";
import { indexTree } from "./task-tree";

const node = (id: string, description: string, children: TaskTreeNode[] = [], depends_on: string[] = []) =>
  ({ id, description, children, depends_on }) as unknown as TaskTreeNode;

describe("finishDate", () => {
  it("counts working days only, a part of a day as a whole one", () => {
    const friday = new Date(2026, 10, 20);
    expect(finishDate(friday, 1).getDate()).toBe(23); // Monday
    expect(finishDate(friday, 1.2).getDate()).toBe(24); // Tuesday
    expect(finishDate(friday, 0).getDate()).toBe(20);
    expect(finishDate(new Date(2026, 10, 16), 10).getDate()).toBe(30); // two weeks from a Monday
  });
});

describe("dependency lists", () => {
  const tree = node("R", "Project", [
    node("A", "Set up the repository"),
    node("B", "Search", [node("B1", "Search index"), node("B2", "Search page", [], ["B1"])], ["A"]),
    node("C", "Search analytics"),
  ]);
  const index = indexTree(tree);

  it("offers matching tasks outside the node's own branch that it does not already wait for", () => {
    const b2 = index.get("B2")!.node;
    expect(dependencyCandidates(index, b2, "search").map((n) => n.id)).toEqual(["C"]);
    expect(dependencyCandidates(index, b2, "  ").map((n) => n.id)).toEqual([]);
    const b = index.get("B")!.node;
    expect(dependencyCandidates(index, b, "e").map((n) => n.id)).toEqual(["C"]);
    expect(dependencyCandidates(index, index.get("C")!.node, "search", 2).map((n) => n.id)).toEqual([
      "B",
      "B1",
    ]);
  });

  it("lists what waits for a task", () => {
    expect(blockedTasks(index, "A").map((n) => n.id)).toEqual(["B"]);
    expect(blockedTasks(index, "B1").map((n) => n.id)).toEqual(["B2"]);
    expect(blockedTasks(index, "C")).toEqual([]);
  });

  it("formats ranges", () => {
    expect(formatRange({ low: 3, likely: 3, high: 3 })).toBe("3 h");
    expect(formatRange({ low: 2, likely: 3.25, high: 5 })).toBe("2-5 h (likely 3.3 h)");
  });
});
