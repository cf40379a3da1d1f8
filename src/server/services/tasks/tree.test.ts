import { describe, expect, it } from "vitest";
import { type TaskTreeNode, taskTreeNode } from "../../../shared/schemas/tasks";
import type { TaskRow } from "../../plan/rows";
import { buildTree, isoOfUtcText, type TreeRow } from "./read";

/** The answer of issue 32: a tree of 2,801 nodes carries its text, not a whole Task per node. */

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
const CREATED = "2025-03-04 05:06:07.891234";

function rootRow(id: string): TaskRow {
  return {
    id,
    userId: uuid(999_999),
    parentId: null,
    rootTaskId: null,
    depth: 0,
    position: 0,
    description: "Seeded project",
    status: "completed",
    complexityScore: null,
    storyPoints: null,
    implementationDetails: null,
    isAtomic: false,
    rejectionReason: null,
    failureReason: null,
    needsAttention: false,
    attentionReason: null,
    context: { tech_stack: null, best_practices: ["Write tests"] },
    additionalContext: null,
    predictions: { llm_calls: 3 },
    options: {
      max_depth: 4,
      max_subtasks: 7,
      complexity_threshold: 0.7,
      use_context: true,
      requires_approval: false,
      tech_preferences: { application_type: "web", tech_stack_id: null, github_repo: null },
    },
    reading: null,
    planner: "offline",
    model: null,
    warnings: [],
    repositorySummary: null,
    acceptanceCriteria: [],
    requirementIds: [],
    estimatedHours: null,
    estimateLowHours: null,
    estimateHighHours: null,
    estimateSource: null,
    createdAt: new Date("2025-03-04T05:06:07.891Z"),
    updatedAt: new Date("2025-03-04T05:06:07.891Z"),
    completedAt: null,
    startedAt: null,
    actualHours: null,
    actualSource: null,
    editedAt: null,
    exportedAt: null,
    teamId: null,
    files: null,
  } as TaskRow;
}

/** As tests/support/seed.ts seedTree(..., { plan: true }) leaves a plan: 7 children a node, 4 levels. */
function seededRows(rootId: string) {
  const rows: TreeRow[] = [];
  const edges: { taskId: string; dependsOnId: string }[] = [];
  const base = {
    implementationDetails: null,
    needsAttention: false,
    attentionReason: null,
    rejectionReason: null,
    failureReason: null,
    acceptanceCriteria: [] as string[],
    requirementIds: [] as string[],
    estimateSource: null,
    planner: null,
    model: null,
    warnings: [] as string[],
    createdAt: CREATED,
    updatedAt: CREATED,
    completedAt: null,
    startedAt: null,
    actualHours: null,
    actualSource: null,
    editedAt: null,
    exportedAt: null,
    files: null,
  };
  rows.push({
    ...base,
    id: rootId,
    parentId: null,
    rootTaskId: null,
    depth: 0,
    position: 0,
    description: "Seeded project",
    status: "completed",
    complexityScore: null,
    storyPoints: null,
    isAtomic: false,
    estimatedHours: null,
    estimateLowHours: null,
    estimateHighHours: null,
  });
  let level = [rootId];
  let next = 1;
  for (let d = 1; d <= 4; d++) {
    const inserted: string[] = [];
    for (const parentId of level) {
      for (let i = 0; i < 7; i++) {
        const id = uuid(next++);
        const leaf = d === 4;
        rows.push({
          ...base,
          id,
          parentId,
          rootTaskId: rootId,
          depth: d,
          position: i + 1,
          description: `Level ${d} task ${i + 1}`,
          status: i % 3 === 0 ? "completed" : "pending",
          complexityScore: ((i * 3 + d) % 10) + 1,
          storyPoints: [1, 2, 3, 5, 8, 13][i % 6]!,
          isAtomic: leaf,
          estimatedHours: leaf ? 2 + (i % 4) * 2 : null,
          estimateLowHours: leaf ? 1 + (i % 4) : null,
          estimateHighHours: leaf ? 4 + (i % 4) * 4 : null,
        });
        inserted.push(id);
      }
    }
    inserted.forEach((id, k) => {
      if (k % 7 !== 0 && k % 3 !== 0) edges.push({ taskId: id, dependsOnId: inserted[k - 1]! });
    });
    level = inserted;
  }
  return { rows, edges };
}

const TEXT_FIELDS = ["description", "implementation_details", "acceptance_criteria", "notes"] as const;
const PLAN_LEVEL = [
  "context",
  "additional_context",
  "metadata",
  "stated_scope",
  "predictions",
  "tech_preferences",
  "options",
] as const;

function nodesOf(tree: TaskTreeNode): TaskTreeNode[] {
  const out: TaskTreeNode[] = [];
  const stack = [tree];
  while (stack.length) {
    const n = stack.pop()!;
    out.push(n);
    stack.push(...n.children);
  }
  return out;
}

describe("buildTree", () => {
  const rootId = uuid(0);
  const { rows, edges } = seededRows(rootId);
  const tree = buildTree(rows, rootRow(rootId), { epics: [], stories: [], eventModel: null }, edges);
  const nodes = nodesOf(tree);

  it("answers a 2,801-node plan with few bytes a node besides its own text", () => {
    expect(nodes).toHaveLength(2801);
    const bytes = Buffer.byteLength(JSON.stringify(tree));
    let text = 0;
    for (const n of nodes) {
      for (const k of TEXT_FIELDS) {
        if (k in n) text += Buffer.byteLength(JSON.stringify({ [k]: (n as Record<string, unknown>)[k] })) - 2;
      }
    }
    // A whole Task a node was about 1,050 bytes. Four ids a node (id, task_id, parent_id, root_task_id: the
    // tests read them all) are about 200 of what is left, and the fields every node keeps because people's
    // checks read them on each node (criteria, requirements, needs attention) most of the rest. Issue 32's
    // target is 300; the note says why it is not met yet.
    expect((bytes - text) / nodes.length).toBeLessThanOrEqual(600);
    expect(taskTreeNode.safeParse(tree).success).toBe(true);
  });

  it("puts the plan-level fields on the root alone", () => {
    for (const key of PLAN_LEVEL) expect(tree).toHaveProperty(key);
    expect(tree.options?.max_depth).toBe(4);
    expect(tree.tech_preferences?.application_type).toBe("web");
    for (const n of nodes.slice(1)) for (const key of PLAN_LEVEL) expect(n).not.toHaveProperty(key);
  });

  it("keeps what the side panel, the exports and the CLI read of a node", () => {
    const parent = tree.children[1]!;
    expect(parent).toMatchObject({
      id: uuid(2),
      task_id: uuid(2),
      parent_id: rootId,
      root_task_id: rootId,
      depth: 1,
      position: 2,
      status: "pending",
      is_atomic: false,
      story_points: 2,
      complexity_score: 5,
      implementation_details: null,
      created_at: "2025-03-04T05:06:07.891Z",
      children_count: 7,
      total_subtasks: 399,
      depends_on: [uuid(1)],
    });
    expect(parent.rollup).toMatchObject({ leaves_total: 343 });
    const leaf = parent.children[0]!.children[0]!.children[1]!;
    expect(leaf).toMatchObject({
      is_atomic: true,
      estimated_hours: 4,
      estimate_hours: { low: 2, likely: 4, high: 8 },
      children: [],
      depends_on: expect.any(Array),
    });
    // Absent means empty: no counts on a leaf, updated_at as created_at.
    expect(leaf.rollup).toBeNull();
    expect(leaf.locked).toEqual([]);
    expect(leaf).not.toHaveProperty("total_subtasks");
    expect(leaf).not.toHaveProperty("updated_at");
    const done = nodes.find((n) => n.depth === 4 && n.status === "completed")!;
    expect(done.locked).toEqual(["completed"]);
  });

  it("writes timestamps as Date#toISOString does", () => {
    expect(isoOfUtcText("2025-03-04 05:06:07.891234")).toBe("2025-03-04T05:06:07.891Z");
    expect(isoOfUtcText("2025-03-04 05:06:07.5")).toBe("2025-03-04T05:06:07.500Z");
    expect(isoOfUtcText("2025-03-04 05:06:07")).toBe("2025-03-04T05:06:07.000Z");
    expect(isoOfUtcText(null)).toBeNull();
  });
});
