import { describe, expect, it } from "vitest";
import { isAtomic } from "./atomicity";

describe("atomicity: complexity_score <= complexity_threshold x 10, or max_depth reached", () => {
  const opts = { maxDepth: 4, threshold: 0.7 };
  it("never treats the root as atomic", () => {
    expect(isAtomic({ depth: 0, complexityScore: 1 }, opts)).toBe(false);
  });
  it("splits scores above the threshold and keeps the rest", () => {
    expect(isAtomic({ depth: 1, complexityScore: 8 }, opts)).toBe(false);
    expect(isAtomic({ depth: 1, complexityScore: 7 }, opts)).toBe(true);
    expect(isAtomic({ depth: 2, complexityScore: 5 }, { maxDepth: 4, threshold: 0.5 })).toBe(true);
    expect(isAtomic({ depth: 2, complexityScore: 6 }, { maxDepth: 4, threshold: 0.5 })).toBe(false);
    expect(isAtomic({ depth: 1, complexityScore: 10 }, { maxDepth: 4, threshold: 1 })).toBe(true);
    expect(isAtomic({ depth: 1, complexityScore: 1 }, { maxDepth: 4, threshold: 0 })).toBe(false);
  });
  it("stops at max_depth whatever the score", () => {
    expect(isAtomic({ depth: 4, complexityScore: 10 }, opts)).toBe(true);
    expect(isAtomic({ depth: 3, complexityScore: 10 }, opts)).toBe(false);
  });
  it("is exact at fractional thresholds (0.3 x 10 is 3, not 3.0000000000000004)", () => {
    expect(isAtomic({ depth: 1, complexityScore: 3 }, { maxDepth: 4, threshold: 0.3 })).toBe(true);
  });
});

describe("atomicity is defined in time: a leaf is at most about two developer-days", () => {
  const opts = { maxDepth: 4, threshold: 0.7 };
  it("splits a low-scored node whose estimate is over 16 hours", () => {
    expect(isAtomic({ depth: 1, complexityScore: 3, estimatedHours: 40 }, opts)).toBe(false);
    expect(isAtomic({ depth: 1, complexityScore: 3, estimatedHours: 16 }, opts)).toBe(true);
    expect(isAtomic({ depth: 1, complexityScore: 3, estimatedHours: null }, opts)).toBe(true);
  });
  it("still stops at max_depth", () => {
    expect(isAtomic({ depth: 4, complexityScore: 3, estimatedHours: 200 }, opts)).toBe(true);
  });
});
