import { describe, expect, it } from "vitest";
import { isAtLimit, usageSentence } from "./task-usage";

const usage = (used: number, limit: number | null, counts_now: boolean) => ({
  used,
  limit,
  counts_now,
  period: "2026-12",
  resets_at: "2027-01-01T00:00:00.000Z",
});

describe("the monthly allowance on the create form (issue 40)", () => {
  it("stops a project only when its planning would count", () => {
    expect(isAtLimit(usage(10, 10, true))).toBe(true);
    expect(isAtLimit(usage(10, 10, false))).toBe(false);
    expect(isAtLimit(usage(9, 10, true))).toBe(false);
    expect(isAtLimit(usage(50, null, true))).toBe(false);
  });

  it("says what it counts", () => {
    expect(usageSentence(usage(3, 10, true))).toBe("3 of 10 projects planned with a model this month");
    expect(usageSentence(usage(3, null, true))).toBe("Unlimited projects · 3 planned this month");
  });
});
