import { describe, expect, it } from "vitest";
import type { ReplanChange } from "../../../../shared/schemas/replan";
import type { TaskTreeNode } from "../../../../shared/schemas/tasks";
import { changeCounts, changeViews, lockText, toggleChange } from "./replan-view";
import type { TreeIndexEntry } from "./task-tree";

const fields = {
  implementation_details: null,
  acceptance_criteria: ["It works"],
  requirement_ids: [],
  story_points: 2,
  complexity_score: 3,
  estimate_hours: { low: 2, likely: 3, high: 5 },
};
const CHANGES: ReplanChange[] = [
  {
    change_id: "c1",
    op: "add",
    parent_id: "T",
    parent_change_id: null,
    position: 0,
    after: { description: "Ship it", ...fields, depends_on: [] },
    requires: [],
  },
  {
    change_id: "c2",
    op: "add",
    parent_id: null,
    parent_change_id: "c1",
    position: 0,
    after: { description: "Announce", ...fields, depends_on: [] },
    requires: ["c1"],
  },
  {
    change_id: "c3",
    op: "update",
    task_id: "A",
    before: { story_points: 2, complexity_score: 3 },
    after: { story_points: 5, complexity_score: 6 },
    requires: [],
  },
  {
    change_id: "c4",
    op: "move",
    task_id: "A",
    parent_id: null,
    parent_change_id: "c1",
    position: 1,
    before: { parent_id: "T" },
    after: { parent_id: null },
    requires: ["c1"],
  },
  {
    change_id: "c5",
    op: "remove",
    task_id: "B",
    before: { description: "Old work", subtasks: 2 },
    requires: [],
  },
  {
    change_id: "c6",
    op: "remove",
    task_id: "C",
    before: { description: "Small step", subtasks: 0 },
    merged_into: "A",
    requires: ["c3"],
  },
];
const node = (id: string, description: string) => ({
  node: { id, description } as TaskTreeNode,
  parent: null,
});
const INDEX = new Map<string, TreeIndexEntry>([
  ["T", node("T", "The project")],
  ["A", node("A", "Build the API")],
  ["B", node("B", "Old work")],
]);

describe("re-plan review", () => {
  it("says each change in words", () => {
    const views = changeViews(CHANGES, INDEX);
    expect(views.map((v) => `${v.verb} ${v.title} ${v.note}`.trim())).toEqual([
      'Add Ship it under "The project"',
      'Add Announce under "Ship it" (new)',
      "Change Build the API",
      'Move Build the API from "The project" to "Ship it" (new)',
      "Remove Old work with its 2 subtasks",
      'Merge Small step into "Build the API"',
    ]);
    expect(views[2]!.lines).toEqual([
      { field: "Story points", before: "2", after: "5" },
      { field: "Complexity", before: "3/10", after: "6/10" },
    ]);
    expect(changeCounts(CHANGES)).toBe("2 to add, 1 to change, 1 to move, 2 to remove");
  });

  it("ticking a change ticks what it needs; unticking one unticks what needs it", () => {
    expect([...toggleChange(new Set(), "c2", CHANGES)].sort()).toEqual(["c1", "c2"]);
    const all = new Set(CHANGES.map((c) => c.change_id));
    expect([...toggleChange(all, "c1", CHANGES)].sort()).toEqual(["c3", "c5", "c6"]);
    expect([...toggleChange(all, "c5", CHANGES)].sort()).toEqual(["c1", "c2", "c3", "c4", "c6"]);
    // A merge needs the change that takes its work in.
    expect([...toggleChange(new Set(), "c6", CHANGES)].sort()).toEqual(["c3", "c6"]);
  });

  it("names the locks", () => {
    expect(lockText(["edited", "exported"])).toBe("Locked: edited by hand, exported");
    expect(lockText([])).toBe("");
  });
});
