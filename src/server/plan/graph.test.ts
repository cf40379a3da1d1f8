import { describe, expect, it } from "vitest";
import type { EstimateRange } from "../../shared/schemas/schedule";
import { acceptableDependencies, PlanGraph, type PlanNode, rollups, schedulePlan } from "./graph";

const point = (h: number): EstimateRange => ({ low: h, likely: h, high: h });

function node(
  id: string,
  parentId: string | null,
  estimate: EstimateRange | null = null,
  done = false,
): PlanNode {
  return { id, parentId, done, estimate, storyPoints: estimate ? 2 : null };
}

function plan(nodes: PlanNode[], deps: [string, string][]) {
  const graph = new PlanGraph(
    nodes,
    deps.map(([taskId, dependsOnId]) => ({ taskId, dependsOnId })),
  );
  const ids = (list: number[]) => list.map((i) => graph.nodes[i]!.id);
  const run = (teamSize = 1, top = "R", simulations = 200) => {
    const s = schedulePlan(graph, graph.index.get(top)!, teamSize, "seed", simulations);
    return {
      ...s,
      criticalPath: ids(s.criticalPath),
      waves: s.waves.map(ids),
      ready: ids(s.ready),
      unestimated: ids(s.unestimated),
    };
  };
  return { graph, run };
}

describe("PlanGraph schedule on small hand-computed plans", () => {
  // R: A (4 h), B (2 h) and C (3 h); B and C wait for A.
  const fan = () =>
    plan(
      [node("R", null), node("A", "R", point(4)), node("B", "R", point(2)), node("C", "R", point(3))],
      [
        ["B", "A"],
        ["C", "A"],
      ],
    );

  it("finds the critical path, the waves and the ready set", () => {
    const s = fan().run();
    expect(s.criticalPath).toEqual(["A", "C"]);
    expect(s.criticalPathHours).toBe(7);
    expect(s.waves).toEqual([["A"], ["B", "C"]]);
    expect(s.ready).toEqual(["A"]);
    expect(s.unestimated).toEqual([]);
  });

  it("forecasts exactly when every estimate is a point: one person does it all, two share the second wave", () => {
    expect(fan().run(1).forecast).toMatchObject({ team_size: 1, p50_days: 1.5, p90_days: 1.5 }); // 9 h / 6
    expect(fan().run(2).forecast).toMatchObject({ team_size: 2, p50_days: 1.2, p90_days: 1.2 }); // 7 h / 6
  });

  it("applies a parent's dependencies to all its descendants, and waits for every leaf of a parent it depends on", () => {
    const { run } = plan(
      [
        node("R", null),
        node("P1", "R"),
        node("a1", "P1", point(2)),
        node("a2", "P1", point(2)),
        node("P2", "R"),
        node("b1", "P2", point(5)),
        node("b2", "P2", point(1)),
      ],
      [["P1", "P2"]],
    );
    const s = run(4);
    expect(s.waves).toEqual([
      ["b1", "b2"],
      ["a1", "a2"],
    ]);
    expect(s.criticalPath).toEqual(["b1", "a1"]);
    expect(s.ready).toEqual(["b1", "b2"]); // critical first
    expect(s.forecast.p50_days).toBeCloseTo(7 / 6, 1);
  });

  it("treats done leaves as finished: what waited only for them is ready", () => {
    const { run } = plan(
      [node("R", null), node("A", "R", point(4), true), node("B", "R", point(2)), node("C", "R", point(3))],
      [
        ["B", "A"],
        ["C", "B"],
      ],
    );
    const s = run();
    expect(s.ready).toEqual(["B"]);
    expect(s.waves).toEqual([["B"], ["C"]]);
    expect(s.criticalPath).toEqual(["B", "C"]);
    expect(s.criticalPathHours).toBe(5);
  });

  it("schedules a subtree's own work, but a leaf waiting for unfinished work outside it is not ready", () => {
    const { run } = plan(
      [
        node("R", null),
        node("P", "R"),
        node("p1", "P", point(3)),
        node("p2", "P", point(3)),
        node("Q", "R"),
        node("q1", "Q", point(8)),
      ],
      [["p2", "q1"]],
    );
    const s = run(1, "P");
    expect(s.waves).toEqual([["p1", "p2"]]);
    expect(s.ready).toEqual(["p1"]);
    expect(s.forecast.p50_days).toBe(1); // 6 h of P's own work
  });

  it("counts leaves without an estimate at the default size and lists them", () => {
    const { run } = plan([node("R", null), node("A", "R"), node("B", "R", point(2))], []);
    const s = run();
    expect(s.unestimated).toEqual(["A"]);
    expect(s.criticalPath).toEqual(["A"]);
  });

  it("keeps the forecast between the critical path's likely hours and the sum of all high estimates, and repeats it", () => {
    const range = (likely: number): EstimateRange => ({ low: likely * 0.75, likely, high: likely * 2 });
    const nodes = [node("R", null)];
    const deps: [string, string][] = [];
    for (let i = 0; i < 30; i++) {
      nodes.push(node(`L${i}`, "R", range(2 + (i % 7))));
      if (i >= 3) deps.push([`L${i}`, `L${i - 3}`]);
    }
    const { run } = plan(nodes, deps);
    const sumHigh = nodes.reduce((sum, n) => sum + (n.estimate?.high ?? 0), 0);
    for (const team of [1, 2, 3, 10]) {
      const s = run(team, "R", 500);
      expect(s.forecast.p50_days).toBeGreaterThanOrEqual(Math.floor((s.criticalPathHours / 6) * 10) / 10);
      expect(s.forecast.p90_days).toBeGreaterThanOrEqual(s.forecast.p50_days);
      expect(s.forecast.p90_days).toBeLessThanOrEqual(sumHigh / 6);
      expect(run(team, "R", 500).forecast).toEqual(s.forecast);
    }
    // More people never make it slower here, and one person takes at least the sum of the lows.
    expect(run(3, "R", 500).forecast.p50_days).toBeLessThan(run(1, "R", 500).forecast.p50_days);
  });
});

describe("PlanGraph cycles", () => {
  const tree = () =>
    new PlanGraph(
      [
        node("R", null),
        node("P1", "R"),
        node("a1", "P1", point(1)),
        node("P2", "R"),
        node("b1", "P2", point(1)),
      ],
      [{ taskId: "P1", dependsOnId: "P2" }],
    );
  const names = (g: PlanGraph, chain: number[] | null) => chain?.map((i) => g.nodes[i]!.id) ?? null;

  it("names the chain a new dependency would close, through a parent's dependency", () => {
    const g = tree();
    const at = (id: string) => g.index.get(id)!;
    expect(names(g, g.cycleThrough(at("P2"), at("P1")))).toEqual(["P2", "P1", "P2"]);
    expect(names(g, g.cycleThrough(at("b1"), at("a1")))).toEqual(["b1", "a1", "P1", "P2", "b1"]);
    expect(g.cycleThrough(at("a1"), at("b1"))).toBeNull();
  });

  it("sees a dependency on an ancestor or a descendant as a cycle, and reports a stored cycle", () => {
    const g = tree();
    const at = (id: string) => g.index.get(id)!;
    expect(g.cycleThrough(at("a1"), at("P1"))).not.toBeNull();
    expect(g.cycleThrough(at("P1"), at("a1"))).not.toBeNull();
    expect(g.isAncestor(at("R"), at("a1"))).toBe(true);
    expect(g.order).not.toBeNull();
    const cyclic = new PlanGraph(g.nodes, [...g.edges, { taskId: "P2", dependsOnId: "P1" }]);
    expect(cyclic.order).toBeNull();
  });
});

describe("acceptableDependencies", () => {
  it("keeps proposals that join the plan and drops ancestors, repeats, unknown tasks and cycles, in order", () => {
    const g = new PlanGraph(
      [
        node("R", null),
        node("P1", "R"),
        node("a1", "P1", point(1)),
        node("P2", "R"),
        node("b1", "P2", point(1)),
      ],
      [{ taskId: "P1", dependsOnId: "P2" }],
    );
    const kept = acceptableDependencies(g, [
      { taskId: "a1", dependsOnId: "b1" }, // already implied, still fine
      { taskId: "a1", dependsOnId: "P1" }, // its own parent
      { taskId: "P1", dependsOnId: "P2" }, // already there
      { taskId: "b1", dependsOnId: "a1" }, // closes a cycle through P1 -> P2
      { taskId: "b1", dependsOnId: "nope" },
      { taskId: "a1", dependsOnId: "a1" },
    ]);
    expect(kept).toEqual([{ taskId: "a1", dependsOnId: "b1" }]);
  });
});

describe("rollups", () => {
  it("adds up points, hour ranges and done leaves of every parent", () => {
    const g = new PlanGraph(
      [
        node("R", null),
        node("P", "R"),
        node("a", "P", { low: 1, likely: 2, high: 4 }, true),
        node("b", "P", { low: 2, likely: 3, high: 5 }),
        node("c", "R"),
      ],
      [],
    );
    const r = rollups(g, [4, 3, 2, 1, 0]);
    expect(r[g.index.get("P")!]).toEqual({
      story_points: 4,
      estimate_hours: { low: 3, likely: 5, high: 9 },
      leaves_done: 1,
      leaves_total: 2,
      leaves_unestimated: 0,
    });
    expect(r[g.index.get("R")!]).toMatchObject({ leaves_total: 3, leaves_unestimated: 1, story_points: 4 });
    expect(r[g.index.get("a")!]).toBeNull();
  });
});
