import { describe, expect, it } from "vitest";
import type { TaskTreeNode } from "./schemas/tasks";
import { expandTree, packTree } from "./tree-compact";

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

/** A lean node as the tree answer has it below the top (services/tasks/read.ts, leanNode). */
function lean(n: number, parent: number, depth: number, over: Partial<TaskTreeNode> = {}): TaskTreeNode {
  return {
    id: uuid(n),
    task_id: uuid(n),
    parent_id: uuid(parent),
    root_task_id: uuid(1),
    description: `Task ${n}`,
    status: "pending",
    depth,
    position: n,
    complexity_score: null,
    story_points: null,
    implementation_details: null,
    is_atomic: false,
    created_at: "2026-11-27T10:00:00.123Z",
    depends_on: [],
    acceptance_criteria: [],
    requirement_ids: [],
    needs_attention: false,
    attention_reason: null,
    locked: [],
    rollup: null,
    children: [],
    ...over,
  } as TaskTreeNode;
}

function sample(): TaskTreeNode {
  const a1 = lean(3, 2, 2, {
    is_atomic: true,
    status: "completed",
    complexity_score: 3.5,
    story_points: 2,
    estimated_hours: 4,
    estimate_hours: { low: 2, likely: 4, high: 8 },
    estimate_source: "rule",
    acceptance_criteria: ["It works"],
    requirement_ids: ["R1"],
    completed_at: "2026-11-27T12:00:00.000Z",
    started_at: "2026-11-27T11:00:00.000Z",
    actual_hours: 1,
    actual_source: "working_time",
    locked: ["completed"],
    remote_links: [{ kind: "github", key: "#4", url: "https://example.com/4", status: "closed" } as never],
  });
  const a2 = lean(4, 2, 2, {
    is_atomic: true,
    // A dependency inside the tree and one outside it (a subtree's answer).
    depends_on: [uuid(3), uuid(99)],
    needs_attention: true,
    attention_reason: "Could not split",
    // A time that is not in toISOString's form travels as it is; an unknown field too.
    updated_at: "2026-11-27 10:00:00",
    warnings: ["w"],
    ...({ future_field: { x: 1 } } as object),
  });
  const a = lean(2, 1, 1, {
    rollup: {
      story_points: 2,
      estimate_hours: { low: 2, likely: 4, high: 8 },
      leaves_done: 1,
      leaves_total: 2,
      leaves_unestimated: 1,
    },
    children: [a1, a2],
    children_count: 2,
    total_subtasks: 2,
  });
  const b = lean(5, 1, 1, { estimated_hours: 3, estimate_hours: null as never });
  return {
    ...lean(1, 0, 0),
    parent_id: null,
    root_task_id: null,
    status: "completed",
    children: [a, b],
    children_count: 2,
    total_subtasks: 4,
  };
}

describe("the compact tree", () => {
  it("expands to exactly the tree it packed, whatever fields its nodes have", () => {
    const tree = sample();
    const packed = packTree(structuredClone(tree));
    expect(expandTree(JSON.parse(JSON.stringify(packed)))).toStrictEqual(tree);
  });

  it("leaves out what the nesting says and the defaults, and numbers the dependencies inside the tree", () => {
    const packed = packTree(sample());
    expect(packed.nodes.map((n) => n.id)).toEqual([uuid(2), uuid(3), uuid(4), uuid(5)]);
    expect(packed.nodes[0]).toEqual({
      id: uuid(2),
      p: 0,
      d: "Task 2",
      o: 2,
      t: Date.parse("2026-11-27T10:00:00.123Z"),
      ru: sample().children[0]!.rollup,
    });
    expect(packed.nodes[2]).toMatchObject({ p: 1, dep: [2, uuid(99)], n: 1, u: "2026-11-27 10:00:00" });
    expect(packed.nodes[2]!["+"]).toEqual({ future_field: { x: 1 } });
    expect(packed.nodes[1]).toMatchObject({ e: [2, 4, 8], a: 1, s: "completed" });
    expect(packed.nodes[1]).not.toHaveProperty("task_id");
  });
});
