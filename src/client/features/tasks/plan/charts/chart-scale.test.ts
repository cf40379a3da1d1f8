import { describe, expect, it } from "vitest";
import {
  dateTicks,
  dayToIso,
  formatDay,
  formatHours,
  formatNumber,
  formatPercent,
  formatTick,
  linearScale,
  logScale,
  logTicks,
  niceStep,
  niceTicks,
  parseDay,
} from "./chart-scale";

describe("scales", () => {
  it("maps a domain linearly onto a range, flipped when the range runs upwards", () => {
    expect(linearScale([0, 10], [0, 100])(2.5)).toBe(25);
    expect(linearScale([0, 10], [300, 0])(5)).toBe(150);
    expect(linearScale([20, 40], [64, 608])(30)).toBe(336);
    expect(linearScale([5, 5], [10, 90])(5)).toBe(10);
  });

  it("maps powers of ten evenly on a log scale, and draws 0 at the domain's start", () => {
    const s = logScale([1, 1000], [0, 300]);
    expect(s(10)).toBeCloseTo(100, 9);
    expect(s(100)).toBeCloseTo(200, 9);
    expect(s(0)).toBe(0);
    expect(s(-3)).toBe(0);
  });
});

describe("nice ticks", () => {
  it("picks 1, 2 or 5 times a power of ten, the nearest to span / count", () => {
    expect(niceStep(120, 5)).toBe(20); // raw 24: 2.4 x 10 is past sqrt(2), short of sqrt(10)
    expect(niceStep(7, 5)).toBe(1); // raw 1.4, short of sqrt(2)
    expect(niceStep(1, 5)).toBeCloseTo(0.2, 12);
    expect(niceStep(0.3, 5)).toBeCloseTo(0.05, 12); // raw 0.06: 6 x 0.01 is past sqrt(10)
    expect(niceStep(44.7, 5)).toBe(10); // raw 8.94 is past sqrt(50): the next power
    expect(niceStep(0.5, 5, true)).toBe(1);
  });

  it("covers the range with multiples of the step, widened to the first and last", () => {
    expect(niceTicks(0, 120, 5)).toEqual({
      ticks: [0, 20, 40, 60, 80, 100, 120],
      min: 0,
      max: 120,
      step: 20,
    });
    expect(niceTicks(0, 44.7, 5)).toMatchObject({ ticks: [0, 10, 20, 30, 40, 50], max: 50 });
    expect(niceTicks(16, 34, 6, true).ticks).toEqual([16, 18, 20, 22, 24, 26, 28, 30, 32, 34]);
    expect(niceTicks(3, 17, 5).ticks).toEqual([2, 4, 6, 8, 10, 12, 14, 16, 18]); // raw 2.8: step 2
  });

  it("writes decimal ticks exactly (0.3, not 0.30000000000000004)", () => {
    expect(niceTicks(0, 0.3, 3).ticks).toEqual([0, 0.1, 0.2, 0.3]);
  });

  it("widens a range of one value to run from 0, with whole steps when asked", () => {
    expect(niceTicks(0, 0).ticks).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
    expect(niceTicks(0, 0, 5, true).ticks).toEqual([0, 1]);
    expect(niceTicks(7, 7).ticks).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it("puts log ticks on the powers of ten around the range", () => {
    expect(logTicks(0.5, 120).ticks).toEqual([0.1, 1, 10, 100, 1000]);
    expect(logTicks(10, 100).ticks).toEqual([10, 100]);
    expect(logTicks(3, 7)).toEqual({ ticks: [1, 10], min: 1, max: 10, step: 10 });
  });
});

describe("number formatting", () => {
  it("groups thousands and keeps at most one decimal", () => {
    expect(formatNumber(1234.56)).toBe("1,234.6");
    expect(formatNumber(2)).toBe("2");
    expect(formatNumber(-0.01)).toBe("0");
    expect(formatNumber(2.345, 2)).toBe("2.35");
    expect(formatHours(2.25)).toBe("2.3 h");
    expect(formatHours(1200)).toBe("1,200 h");
    expect(formatPercent(0.134)).toBe("13.4%");
    expect(formatPercent(1 / 3)).toBe("33.3%");
  });

  it("writes a tick with the decimals its step needs", () => {
    expect(formatTick(0.2, 0.2)).toBe("0.2");
    expect(formatTick(1000, 200)).toBe("1,000");
    expect(formatTick(0.05, 0.05)).toBe("0.05");
    expect(formatTick(0.01, 0.01)).toBe("0.01");
  });
});

describe("dates", () => {
  it("counts UTC days from 1970-01-01 and back", () => {
    expect(parseDay("1970-01-02")).toBe(1);
    // 56 years with 14 leap days to 2026-01-01, then 304 days to Nov 1 and 26 more.
    expect(parseDay("2026-11-27")).toBe(56 * 365 + 14 + 304 + 26);
    expect(dayToIso(20784)).toBe("2026-11-27");
    expect(parseDay("2026-02-30")).toBeNull();
    expect(parseDay("27/11/2026")).toBeNull();
  });

  it("labels a day in English, in UTC", () => {
    expect(formatDay("2026-11-27")).toBe("Nov 27");
    expect(formatDay(0)).toBe("Jan 1");
    expect(formatDay("soon")).toBe("soon");
  });

  it("ticks every day over a short range", () => {
    const start = parseDay("2026-11-27")!;
    expect(dateTicks(start, start + 3).map((t) => t.label)).toEqual(["Nov 27", "Nov 28", "Nov 29", "Nov 30"]);
    expect(dateTicks(start, start + 8).map((t) => t.label)).toEqual([
      "Nov 27",
      "Nov 29",
      "Dec 1",
      "Dec 3",
      "Dec 5",
    ]);
  });

  it("ticks on Mondays, every week or two, over some weeks", () => {
    // Sunday Nov 8, 2026 to Wednesday Jan 6, 2027: 59 days, 9 weekly ticks are too many, 5 fortnightly fit.
    const ticks = dateTicks(parseDay("2026-11-08")!, parseDay("2027-01-06")!);
    expect(ticks.map((t) => t.label)).toEqual(["Nov 9", "Nov 23", "Dec 7", "Dec 21", "Jan 4"]);
    expect(ticks[0]!.day).toBe(parseDay("2026-11-09"));
    expect(dateTicks(parseDay("2026-11-08")!, parseDay("2026-12-10")!).map((t) => t.label)).toEqual([
      "Nov 9",
      "Nov 16",
      "Nov 23",
      "Nov 30",
      "Dec 7",
    ]);
  });

  it("ticks on the first of the month over months, January with its year", () => {
    // Eleven month starts are too many; every other month (March, May...) gives five.
    expect(dateTicks(parseDay("2026-01-15")!, parseDay("2026-12-20")!).map((t) => t.label)).toEqual([
      "Mar",
      "May",
      "Jul",
      "Sep",
      "Nov",
    ]);
    expect(dateTicks(parseDay("2026-10-01")!, parseDay("2027-06-30")!).map((t) => t.label)).toEqual([
      "Nov",
      "Jan 2027",
      "Mar",
      "May",
    ]);
  });
});
