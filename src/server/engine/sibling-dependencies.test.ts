import { describe, expect, it } from "vitest";
import { plannedRange, siblingDependencies } from "./sibling-dependencies";

describe("siblingDependencies", () => {
  it("keeps a planner's valid numbers as 0-based pairs", () => {
    expect(siblingDependencies([{ depends_on: [] }, { depends_on: [1] }, { depends_on: [1, 2] }])).toEqual([
      [1, 0],
      [2, 0],
      [2, 1],
    ]);
  });

  it("drops numbers outside the list, self references, repeats and pairs that would close a cycle", () => {
    expect(
      siblingDependencies([
        { depends_on: [2] },
        { depends_on: [1, 2, 2, 7, 0] }, // 1 would close 1 <-> 2
        { depends_on: [3, 1, 1] },
        {},
      ]),
    ).toEqual([
      [0, 1],
      [2, 0],
    ]);
    // A longer cycle: 1 waits 2, 2 waits 3, 3 waits 1 (dropped).
    expect(siblingDependencies([{ depends_on: [2] }, { depends_on: [3] }, { depends_on: [1] }])).toEqual([
      [0, 1],
      [1, 2],
    ]);
  });
});

describe("plannedRange", () => {
  it("keeps a planner's range around the likely hours, or gives the rule's", () => {
    expect(plannedRange({ estimated_hours: 8, estimate_low_hours: 5, estimate_high_hours: 13 })).toEqual({
      low: 5,
      high: 13,
    });
    expect(plannedRange({ estimated_hours: 8, estimate_low_hours: 10, estimate_high_hours: 6 })).toEqual({
      low: 8,
      high: 8,
    });
    expect(plannedRange({ estimated_hours: 8 })).toEqual({ low: 6, high: 14 });
  });
});
