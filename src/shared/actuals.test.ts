import { describe, expect, it } from "vitest";
import {
  chooseCalibration,
  defaultActualHours,
  median,
  ratioSummary,
  usableSamples,
  workingHours,
} from "./actuals";

const at = (iso: string) => new Date(iso);

describe("working time", () => {
  it("counts the time elapsed within one weekday", () => {
    // Wednesday 2026-11-25, 10:00 to 13:30 UTC.
    expect(workingHours(at("2026-11-25T10:00:00Z"), at("2026-11-25T13:30:00Z"))).toBe(3.5);
  });

  it("counts at most a focused day (6 h) per weekday and nothing on weekends", () => {
    // Friday 16:00 to Tuesday 11:00: Friday 8 h elapsed -> 6, Sat and Sun 0, Monday 24 -> 6, Tuesday 11 -> 6.
    expect(workingHours(at("2026-11-27T16:00:00Z"), at("2026-12-01T11:00:00Z"))).toBe(18);
    // Saturday to Sunday: no working time at all.
    expect(workingHours(at("2026-11-28T09:00:00Z"), at("2026-11-29T18:00:00Z"))).toBeNull();
  });

  it("is unknown without a start, for a finish before the start, or for a click-through", () => {
    expect(workingHours(null, at("2026-11-25T10:00:00Z"))).toBeNull();
    expect(workingHours(at("2026-11-25T10:00:00Z"), at("2026-11-25T09:00:00Z"))).toBeNull();
    // Two minutes between start and done measures nothing.
    expect(workingHours(at("2026-11-25T10:00:00Z"), at("2026-11-25T10:02:00Z"))).toBeNull();
    // Ten minutes does.
    expect(workingHours(at("2026-11-25T10:00:00Z"), at("2026-11-25T10:10:00Z"))).toBe(0.17);
  });

  it("caps the default at four times the pessimistic estimate, or the default range's", () => {
    // Two full weeks open (10 weekdays x 6 h = 60 h) on a leaf estimated at most 4 h: 16 h.
    const start = at("2026-11-16T00:00:00Z");
    const end = at("2026-11-28T00:00:00Z");
    expect(workingHours(start, end)).toBe(60);
    expect(defaultActualHours(start, end, 4)).toBe(16);
    // Unestimated: the default range's high end (12 h) times four.
    expect(defaultActualHours(start, end, null)).toBe(48);
    expect(defaultActualHours(at("2026-11-25T10:00:00Z"), at("2026-11-25T12:00:00Z"), 4)).toBe(2);
  });
});

describe("calibration", () => {
  const sample = (source: string, likely: number, actual: number) => ({ source, likely, actual });

  it("summarises the median ratio of actual to likely hours", () => {
    expect(median([])).toBeNull();
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    // Ratios 2, 1.5, 0.5 and 3 (the zero-hour estimate is left out): median (1.5 + 2) / 2.
    expect(
      ratioSummary([
        sample("model", 2, 4),
        sample("model", 4, 6),
        sample("rule", 8, 4),
        sample("rule", 1, 3),
        sample("rule", 0, 3),
      ]),
    ).toEqual({ samples: 4, ratio_p50: 1.75 });
    expect(usableSamples([sample("rule", 0, 1), sample("rule", 1, Number.NaN)])).toEqual([]);
  });

  it("uses the plan's own history from five samples, else the owner's, else none", () => {
    const four = [1, 2, 3, 4].map((n) => sample("model", n, 2 * n));
    const five = [...four, sample("model", 5, 10)];
    const user = [1, 2, 3, 4, 5, 6].map((n) => sample("rule", n, 3 * n));
    expect(chooseCalibration(five, user).scope).toBe("plan");
    expect(chooseCalibration(five, user).ratiosFor("model")).toEqual([2, 2, 2, 2, 2]);
    expect(chooseCalibration(four, user).scope).toBe("user");
    expect(chooseCalibration(four, user).ratiosFor("rule")).toEqual([3, 3, 3, 3, 3, 3]);
    expect(chooseCalibration(four, four).scope).toBe("none");
    expect(chooseCalibration(four, four).ratiosFor("model")).toEqual([]);
  });

  it("draws a leaf's ratio from its own estimate source when that has five samples, else from all", () => {
    const plan = [
      ...[1, 2, 3, 4, 5].map((n) => sample("model", n, 2 * n)),
      sample("person", 2, 2),
      sample("person", 4, 4),
    ];
    const chosen = chooseCalibration(plan, []);
    expect(chosen.ratiosFor("model")).toEqual([2, 2, 2, 2, 2]);
    // Two person samples are too few on their own: all seven ratios.
    expect(chosen.ratiosFor("person")).toEqual([2, 2, 2, 2, 2, 1, 1]);
    expect(chosen.ratiosFor(null)).toEqual([2, 2, 2, 2, 2, 1, 1]);
  });
});
