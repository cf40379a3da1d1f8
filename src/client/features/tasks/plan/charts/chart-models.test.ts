import { describe, expect, it } from "vitest";
import type { AccuracyPoint, BurnUpPoint, FinishBin } from "../../../../../shared/schemas/actuals";
import {
  type Axes,
  accuracyModel,
  binWidthOf,
  burnUpModel,
  type ChartSize,
  FONT_SIZE,
  formatAmount,
  histogramModel,
  LOG_SCALE_RATIO,
  linePath,
  markerPath,
  textWidth,
} from "./chart-models";
import { dayToIso, parseDay } from "./chart-scale";

/*
 * By default (no size given) every chart lays out for a 640 x 360 box. Burn-up and accuracy plot from x 64 to 608 (544 wide); the
 * burn-up from y 28 to 312 (284 high), the accuracy chart from y 16 to 312 (296 high), the histogram from
 * y 48 to 300 (252 high). The expectations below are worked out from those, rounded to 0.1.
 */

const point = (date: string, scope_hours: number, done_hours: number, scope_leaves = 0, done_leaves = 0) =>
  ({ date, scope_hours, done_hours, scope_leaves, done_leaves }) satisfies BurnUpPoint;

describe("linePath", () => {
  it("joins points into a path, rounded to a tenth", () => {
    expect(linePath([])).toBe("");
    expect(linePath([[1, 2]])).toBe("M1,2");
    expect(
      linePath([
        [64, 312],
        [245.3333, 198.44],
      ]),
    ).toBe("M64,312L245.3,198.4");
  });
});

describe("burnUpModel", () => {
  // Two days 2 days apart, forecasts 2 and 4 days after the last: 6 days over 544 units, 90.67 a day.
  // Hours up to 10: ticks 0, 2 ... 10, so y(10) = 28 and y(4) = 312 - 0.4 x 284 = 198.4.
  const points = [point("2026-11-25", 10, 4), point("2026-11-23", 10, 0)]; // out of order on purpose
  const m = burnUpModel(points, "hours", { p50Date: "2026-11-27", p90Date: "2026-11-29" });

  it("draws scope and done per day, done as a line and an area down to the axis", () => {
    expect(m.empty).toBe(false);
    expect(m.scopePath).toBe("M64,28L245.3,28");
    expect(m.donePath).toBe("M64,312L245.3,198.4");
    expect(m.doneArea).toBe("M64,312L245.3,198.4L245.3,312L64,312Z");
    expect(m.last).toEqual({ x: 245.3, scopeY: 28, doneY: 198.4 });
  });

  it("draws the cone from the last done value to the scope at P50 and at P90, past today", () => {
    expect(m.cone).toBe("M245.3,198.4L426.7,28L608,28Z");
    expect(m.edges).toEqual([
      { label: "P50", path: "M245.3,198.4L426.7,28", x: 423.7, y: 22, anchor: "end" },
      { label: "P90", path: "M245.3,198.4L608,28", x: 611, y: 22, anchor: "start" },
    ]);
    expect(m.scopeProjection).toBe("M245.3,28L608,28");
    // The x axis runs to the P90 date: every other day, as seven daily ticks would be too many.
    expect(m.axes.x.ticks).toEqual([
      { at: 64, label: "Nov 23" },
      { at: 245.3, label: "Nov 25" },
      { at: 426.7, label: "Nov 27" },
      { at: 608, label: "Nov 29" },
    ]);
    expect(m.axes.y.ticks.map((t) => t.label)).toEqual(["0", "2", "4", "6", "8", "10"]);
    expect(m.axes.y.ticks[5]).toEqual({ at: 28, label: "10" });
  });

  it("says what it shows, and tables every plotted value with the forecast", () => {
    expect(m.description).toBe("Scope 10 h, done 4 h on Nov 25; forecast finish between Nov 27 and Nov 29.");
    expect(m.table.columns.map((c) => c.label)).toEqual(["Date", "Scope (hours)", "Done (hours)"]);
    expect(m.table.rows.map((r) => r.cells)).toEqual([
      ["Nov 23", "10", "0"],
      ["Nov 25", "10", "4"],
      ["Nov 27: likely finish (P50 forecast)", "10", "10 (forecast)"],
      ["Nov 29: safe finish (P90 forecast)", "10", "10 (forecast)"],
    ]);
  });

  it("counts tasks in whole ticks with the leaves unit", () => {
    const leaves = burnUpModel([point("2026-11-23", 0, 0, 3, 0), point("2026-11-24", 0, 0, 3, 1)], "leaves", {
      p50Date: null,
      p90Date: null,
    });
    expect(leaves.axes.y.ticks.map((t) => t.label)).toEqual(["0", "1", "2", "3"]);
    expect(leaves.axes.y.title).toBe("Tasks");
    expect(leaves.description).toBe("Scope 3 tasks, done 1 task on Nov 24; no forecast yet.");
    expect(leaves.cone).toBeNull();
    expect(leaves.edges).toEqual([]);
    expect(leaves.scopeProjection).toBeNull();
    expect(leaves.table.rows).toHaveLength(2);
  });

  it("draws one edge and no cone with one forecast date; a date in the past is drawn at the last day", () => {
    const one = burnUpModel([point("2026-11-23", 10, 0), point("2026-11-25", 10, 4)], "hours", {
      p50Date: "2026-11-20",
      p90Date: null,
    });
    expect(one.cone).toBeNull();
    // Two days: the last one is at the right edge, and the edge goes straight up there.
    expect(one.edges).toEqual([{ label: "P50", path: "M608,198.4L608,28", x: 605, y: 22, anchor: "end" }]);
    expect(one.description).toBe("Scope 10 h, done 4 h on Nov 25; forecast finish by Nov 25 (P50).");
  });

  it("draws no cone once done reaches the scope", () => {
    const done = burnUpModel([point("2026-11-23", 10, 2), point("2026-11-25", 10, 10)], "hours", {
      p50Date: "2026-11-27",
      p90Date: "2026-11-29",
    });
    expect(done.cone).toBeNull();
    expect(done.edges).toEqual([]);
    expect(done.description).toBe("Scope 10 h, done 10 h on Nov 25; all of it is done.");
    expect(done.table.rows).toHaveLength(2);
  });

  it("gives one point a day's width, and nothing without points", () => {
    const single = burnUpModel([point("2026-11-27", 6, 1.25)], "hours", { p50Date: null, p90Date: null });
    expect(single.axes.x.ticks.map((t) => t.label)).toEqual(["Nov 27", "Nov 28"]);
    expect(single.last?.x).toBe(64);
    expect(single.description).toBe("Scope 6 h, done 1.3 h on Nov 27; no forecast yet.");

    const empty = burnUpModel([], "hours", { p50Date: "2026-12-01", p90Date: null });
    expect(empty.empty).toBe(true);
    expect(empty.description).toBe("No progress recorded yet.");
    expect(empty.table.rows).toEqual([]);
    expect(empty.table.columns).toHaveLength(3);
  });

  it("formats amounts in their unit", () => {
    expect(formatAmount(12.34, "hours")).toBe("12.3 h");
    expect(formatAmount(1, "leaves")).toBe("1 task");
    expect(formatAmount(1200, "leaves")).toBe("1,200 tasks");
  });
});

describe("histogramModel", () => {
  const start = parseDay("2026-11-27")!;
  // Calendar days stand in for working days here: the chart only formats what the caller returns.
  const workingDaysToDate = (days: number) => dayToIso(start + days);
  const bins: FinishBin[] = [
    { days: 4, runs: 3 },
    { days: 2, runs: 1 },
    { days: 6, runs: 1 },
  ];
  // Bins 2 days wide; x from 0 to 6 days (90.67 a day); runs up to 3 (ticks 0-3, 84 units a run).
  const m = histogramModel({ bins, p50Days: 4, p90Days: 6, startDate: "2026-11-27", workingDaysToDate });

  it("takes the bars' width from the gap between bins", () => {
    expect(binWidthOf(bins)).toBe(2);
    expect(binWidthOf([{ days: 3, runs: 1 }])).toBe(1);
    expect(binWidthOf([])).toBe(1);
  });

  it("draws a bar per bin over (days - width, days], with a hairline between them", () => {
    expect(m.bars.map(({ title: _, ...b }) => b)).toEqual([
      { key: "2", x: 64.5, y: 216, width: 180.3, height: 84 },
      { key: "4", x: 245.8, y: 48, width: 180.3, height: 252 },
      { key: "6", x: 427.2, y: 216, width: 180.3, height: 84 },
    ]);
    expect(m.bars[1]!.title).toBe("2-4 working days (by Dec 1): 3 runs, 60%");
    expect(m.axes.x.ticks.map((t) => t.label)).toEqual(["0", "1", "2", "3", "4", "5", "6"]);
    expect(m.axes.x.ticks[4]).toEqual({ at: 426.7, label: "4", sub: "Dec 1" });
    expect(m.axes.y.ticks.map((t) => t.label)).toEqual(["0", "1", "2", "3"]);
  });

  it("labels P50 left of its line and P90 right of it, turned inwards at the edge", () => {
    expect(m.markers).toEqual([
      { label: "P50", x: 426.7, text: "P50 Dec 1", textX: 422.7, textY: 24, lineTop: 14, anchor: "end" },
      // Right of 608 there is no room for the label: it turns to the left of the line.
      { label: "P90", x: 608, text: "P90 Dec 3", textX: 604, textY: 24, lineTop: 14, anchor: "end" },
    ]);
  });

  it("moves P90's label to a second row when the two would overlap", () => {
    const close = histogramModel({
      bins,
      p50Days: 5.5,
      p90Days: 6,
      startDate: "2026-11-27",
      workingDaysToDate,
    });
    expect(close.markers[1]).toMatchObject({ label: "P90", textY: 40, lineTop: 30, anchor: "end" });
    expect(close.markers[0]).toMatchObject({ label: "P50", textY: 24, anchor: "end" });
  });

  it("says what it shows and tables every bar", () => {
    expect(m.description).toBe(
      "Of 5 simulated runs from Nov 27, half finish within 4 working days (Dec 1) and 9 in 10 within 6 working days (Dec 3).",
    );
    expect(m.table.caption).toBe(
      "Simulated runs by finish time from Nov 27: P50 4 working days (Dec 1), P90 6 working days (Dec 3)",
    );
    expect(m.table.rows.map((r) => r.cells)).toEqual([
      ["0-2", "Nov 29", "1", "20%"],
      ["2-4", "Dec 1", "3", "60%"],
      ["4-6", "Dec 3", "1", "20%"],
    ]);
  });

  it("names one-day bins by their day, and has nothing to draw without runs", () => {
    const daily = histogramModel({
      bins: [
        { days: 3, runs: 2 },
        { days: 4, runs: 2 },
      ],
      p50Days: 3,
      p90Days: 4,
      startDate: "2026-11-27",
      workingDaysToDate,
    });
    expect(daily.table.rows.map((r) => r.cells[0])).toEqual(["3", "4"]);
    expect(daily.description).toBe(
      "Of 4 simulated runs from Nov 27, half finish within 3 working days (Nov 30) and 9 in 10 within 4 working days (Dec 1).",
    );

    const none = histogramModel({
      bins: [],
      p50Days: 0,
      p90Days: 0,
      startDate: "2026-11-27",
      workingDaysToDate,
    });
    expect(none.empty).toBe(true);
    expect(none.description).toBe("No forecast yet.");
    expect(none.bars).toEqual([]);
    const zero = histogramModel({
      bins: [{ days: 2, runs: 0 }],
      p50Days: 2,
      p90Days: 2,
      startDate: "2026-11-27",
      workingDaysToDate,
    });
    expect(zero.empty).toBe(true);
  });
});

describe("accuracyModel", () => {
  const task = (
    task_id: string,
    source: AccuracyPoint["source"],
    estimate_hours: number,
    actual_hours: number,
  ): AccuracyPoint => ({ task_id, title: `Task ${task_id}`, source, estimate_hours, actual_hours });

  // Hours up to 8: ticks 0, 2 ... 8 on both axes; 68 units an hour across, 37 up.
  const m = accuracyModel([task("a", "rule", 4, 6), task("b", "model", 8, 5.5), task("c", "person", 2, 2)]);

  it("draws a marker per task, its shape by source", () => {
    expect(m.scale).toBe("linear");
    expect(m.markers).toEqual([
      {
        key: "a",
        source: "rule",
        path: "M331,90a5,5 0 1,0 10,0a5,5 0 1,0 -10,0Z", // a circle around (336, 90)
        title: "Task a: estimated 4 h, took 6 h (rule)",
      },
      {
        key: "b",
        source: "model",
        path: "M603.5,104h9v9h-9Z", // a square around (608, 108.5)
        title: "Task b: estimated 8 h, took 5.5 h (model)",
      },
      {
        key: "c",
        source: "person",
        path: "M200,232L206,242.5L194,242.5Z", // a triangle around (200, 238)
        title: "Task c: estimated 2 h, took 2 h (person)",
      },
    ]);
    expect(markerPath("rule", 8, 8)).toBe("M3,8a5,5 0 1,0 10,0a5,5 0 1,0 -10,0Z");
  });

  it("draws y = x corner to corner, both axes on one domain", () => {
    expect(m.diagonal).toEqual({ x1: 64, y1: 312, x2: 608, y2: 16 });
    // atan(296 / 544) = 28.55 degrees (tan 28.55 = 0.5440), upwards; a tenth: 28.6.
    expect(m.diagonalLabel.angle).toBe(-28.6);
    expect(m.axes.x.ticks.map((t) => t.label)).toEqual(["0", "2", "4", "6", "8"]);
    expect(m.axes.y.ticks.map((t) => t.at)).toEqual([312, 238, 164, 90, 16]);
    expect(m.axes.x.title).toBe("Estimate, hours");
  });

  it("says what it shows, and tables every task with its source", () => {
    expect(m.description).toBe(
      "3 finished tasks: 1 took longer than estimated, 1 less, 1 as estimated; 14 h estimated and 13.5 h taken in all.",
    );
    expect(m.legend).toEqual([
      { source: "rule", label: "Rule", count: 1 },
      { source: "model", label: "Model", count: 1 },
      { source: "person", label: "Person", count: 1 },
    ]);
    expect(m.table.rows.map((r) => r.cells)).toEqual([
      ["Task a", "Rule", "4", "6"],
      ["Task b", "Model", "8", "5.5"],
      ["Task c", "Person", "2", "2"],
    ]);
  });

  it("turns logarithmic past two decades, with ticks at powers of ten and 0 on the lowest", () => {
    const wide = accuracyModel([
      task("a", "rule", 0.5, 0.25),
      task("b", "person", 120, 300),
      task("c", "model", 2, 0),
    ]);
    expect(wide.scale).toBe("log");
    // 0.25 to 300: the powers from 0.1 to 1,000, four decades over 544 units across.
    expect(wide.axes.x.ticks.map((t) => t.label)).toEqual(["0.1", "1", "10", "100", "1,000"]);
    expect(wide.axes.x.ticks.map((t) => t.at)).toEqual([64, 200, 336, 472, 608]);
    expect(wide.axes.y.title).toBe("Actual, hours, log scale");
    // Task c took 0 h: drawn on the x axis (y 312), at 2 h across (200 + 136 x log10(2) = 240.9).
    expect(wide.markers[2]!.path).toBe("M236.4,307.5h9v9h-9Z");
    expect(wide.description).toBe(
      "3 finished tasks: 1 took longer than estimated, 2 less; 122.5 h estimated and 300.3 h taken in all.",
    );
  });

  it("stays linear at exactly two decades", () => {
    expect(LOG_SCALE_RATIO).toBe(100);
    expect(accuracyModel([task("a", "rule", 1, 100)]).scale).toBe("linear");
    expect(accuracyModel([task("a", "rule", 1, 100.5)]).scale).toBe("log");
  });

  it("has nothing to draw without finished tasks", () => {
    const none = accuracyModel([]);
    expect(none.empty).toBe(true);
    expect(none.description).toBe("No finished tasks with actual hours yet.");
    expect(none.legend.map((l) => l.count)).toEqual([0, 0, 0]);
    expect(none.table.rows).toEqual([]);
  });
});

describe("at any width", () => {
  /*
   * The page lays a chart out at its box's size in CSS pixels: 16:9 from the sm breakpoint up, 4:3 below
   * (a phone's column is about 320 to 360 px wide). Labels keep FONT_SIZE px, so at every size they must
   * stay in the box and clear of one another, by the width the models estimate for them (textWidth).
   */
  const SIZES: ChartSize[] = [
    { width: 320, height: 240 },
    { width: 360, height: 270 },
    { width: 480, height: 270 },
    { width: 640, height: 360 },
    { width: 768, height: 432 },
  ];
  const NARROW = SIZES[0]!;

  /** Every label inside the box and clear of the others; the x and y titles too. */
  function expectReadable(axes: Axes) {
    const { size, plot, x, y } = axes;
    expect(x.ticks.length).toBeGreaterThanOrEqual(2);
    expect(y.ticks.length).toBeGreaterThanOrEqual(2);
    // x labels: centred under their tick, as wide as the wider of their lines, left to right.
    const spans = x.ticks.map((t) => {
      const w = Math.max(textWidth(t.label), textWidth(t.sub ?? ""));
      return [t.at - w / 2, t.at + w / 2] as const;
    });
    for (const [a, b] of spans) {
      expect(a).toBeGreaterThanOrEqual(0);
      expect(b).toBeLessThanOrEqual(size.width);
    }
    for (let i = 1; i < spans.length; i++) expect(spans[i]![0]).toBeGreaterThan(spans[i - 1]![1]);
    // Their baselines (16 px under the plot, the second line 14 px lower) and the title's, above the edge.
    const lastLine = plot.bottom + 16 + (x.ticks.some((t) => t.sub) ? FONT_SIZE + 2 : 0);
    expect(lastLine).toBeLessThanOrEqual(size.height - 4);
    if (x.title) {
      expect(lastLine + FONT_SIZE).toBeLessThanOrEqual(size.height - 8);
      const mid = (plot.left + plot.right) / 2;
      expect(textWidth(x.title) / 2).toBeLessThanOrEqual(Math.min(mid, size.width - mid));
    }
    // y labels: ending 8 px left of the plot, clear of the rotated title (x 8 to 20), a line apart.
    for (const t of y.ticks) {
      expect(plot.left - 8 - textWidth(t.label)).toBeGreaterThanOrEqual(20);
      expect(t.at - FONT_SIZE / 2).toBeGreaterThanOrEqual(0);
      expect(t.at + FONT_SIZE / 2).toBeLessThanOrEqual(size.height);
    }
    const ys = y.ticks.map((t) => t.at).sort((a, b) => a - b);
    for (let i = 1; i < ys.length; i++) expect(ys[i]! - ys[i - 1]!).toBeGreaterThan(FONT_SIZE);
    const middle = (plot.top + plot.bottom) / 2;
    expect(textWidth(y.title) / 2).toBeLessThanOrEqual(Math.min(middle, size.height - middle));
    // The plot fills the box, with margins in px.
    expect(plot.right).toBe(size.width - 32);
  }

  // Seven weeks of a plan of about 1,000 hours, with a forecast two months out.
  const first = parseDay("2026-11-02")!;
  const days = Array.from({ length: 40 }, (_, i) => point(dayToIso(first + i), 1000 + 6 * i, 20 * i));
  const forecast = { p50Date: "2027-01-20", p90Date: "2027-02-10" };
  // A finish distribution of 26 bins from 20 to 70 working days, the days ending 1.4 calendar days apart.
  const today = parseDay("2026-11-27")!;
  const histogramInput = {
    bins: Array.from({ length: 26 }, (_, i) => ({
      days: 20 + 2 * i,
      runs: Math.round(800 * Math.exp(-(((i - 10) / 5) ** 2))),
    })),
    p50Days: 40,
    p90Days: 52,
    startDate: "2026-11-27",
    workingDaysToDate: (d: number) => dayToIso(today + Math.round(1.4 * d)),
  };
  const task = (task_id: string, estimate_hours: number, actual_hours: number): AccuracyPoint => ({
    task_id,
    title: `Task ${task_id}`,
    source: "model",
    estimate_hours,
    actual_hours,
  });
  const linear = [task("a", 12, 30), task("b", 40, 25), task("c", 8, 8)];
  // 0.25 h to 3,000 h: five decades on a log scale.
  const log = [task("a", 0.5, 0.25), task("b", 120, 3000), task("c", 2, 0)];

  it.each(SIZES)("keeps the burn-up's labels in a $width x $height box and apart", (size) => {
    expectReadable(burnUpModel(days, "hours", forecast, size).axes);
    expectReadable(burnUpModel(days, "leaves", forecast, size).axes);
    // Two days only: the narrowest span of dates.
    expectReadable(burnUpModel(days.slice(0, 2), "hours", { p50Date: null, p90Date: null }, size).axes);
    const m = burnUpModel(days, "hours", forecast, size);
    for (const e of m.edges) {
      const w = textWidth(e.label);
      expect(e.anchor === "end" ? e.x - w : e.x).toBeGreaterThanOrEqual(0);
      expect(e.anchor === "end" ? e.x : e.x + w).toBeLessThanOrEqual(size.width);
    }
  });

  it.each(SIZES)("keeps the histogram's labels and P50/P90 markers in a $width x $height box", (size) => {
    const m = histogramModel(histogramInput, size);
    expectReadable(m.axes);
    for (const mk of m.markers) {
      const w = textWidth(mk.text);
      expect(mk.anchor === "end" ? mk.textX - w : mk.textX).toBeGreaterThanOrEqual(0);
      expect(mk.anchor === "end" ? mk.textX : mk.textX + w).toBeLessThanOrEqual(size.width);
      expect(mk.textY - FONT_SIZE).toBeGreaterThanOrEqual(0);
    }
    // P50 and P90 close together at the right end: still in the box, on two rows if they would meet.
    const close = histogramModel({ ...histogramInput, p50Days: 68, p90Days: 70 }, size);
    const [p50, p90] = close.markers.map((mk) => {
      const w = textWidth(mk.text);
      return {
        ...mk,
        from: mk.anchor === "end" ? mk.textX - w : mk.textX,
        to: mk.anchor === "end" ? mk.textX : mk.textX + w,
      };
    });
    expect(p50!.from).toBeGreaterThanOrEqual(0);
    expect(p90!.to).toBeLessThanOrEqual(size.width);
    if (p50!.textY === p90!.textY) expect(p50!.to < p90!.from || p90!.to < p50!.from).toBe(true);
  });

  it.each(SIZES)("keeps the accuracy chart's labels in a $width x $height box, linear or log", (size) => {
    expectReadable(accuracyModel(linear, size).axes);
    const wide = accuracyModel(log, size);
    expect(wide.scale).toBe("log");
    expectReadable(wide.axes);
  });

  it("puts fewer ticks on a narrow axis, about one every 90 px across and 50 px up", () => {
    const wide = burnUpModel(days, "hours", forecast, { width: 768, height: 432 });
    const narrow = burnUpModel(days, "hours", forecast, NARROW);
    expect(narrow.axes.y.ticks.length).toBeLessThan(wide.axes.y.ticks.length);
    // 0 to 1,234 h in 164 px: 500 h a tick; in 356 px, 200 h.
    expect(narrow.axes.y.ticks.map((t) => t.label)).toEqual(["0", "500", "1,000", "1,500"]);
    expect(narrow.axes.x.ticks.map((t) => t.label)).toEqual(["Dec", "Jan 2027", "Feb"]);

    const h = histogramModel(histogramInput, NARROW);
    // 224 px across: ticks every 20 days (0 to 80), not every 10 as at 640 px.
    expect(h.axes.x.ticks.map((t) => t.label)).toEqual(["0", "20", "40", "60", "80"]);
    expect(histogramModel(histogramInput).axes.x.ticks.map((t) => t.label)).toEqual([
      "10",
      "20",
      "30",
      "40",
      "50",
      "60",
      "70",
    ]);
    // 132 px up: 0, 500, 1,000 runs.
    expect(h.axes.y.ticks.map((t) => t.label)).toEqual(["0", "500", "1,000"]);
  });

  it("lays the plot out in px: the same margins, the box's size, the bars and lines within it", () => {
    const m = burnUpModel(days, "hours", forecast, { width: 360, height: 270 });
    expect(m.axes.size).toEqual({ width: 360, height: 270 });
    expect(m.axes.plot).toEqual({ left: 64, right: 328, top: 28, bottom: 222 });
    // The cone reaches the scope at the P90 date, the axis' end.
    expect(m.cone).toMatch(/L328,[\d.]+Z$/);

    const h = histogramModel(histogramInput, { width: 360, height: 270 });
    expect(h.axes.plot).toEqual({ left: 64, right: 328, top: 48, bottom: 210 });
    for (const b of h.bars) {
      expect(b.x).toBeGreaterThanOrEqual(64);
      expect(b.x + b.width).toBeLessThanOrEqual(328.1);
      expect(b.y + b.height).toBeCloseTo(210, 5);
    }

    // A y label as wide as "10,000" widens the left margin past 64 px.
    const a = accuracyModel(log, { width: 360, height: 270 });
    expect(a.axes.y.ticks.map((t) => t.label)).toContain("10,000");
    expect(a.axes.plot.left).toBe(72);
    expect(a.diagonal).toEqual({ x1: 72, y1: 222, x2: 328, y2: 16 });
  });

  it("shortens the axis titles that do not fit, and only those", () => {
    const narrow = histogramModel(histogramInput, NARROW);
    expect(narrow.axes.x.title).toBe("Working days from Nov 27");
    expect(histogramModel(histogramInput).axes.x.title).toBe(
      "Working days from Nov 27 (and the date they end on)",
    );
    // A 4:3 box too short for "Actual, hours, log scale" up the side.
    const short = accuracyModel(log, { width: 240, height: 180 });
    expect(short.axes.y.title).toBe("Actual, h (log)");
    expectReadable(short.axes);
  });

  it("says and tables the same at every size", () => {
    const at = (size: ChartSize) => {
      const b = burnUpModel(days, "hours", forecast, size);
      const h = histogramModel(histogramInput, size);
      const a = accuracyModel(log, size);
      return [b.description, b.table, h.description, h.table, a.description, a.table, a.legend];
    };
    const reference = at({ width: 640, height: 360 });
    for (const size of SIZES) expect(at(size)).toEqual(reference);
  });
});
