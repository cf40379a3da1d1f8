import { describe, expect, it } from "vitest";
import {
  type CoverageNode,
  coverageSummary,
  coverageTotals,
  requirementCoverage,
} from "./requirement-coverage";

const REQS = [
  { id: "R1", text: "Members sign in" },
  { id: "R2", text: "Visitors search recipes" },
  { id: "R3", text: "Lists work offline" },
  { id: "R4", text: "Owners see bookings" },
];

/** root → [setup, features(R1,R2) → [signin(R1) → [form, api], search(R2)], offline(R3)] (pre-order). */
function plan(status: Record<string, string> = {}): CoverageNode[] {
  const n = (id: string, parentId: string | null, requirementIds: string[] = []) => ({
    id,
    parentId,
    requirementIds,
    status: status[id] ?? "pending",
  });
  return [
    n("root", null, ["R1", "R2", "R3", "R4"]),
    n("setup", "root"),
    n("features", "root", ["R1", "R2"]),
    n("signin", "features", ["R1"]),
    n("form", "signin"),
    n("api", "signin"),
    n("search", "features", ["R2", "R2"]),
    n("offline", "root", ["R3"]),
  ];
}

describe("requirementCoverage", () => {
  it("counts the leaves under the most specific tasks naming a requirement, never the root", () => {
    const [r1, r2, r3, r4] = requirementCoverage(REQS, plan());
    // The group names R1 and R2, but its parts say which is which.
    expect(r1!.tasks).toEqual([{ id: "signin", leaves_done: 0, leaves_total: 2 }]);
    expect(r2!.tasks).toEqual([{ id: "search", leaves_done: 0, leaves_total: 1 }]);
    expect(r3!.tasks.map((t) => t.id)).toEqual(["offline"]);
    // The root names R4 as it names everything: no task covers it.
    expect(r4).toMatchObject({ status: "no_tasks", tasks: [], leaves_total: 0 });
    expect([r1, r2, r3].map((r) => r!.status)).toEqual(["not_started", "not_started", "not_started"]);
    // Work below a covering task counts for its requirement; work beside it does not.
    expect(["signin", "form", "api"].every((id) => r1!.includes(id))).toBe(true);
    expect(["features", "search", "root", "nope"].some((id) => r1!.includes(id))).toBe(false);
  });

  it("is in progress when some work is done or started, and done when all of it is", () => {
    const some = requirementCoverage(REQS, plan({ form: "completed", search: "in_progress" }));
    expect(some[0]).toMatchObject({ status: "in_progress", leaves_done: 1, leaves_total: 2 });
    expect(some[1]).toMatchObject({ status: "in_progress", leaves_done: 0, leaves_total: 1 });
    const all = requirementCoverage(REQS, plan({ form: "completed", api: "completed", offline: "failed" }));
    expect(all[0]).toMatchObject({ status: "done", leaves_done: 2 });
    expect(all[0]!.tasks[0]).toEqual({ id: "signin", leaves_done: 2, leaves_total: 2 });
    // A failed task is not done work.
    expect(all[2]!.status).toBe("not_started");
  });

  it("counts every leaf of a parent when none of its subtasks names the requirement", () => {
    const nodes = plan({ form: "completed" }).map((n) =>
      n.id === "signin" ? n : { ...n, requirementIds: n.id === "features" ? ["R1"] : [] },
    );
    const [r1] = requirementCoverage(REQS, nodes);
    expect(r1!.tasks).toEqual([{ id: "signin", leaves_done: 1, leaves_total: 2 }]);
    const [alone] = requirementCoverage(
      REQS,
      nodes.map((n) => (n.id === "signin" ? { ...n, requirementIds: [] } : n)),
    );
    expect(alone!.tasks).toEqual([{ id: "features", leaves_done: 1, leaves_total: 3 }]);
  });

  it("flags every requirement of a plan not split yet, and ignores ids the description does not state", () => {
    const only = requirementCoverage(REQS, [{ id: "root", parentId: null, status: "processing" }]);
    expect(only.map((r) => r.status)).toEqual(["no_tasks", "no_tasks", "no_tasks", "no_tasks"]);
    const stray = requirementCoverage(REQS.slice(0, 1), [
      { id: "root", parentId: null, status: "completed" },
      { id: "a", parentId: "root", requirementIds: ["R9", "R1"], status: "completed" },
    ]);
    expect(stray).toHaveLength(1);
    expect(stray[0]).toMatchObject({ status: "done", tasks: [{ id: "a" }] });
  });

  it("reads a plan of thousands of nodes in one pass", () => {
    const nodes: CoverageNode[] = [{ id: "root", parentId: null, status: "completed" }];
    for (let g = 0; g < 100; g++) {
      nodes.push({ id: `g${g}`, parentId: "root", requirementIds: ["R1"], status: "pending" });
      for (let l = 0; l < 100; l++)
        nodes.push({
          id: `g${g}l${l}`,
          parentId: `g${g}`,
          requirementIds: l === 0 ? ["R1"] : [],
          status: l % 2 ? "completed" : "pending",
        });
    }
    const started = performance.now();
    const [r1] = requirementCoverage(REQS.slice(0, 1), nodes);
    expect(performance.now() - started).toBeLessThan(500);
    expect(r1!.tasks).toHaveLength(100);
    expect(r1).toMatchObject({ leaves_total: 100, leaves_done: 0, status: "not_started" });
  });
});

describe("coverageSummary", () => {
  it("says how many are done and how many have no task, in one line", () => {
    const of = (...s: Array<"done" | "in_progress" | "not_started" | "no_tasks">) =>
      coverageSummary(coverageTotals(s.map((status) => ({ status }))));
    expect(of("done", "done", "no_tasks", "in_progress", "no_tasks")).toBe(
      "2 of 5 requirements done; 2 have no task",
    );
    expect(of("not_started")).toBe("0 of 1 requirement done");
    expect(of("done", "no_tasks")).toBe("1 of 2 requirements done; 1 has no task");
    expect(of()).toBe("The description states no requirements.");
    expect(coverageTotals([{ status: "done" }, { status: "no_tasks" }])).toEqual({
      requirements: 2,
      done: 1,
      not_done: 1,
      without_tasks: 1,
    });
  });
});
