import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { BurnUpChart } from "./burn-up-chart";
import { DEFAULT_CHART_SIZE } from "./chart-models";
import { EstimateAccuracyChart } from "./estimate-accuracy-chart";
import { FinishDistributionChart } from "./finish-distribution-chart";
import { MIN_CHART_WIDTH, nextChartSize } from "./use-chart-size";

describe("nextChartSize", () => {
  const last = { width: 312, height: 234 };

  it("takes a measured box in whole pixels", () => {
    expect(nextChartSize(DEFAULT_CHART_SIZE, 343.4, 257.55)).toEqual({ width: 343, height: 258 });
    expect(nextChartSize(DEFAULT_CHART_SIZE, 640, 360)).toBe(DEFAULT_CHART_SIZE);
  });

  it("keeps the last size (the same object, so no render) through sub-pixel jitter", () => {
    expect(nextChartSize(last, 312, 234)).toBe(last);
    expect(nextChartSize(last, 311.6, 233.7)).toBe(last);
    expect(nextChartSize(last, 312.4, 234.3)).toBe(last);
    expect(nextChartSize(last, 313.2, 234.9)).toEqual({ width: 313, height: 235 });
    // The 16:9 box of the sm breakpoint up: same width, another height.
    expect(nextChartSize(last, 312, 175.5)).toEqual({ width: 312, height: 176 });
  });

  it("keeps the last size for a box with no size (hidden or not laid out yet)", () => {
    expect(nextChartSize(last, 0, 0)).toBe(last);
    expect(nextChartSize(last, 300, 0)).toBe(last);
    expect(nextChartSize(last, Number.NaN, 200)).toBe(last);
  });

  it("lays a box narrower than the minimum out at the minimum, its shape kept", () => {
    expect(MIN_CHART_WIDTH).toBe(240);
    const small = nextChartSize(last, 200, 150);
    expect(small).toEqual({ width: 240, height: 180 });
    expect(nextChartSize(small, 180, 135)).toBe(small);
  });
});

describe("the charts without a browser", () => {
  // Node has no ResizeObserver, as the server renderer has none: the charts lay out at the default size.
  const render = (element: Parameters<typeof renderToString>[0]) => renderToString(element);

  it("render at 640 x 360 in a box sized by CSS, 4:3 on a phone and 16:9 from sm up", () => {
    expect(typeof ResizeObserver).toBe("undefined");
    const html = render(
      createElement(BurnUpChart, {
        points: [
          { date: "2026-11-23", scope_hours: 10, done_hours: 0, scope_leaves: 2, done_leaves: 0 },
          { date: "2026-11-25", scope_hours: 10, done_hours: 4, scope_leaves: 2, done_leaves: 1 },
        ],
        unit: "hours",
        forecast: { p50Date: "2026-11-27", p90Date: "2026-11-29" },
      }),
    );
    expect(html).toContain('viewBox="0 0 640 360"');
    expect(html).toMatch(/class="relative aspect-\[4\/3\] w-full sm:aspect-video"/);
    expect(html).toContain('role="img"');
    expect(html).toContain("Scope 10 h, done 4 h on Nov 25; forecast finish between Nov 27 and Nov 29.");
  });

  it("render their empty states in the same box", () => {
    const histogram = render(
      createElement(FinishDistributionChart, {
        bins: [],
        p50Days: 0,
        p90Days: 0,
        startDate: "2026-11-27",
        workingDaysToDate: () => "2026-11-27",
      }),
    );
    expect(histogram).toContain('data-testid="finish-distribution-chart-empty"');
    expect(histogram).toMatch(/aspect-\[4\/3\] w-full sm:aspect-video/);
    const accuracy = render(createElement(EstimateAccuracyChart, { points: [] }));
    expect(accuracy).toContain("No finished tasks with actual hours yet");
  });
});
