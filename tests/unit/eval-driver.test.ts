import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import type { ComposeRequest, Planner, SplitRequest } from "../../src/server/engine/planners/contract";
import type { EventModelPlan, PlannedSubtask, ProjectContext } from "../../src/shared/schemas/plan";
import type { EvalCase } from "../eval/case";
import { briefForCase, OUTLINE_LIMIT, planCase } from "../eval/driver";

const USAGE = { calls: 1, promptTokens: 10, completionTokens: 5 };

const CONTEXT: ProjectContext = {
  tech_stack: { frontend: "", backend: "", database: "", deployment: "", description: "" },
  best_practices: ["x"],
  epics: [{ id: "E1", title: "Epic", description: "", priority: 1 }],
  user_stories: [],
};
const EVENT_MODEL: EventModelPlan = {
  events: [{ name: "Happened", description: "" }],
  commands: [{ name: "Do", description: "" }],
  read_models: [],
  user_interactions: [],
  automations: [],
  swimlanes: [{ name: "Lane", description: "", events: [], commands: [], read_models: [] }],
  chapters: [{ name: "Chapter", description: "", sub_chapters: [] }],
  event_model_markdown: "# Model",
};

/** A scripted planner: `children(request)` gives each split's subtasks; every call is logged. */
function scripted(
  children: (r: SplitRequest) => PlannedSubtask[],
  opts: { rootScore?: number; delayMs?: number } = {},
) {
  const splits: SplitRequest[] = [];
  const composed: ComposeRequest[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const planner: Planner = {
    name: "offline",
    model: null,
    async assessComplexity() {
      return {
        value: { complexity_score: opts.rootScore ?? 9, story_points: 13, rationale: "big" },
        usage: USAGE,
      };
    },
    async splitTask(request) {
      splits.push(request);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      try {
        if (opts.delayMs) await sleep(opts.delayMs);
        return { value: children(request), usage: USAGE };
      } finally {
        inFlight--;
      }
    },
    async composeContext(request) {
      composed.push(request);
      return { value: CONTEXT, usage: USAGE };
    },
    async composeEventModel(request) {
      composed.push(request);
      return { value: EVENT_MODEL, usage: USAGE };
    },
  };
  return { planner, splits, composed, maxInFlight: () => maxInFlight };
}

const sub = (description: string, complexity: number, extra: Record<string, unknown> = {}): PlannedSubtask =>
  ({
    description,
    complexity_score: complexity,
    story_points: 3,
    implementation_details: `details of ${description}`,
    ...extra,
  }) as PlannedSubtask;

const CASE: EvalCase = {
  id: "c",
  kind: "test",
  description: "Build a shop",
  requirements: [],
  technologies: [],
  non_goals: [],
};

describe("the eval driver", () => {
  it("builds the brief through briefOf, catalogue stack, extra requirements and repository summary included", () => {
    const brief = briefForCase({
      ...CASE,
      application_type: "web-application",
      tech_stack_id: "django-postgres",
      additional_requirements: "GDPR",
      repository_summary: "a Django monolith",
    });
    expect(brief.description).toBe("Build a shop");
    expect(brief.applicationType?.id).toBe("web-application");
    expect(brief.stack?.id).toBe("django-postgres");
    expect(brief.additionalRequirements).toBe("GDPR");
    expect(brief.repositorySummary).toBe("a Django monolith");
  });

  it("mirrors the pipeline: root split, splits of non-atomic children with their context, capped scores", async () => {
    const run = scripted(
      (r) => {
        if (r.depth === 0) return [sub("Catalogue", 9), sub("Checkout", 8), sub("Docs", 3), sub("Extra", 9)];
        if (r.task.description === "Catalogue") return [sub("Products", 10), sub("Search", 4)];
        if (r.task.description === "Products") return [sub("Product model", 2), sub("Product API", 2)];
        return [sub(`${r.task.description} part A`, 2), sub(`${r.task.description} part B`, 3)];
      },
      { rootScore: 5 },
    );
    const record = await planCase(run.planner, CASE, { maxSubtasks: 3 });

    const root = run.splits[0]!;
    expect(root.depth).toBe(0);
    expect(root.ancestors).toEqual([]);
    expect(root.siblings).toBeUndefined();
    expect(root.task).toEqual({
      description: "Build a shop",
      complexity_score: 5,
      implementation_details: null,
    });
    expect([root.maxDepth, root.maxSubtasks]).toEqual([4, 3]);

    // The root's children are sliced to maxSubtasks but not capped at the root's score; "Docs" is atomic.
    const titles = record.nodes.map((n) => `${"-".repeat(n.depth)}${n.title}`);
    expect(titles).toEqual([
      "Build a shop",
      "-Catalogue",
      "--Products",
      "---Product model",
      "---Product API",
      "--Search",
      "-Checkout",
      "--Checkout part A",
      "--Checkout part B",
      "-Docs",
    ]);
    const byTitle = new Map(record.nodes.map((n) => [n.title, n]));
    expect(byTitle.get("Catalogue")!.complexity_score).toBe(9);
    // Below the root a child never scores above its parent.
    expect(byTitle.get("Products")!.complexity_score).toBe(9);
    expect(byTitle.get("Docs")!.isAtomic).toBe(true);

    const products = run.splits.find((s) => s.task.description === "Products")!;
    expect(products.depth).toBe(2);
    expect(products.ancestors).toEqual(["Build a shop", "Catalogue"]);
    expect(products.siblings).toEqual(["Search"]);
    expect(products.elsewhere).toEqual(expect.arrayContaining(["Checkout", "Docs"]));
    expect(products.elsewhere).not.toContain("Catalogue");
    expect(products.task.implementation_details).toBe("details of Products");

    expect(run.splits.map((s) => s.task.description).sort()).toEqual([
      "Build a shop",
      "Catalogue",
      "Checkout",
      "Products",
    ]);
    expect(record.usage).toEqual({ calls: 7, promptTokens: 70, completionTokens: 35 });
    expect(record.error).toBeNull();
    expect(record.context).toEqual(CONTEXT);
    expect(record.eventModel).toEqual(EVENT_MODEL);

    // The composer gets the flattened depth-first tree without the root, twice in parallel.
    expect(run.composed).toHaveLength(2);
    expect(run.composed[0]!.tasks.map((t) => t.description)).toEqual(
      titles.slice(1).map((t) => t.replace(/^-+/, "")),
    );
    expect(run.composed[0]!.tasks[0]).toEqual({
      description: "Catalogue",
      depth: 1,
      complexity_score: 9,
      story_points: 3,
      is_atomic: false,
    });
  });

  it("stops at maxDepth and shows each split at most OUTLINE_LIMIT other titles", async () => {
    const run = scripted((r) => Array.from({ length: 7 }, (_, k) => sub(`${r.task.description}.${k}`, 9)));
    const record = await planCase(run.planner, CASE, { maxDepth: 3 });
    expect(Math.max(...record.nodes.map((n) => n.depth))).toBe(3);
    expect(record.nodes.filter((n) => n.depth === 3).every((n) => n.isAtomic)).toBe(true);
    for (const s of run.splits.slice(1))
      expect((s.siblings?.length ?? 0) + (s.elsewhere?.length ?? 0)).toBeLessThanOrEqual(OUTLINE_LIMIT);
    expect(
      run.splits.some((s) => (s.siblings?.length ?? 0) + (s.elsewhere?.length ?? 0) >= OUTLINE_LIMIT - 3),
    ).toBe(true);
  });

  it("runs at most `concurrency` splits at once, and uses them all", async () => {
    const run = scripted(
      (r) => (r.depth < 2 ? Array.from({ length: 6 }, (_, k) => sub(`${r.depth}.${k}`, 9)) : []),
      {
        delayMs: 5,
      },
    );
    await planCase(run.planner, CASE, { concurrency: 3, maxDepth: 3 });
    expect(run.maxInFlight()).toBe(3);
  });

  it("leaves a node whose split fails a leaf that needs attention, and fails the plan when the root fails", async () => {
    const run = scripted((r) => {
      if (r.depth === 0) return [sub("Good", 9), sub("Bad", 9), sub("Small", 2), sub("Small 2", 2)];
      if (r.task.description === "Bad") throw new Error("model output invalid");
      return [sub("Good part", 2), sub("Good part 2", 2)];
    });
    const record = await planCase(run.planner, CASE);
    expect(record.error).toBeNull();
    expect(record.nodes.find((n) => n.title === "Bad")!.needsAttention).toBe("model output invalid");
    expect(record.nodes.map((n) => n.title)).toContain("Good part");

    const broken = scripted(() => {
      throw new Error("provider down");
    });
    const failed = await planCase(broken.planner, CASE);
    expect(failed.error).toBe("planning failed: provider down");
    expect(failed.nodes).toHaveLength(1);
  });

  it("records the planner's extra fields on the nodes when present", async () => {
    const run = scripted((r) =>
      r.depth === 0
        ? [
            sub("Parse dates", 3, {
              acceptance_criteria: ["Parses ISO", "Rejects junk"],
              requirement_ids: ["R1"],
              estimated_hours: 6,
            }),
            sub("Format dates", 3),
          ]
        : [],
    );
    const record = await planCase(run.planner, CASE);
    const [parse, format] = record.nodes.slice(1);
    expect(parse).toMatchObject({
      acceptance_criteria: ["Parses ISO", "Rejects junk"],
      requirement_ids: ["R1"],
      estimated_hours: 6,
    });
    expect(format).not.toHaveProperty("acceptance_criteria");
  });
});
