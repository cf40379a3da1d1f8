import { describe, expect, it } from "vitest";
import type { LockReason, PlannedFields } from "../../shared/schemas/replan";
import { diffPlan, type ExistingNode, type ProposedNode, withRequirements } from "./replan-diff";

const fields = (description: string, over: Partial<PlannedFields> = {}): PlannedFields => ({
  description,
  implementation_details: null,
  acceptance_criteria: [],
  requirement_ids: [],
  story_points: 2,
  complexity_score: 3,
  estimate_hours: { low: 3, likely: 4, high: 7 },
  ...over,
});
const existing = (id: string, parentId: string, title: string, locked: LockReason[] = []): ExistingNode => ({
  id,
  parentId,
  fields: fields(title),
  locked,
});
const proposed = (
  title: string,
  children: ProposedNode[] | null = null,
  over: Partial<ProposedNode> = {},
): ProposedNode => ({ ...fields(title), depends_on: [], children, ...over });

// T > A (A1, A2), B (B1)
const TREE = [
  existing("A", "T", "Build the API"),
  existing("B", "T", "Build the screens"),
  existing("A1", "A", "Design the tables"),
  existing("A2", "A", "Write the endpoints"),
  existing("B1", "B", "Sign-in page"),
];
const SAME = [
  proposed("Build the API", [proposed("Design the tables"), proposed("Write the endpoints")]),
  proposed("Build the screens", [proposed("Sign-in page")]),
];

describe("diffPlan", () => {
  it("proposes nothing for the same plan", () => {
    expect(diffPlan("T", TREE, SAME)).toEqual({ changes: [], keptLocked: [] });
  });

  it("adds, updates, moves and removes; a reworded title is the same task", () => {
    const next = [
      proposed("Build the API", [proposed("Design the database tables"), proposed("Add rate limits")]),
      proposed("Build the screens", [proposed("Write the endpoints")], { story_points: 5 }),
    ];
    const { changes } = diffPlan("T", TREE, next);
    expect(changes).toEqual([
      expect.objectContaining({
        op: "update",
        task_id: "B",
        before: { story_points: 2 },
        after: { story_points: 5 },
      }),
      expect.objectContaining({
        op: "update",
        task_id: "A1",
        after: { description: "Design the database tables" },
      }),
      expect.objectContaining({ op: "add", parent_id: "A", position: 1, requires: [] }),
      expect.objectContaining({ op: "move", task_id: "A2", parent_id: "B", before: { parent_id: "A" } }),
      expect.objectContaining({
        op: "remove",
        task_id: "B1",
        before: { description: "Sign-in page", subtasks: 0 },
      }),
    ]);
  });

  it("an added parent's children need it; a removed parent needs the moves out of it", () => {
    const next = [
      proposed("Build the API", [proposed("Design the tables")]),
      proposed("Ship it", [proposed("Write the endpoints"), proposed("Announce")]),
    ];
    const { changes } = diffPlan("T", TREE, next);
    const add = changes.find((c) => c.op === "add" && c.after.description === "Ship it")!;
    const announce = changes.find((c) => c.op === "add" && c.after.description === "Announce")!;
    const move = changes.find((c) => c.op === "move")!;
    const removeB = changes.find((c) => c.op === "remove" && c.task_id === "B")!;
    expect(announce).toMatchObject({
      parent_id: null,
      parent_change_id: add.change_id,
      requires: [add.change_id],
    });
    expect(move).toMatchObject({ task_id: "A2", parent_change_id: add.change_id, requires: [add.change_id] });
    expect(removeB.requires).toEqual([]);
    expect([...withRequirements(changes, [announce.change_id])].sort()).toEqual(
      [add.change_id, announce.change_id].sort(),
    );
    // B1 moves out of a removed parent: removing the parent takes the move along.
    const moveOut = diffPlan("T", TREE, [
      proposed("Build the API", [
        proposed("Design the tables"),
        proposed("Write the endpoints"),
        proposed("Sign-in page"),
      ]),
    ]);
    const removed = moveOut.changes.find((c) => c.op === "remove")!;
    const moved = moveOut.changes.find((c) => c.op === "move")!;
    expect(removed).toMatchObject({ task_id: "B", requires: [moved.change_id] });
  });

  it("never updates, moves or removes a locked node, nor removes what holds one, nor adds under one", () => {
    const tree = [
      existing("A", "T", "Build the API", ["edited"]),
      existing("B", "T", "Build the screens"),
      existing("A1", "A", "Design the tables"),
      existing("B1", "B", "Sign-in page", ["completed"]),
      existing("B2", "B", "Profile page"),
    ];
    const next = [
      proposed("Build the API", [proposed("Something new")], { story_points: 8 }),
      proposed("Deploy"),
    ];
    const { changes, keptLocked } = diffPlan("T", tree, next);
    const touched = changes.flatMap((c) => ("task_id" in c ? [c.task_id] : []));
    expect(touched).not.toContain("A");
    expect(touched).not.toContain("A1"); // below a locked node: not planned again
    expect(touched).not.toContain("B1");
    expect(touched).not.toContain("B"); // holds a completed node
    expect(changes).toContainEqual(expect.objectContaining({ op: "remove", task_id: "B2" }));
    expect(
      changes.filter((c) => c.op === "add").map((c) => (c.op === "add" ? c.after.description : "")),
    ).toEqual(["Deploy"]);
    expect(keptLocked.map((k) => k.task_id).sort()).toEqual(["A", "B1"]);
  });

  it("keeps what is not planned this deep (children: null) and removes below an explicit leaf", () => {
    expect(
      diffPlan("T", TREE, [proposed("Build the API", null), proposed("Build the screens", [])]).changes,
    ).toEqual([expect.objectContaining({ op: "remove", task_id: "B1" })]);
  });

  it("carries the dependencies a new node waits for, as task ids or change ids", () => {
    const next = [
      proposed("Build the API", null),
      proposed("Build the screens", null),
      proposed("Load test", null, { depends_on: [0, 3] }),
      proposed("Write the runbook", null),
    ];
    const { changes } = diffPlan("T", TREE, next);
    const load = changes.find((c) => c.op === "add" && c.after.description === "Load test")!;
    const runbook = changes.find((c) => c.op === "add" && c.after.description === "Write the runbook")!;
    expect(load.op === "add" && load.after.depends_on).toEqual(["A", runbook.change_id]);
  });
});
