import { describe, expect, it } from "vitest";
import { planStateOf, projectStatsGroup, workStateOf, workStatusOf } from "./work-state";

describe("a project's two states", () => {
  it("reads the plan's from the root's status: completed means planned", () => {
    expect(planStateOf("completed")).toBe("planned");
    expect(planStateOf("in_progress")).toBe("planned");
    expect(planStateOf("processing")).toBe("planning");
    expect(planStateOf("submitted")).toBe("awaiting_approval");
    expect(planStateOf("awaiting_review")).toBe("reading_review");
    expect(planStateOf("pending")).toBe("queued");
    expect(planStateOf("failed")).toBe("failed");
    expect(planStateOf("rejected")).toBe("rejected");
  });

  it("reads the work's from the leaves", () => {
    expect(workStateOf({ leaves_done: 0, leaves_total: 7 })).toBe("not_started");
    expect(workStateOf({ leaves_done: 0, leaves_total: 7 }, true)).toBe("in_progress");
    expect(workStateOf({ leaves_done: 3, leaves_total: 7 })).toBe("in_progress");
    expect(workStateOf({ leaves_done: 7, leaves_total: 7 })).toBe("done");
    expect(workStateOf({ leaves_done: 0, leaves_total: 0 })).toBe("not_started");
  });

  it("shows a group's status by its leaves, a leaf's by its own", () => {
    const rollup = (done: number, total: number) => ({ leaves_done: done, leaves_total: total });
    expect(workStatusOf({ status: "completed", children_count: 2, rollup: rollup(0, 2) })).toBe("pending");
    expect(workStatusOf({ status: "completed", children: [{}, {}], rollup: rollup(1, 2) })).toBe(
      "in_progress",
    );
    expect(workStatusOf({ status: "completed", children_count: 2, rollup: rollup(2, 2) })).toBe("completed");
    expect(workStatusOf({ status: "in_progress", children: [], rollup: null })).toBe("in_progress");
  });

  it("counts a project on the dashboard by its work", () => {
    expect(projectStatsGroup("planned", "not_started")).toBe("pending");
    expect(projectStatsGroup("planned", "in_progress")).toBe("in_progress");
    expect(projectStatsGroup("planned", "done")).toBe("completed");
    expect(projectStatsGroup("planning", "not_started")).toBe("pending");
    expect(projectStatsGroup("failed", "not_started")).toBe("failed");
  });
});
