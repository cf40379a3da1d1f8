import type { AccuracyPoint, BurnUpPoint, FinishBin } from "../../../../../shared/schemas/actuals";
import {
  dateTicks,
  formatDay,
  formatHours,
  formatNumber,
  formatPercent,
  formatTick,
  linearScale,
  logScale,
  logTicks,
  type NiceTicks,
  niceTicks,
  parseDay,
  type Scale,
} from "./chart-scale";

/**
 * What the Plan tab's charts draw (issue 33), computed from their data: coordinates in a box of the size the
 * page gives the chart, ticks, the summary sentence and the rows of the table that stands in for the
 * picture. Pure and deterministic (no clock: "today" comes in as data), so the components only render.
 *
 * The box is measured in CSS pixels and the SVG's viewBox is that box, so a unit is a pixel and 12-unit
 * labels read at 12 px on a phone as on a desktop. Margins are in pixels; the number of ticks follows the
 * room there is, and labels are checked against one another and the box's edges with an estimate of their
 * width (textWidth). The description and the table do not depend on the size.
 */

/** A chart's box, in CSS pixels (= viewBox units). */
export type ChartSize = { width: number; height: number };
/** The size laid out before the page has measured the box (and on the server): 16:9. */
export const CHART_WIDTH = 640;
export const CHART_HEIGHT = 360;
export const DEFAULT_CHART_SIZE: ChartSize = { width: CHART_WIDTH, height: CHART_HEIGHT };
/** Axis and marker labels, in px. */
export const FONT_SIZE = 12;

/** About one x tick per this many px of plot, and one y tick per this many. */
const X_TICK_SPACING = 90;
const Y_TICK_SPACING = 50;
/** The least room between two labels, in px. */
const LABEL_GAP = 8;

/** The plotting area inside the box, in viewBox coordinates. */
export type Plot = { left: number; right: number; top: number; bottom: number };
/** A tick: where it is drawn (x or y in the box), its label and an optional second line. */
export type AxisTick = { at: number; label: string; sub?: string };
export type Axes = {
  /** The box the axes are drawn in (the SVG's viewBox). */
  size: ChartSize;
  plot: Plot;
  x: { ticks: AxisTick[]; title: string | null };
  y: { ticks: AxisTick[]; title: string };
};

/** The table that holds every plotted value. The first cell of a row is its header. */
export type ChartTable = {
  caption: string;
  columns: { label: string; numeric?: boolean }[];
  rows: { key: string; cells: string[] }[];
};

/** About how wide a label is at FONT_SIZE, in px (a little wider than the average glyph). */
export const textWidth = (text: string) => text.length * FONT_SIZE * 0.6;

/** Where an x tick's label reaches, left to right: centred on the tick, as wide as its wider line. */
function xLabelExtent(t: AxisTick): [number, number] {
  const half = Math.max(textWidth(t.label), textWidth(t.sub ?? "")) / 2;
  return [t.at - half, t.at + half];
}

/** Where a y tick's label reaches, top to bottom: one line centred on the tick. */
function yLabelExtent(t: AxisTick): [number, number] {
  return [t.at - FONT_SIZE / 2, t.at + FONT_SIZE / 2];
}

type Extent = (t: AxisTick) => [number, number];

/** Whether labels stay within [0, limit] along their axis and LABEL_GAP clear of one another. */
function labelsFit(ticks: readonly AxisTick[], extent: Extent, limit: number): boolean {
  const spans = ticks.map(extent).sort((a, b) => a[0] - b[0]);
  return spans.every(([a, b], i) => a >= 0 && b <= limit && (i === 0 || a >= spans[i - 1]![1] + LABEL_GAP));
}

/** The labels that fit, taken in turn along the axis: the last resort when even the fewest ticks crowd. */
function thinLabels(ticks: readonly AxisTick[], extent: Extent, limit: number): AxisTick[] {
  const kept = new Set<AxisTick>();
  let end = Number.NEGATIVE_INFINITY;
  for (const t of [...ticks].sort((a, b) => extent(a)[0] - extent(b)[0])) {
    const [a, b] = extent(t);
    if (a >= 0 && b <= limit && a >= end + LABEL_GAP) {
      kept.add(t);
      end = b;
    }
  }
  return ticks.filter((t) => kept.has(t));
}

/** How many ticks a stretch of `length` px has room for, at `spacing` px apart: 2 at least. */
const tickCount = (length: number, spacing: number) => Math.max(2, Math.floor(length / spacing));

/**
 * The layout of an axis with the most ticks, from `count` down, whose labels fit; below 2, the layout of
 * one tick asked for, with whatever labels still collide left out (`thin`).
 */
function fitAxis<T>(
  count: number,
  layout: (count: number) => T,
  fits: (l: T) => boolean,
  thin: (l: T) => T,
): T {
  for (let n = count; n >= 2; n--) {
    const l = layout(n);
    if (fits(l)) return l;
  }
  return thin(layout(1));
}

/** The first of some titles, longest first, that fits in `room` px; the last one if none does. */
function fittingTitle(room: number, ...titles: string[]): string {
  return titles.find((t) => textWidth(t) <= room) ?? titles[titles.length - 1]!;
}

/** Room for a title centred at `at` on an axis `limit` long. */
const roomAround = (at: number, limit: number) => 2 * Math.min(at, limit - at);

/**
 * The plot inside a box: `top` and `bottom` px kept for labels; at the left, room for the widest y label,
 * its gap and the rotated y title (at least 64 px: "1,000" fits); at the right, 32 px for half of the last
 * x label.
 */
function plotBox(size: ChartSize, top: number, bottom: number, yTicks: readonly AxisTick[]): Plot {
  const widest = Math.max(0, ...yTicks.map((t) => textWidth(t.label)));
  return {
    left: Math.max(64, Math.ceil(28 + widest)),
    right: size.width - 32,
    top,
    bottom: size.height - bottom,
  };
}

/** One decimal of a viewBox unit is finer than a pixel at any size the page draws. */
const r1 = (n: number) => Math.round(n * 10) / 10;

/**
 * A value axis up the plot from 0 to `max`: about a tick every Y_TICK_SPACING px, as many as fit, and the
 * scale onto [bottom, top].
 */
function valueAxis(max: number, integer: boolean, top: number, bottom: number, height: number) {
  return fitAxis(
    tickCount(bottom - top, Y_TICK_SPACING),
    (n) => {
      const ticks = niceTicks(0, max, n, integer);
      const scale = linearScale([ticks.min, ticks.max], [bottom, top]);
      return { ticks, scale, labels: valueTicks(ticks, scale) };
    },
    (l) => labelsFit(l.labels, yLabelExtent, height),
    (l) => ({ ...l, labels: thinLabels(l.labels, yLabelExtent, height) }),
  );
}

/** An SVG path through some points ("M1,2L3,4"); "" for none. */
export function linePath(points: readonly (readonly [number, number])[]): string {
  return points.map(([x, y], i) => `${i === 0 ? "M" : "L"}${r1(x)},${r1(y)}`).join("");
}

const plural = (n: number, one: string, many: string) => `${formatNumber(n)} ${n === 1 ? one : many}`;

// ---- burn-up -------------------------------------------------------------------------------------

export type BurnUpUnit = "hours" | "leaves";
export type BurnUpForecast = { p50Date: string | null; p90Date: string | null };

/** One edge of the forecast cone: from the last done value to the scope, reached at the edge's date. */
export type ConeEdge = { label: "P50" | "P90"; path: string; x: number; y: number; anchor: "start" | "end" };

export type BurnUpModel = {
  empty: boolean;
  description: string;
  axes: Axes;
  scopePath: string;
  donePath: string;
  /** The done line closed down to the x axis. */
  doneArea: string;
  /** The scope held level from the last day to the last forecast date (the forecast assumes no change). */
  scopeProjection: string | null;
  /** The shaded area between the P50 and P90 edges; null unless both dates are known. */
  cone: string | null;
  edges: ConeEdge[];
  /** The last day's values, marked on the chart. */
  last: { x: number; scopeY: number; doneY: number } | null;
  table: ChartTable;
};

/** A burn-up figure in its unit: "45 h", "12 tasks" (a leaf is a task the team works on). */
export function formatAmount(value: number, unit: BurnUpUnit): string {
  return unit === "hours" ? formatHours(value) : plural(value, "task", "tasks");
}

const EMPTY_AXES = (size: ChartSize, plot: Plot, yTitle: string): Axes => ({
  size,
  plot,
  x: { ticks: [], title: null },
  y: { ticks: [], title: yTitle },
});

/**
 * The burn-up: scope and done per day, and the forecast cone from the last day's done value up to the
 * scope, reached at the P50 date on one edge and at the P90 date on the other. Forecast dates past the last
 * day extend the x axis. No cone once done reaches scope. Laid out for a box of `size` px.
 */
export function burnUpModel(
  input: readonly BurnUpPoint[],
  unit: BurnUpUnit,
  forecast: BurnUpForecast,
  size: ChartSize = DEFAULT_CHART_SIZE,
): BurnUpModel {
  const top = 28;
  const bottom = 48;
  const yTitle = unit === "hours" ? "Hours" : "Tasks";
  const unitLabel = unit === "hours" ? "hours" : "tasks";
  const columns: ChartTable["columns"] = [
    { label: "Date" },
    { label: `Scope (${unitLabel})`, numeric: true },
    { label: `Done (${unitLabel})`, numeric: true },
  ];
  const caption = `Scope and done work by day, in ${unitLabel}`;
  const points = input
    .map((p) => ({ p, day: parseDay(p.date) }))
    .filter((e): e is { p: BurnUpPoint; day: number } => e.day !== null)
    .sort((a, b) => a.day - b.day);
  if (points.length === 0) {
    return {
      empty: true,
      description: "No progress recorded yet.",
      axes: EMPTY_AXES(size, plotBox(size, top, bottom, []), yTitle),
      scopePath: "",
      donePath: "",
      doneArea: "",
      scopeProjection: null,
      cone: null,
      edges: [],
      last: null,
      table: { caption, columns, rows: [] },
    };
  }
  const scopeOf = (p: BurnUpPoint) => (unit === "hours" ? p.scope_hours : p.scope_leaves);
  const doneOf = (p: BurnUpPoint) => (unit === "hours" ? p.done_hours : p.done_leaves);
  const first = points[0]!;
  const lastEntry = points[points.length - 1]!;
  const lastScope = scopeOf(lastEntry.p);
  const lastDone = doneOf(lastEntry.p);
  const finished = lastDone >= lastScope;

  // Forecast dates before the last day are drawn at it: the forecast cannot finish in the past.
  const forecastDay = (iso: string | null) => {
    const day = iso === null ? null : parseDay(iso);
    return day === null || finished ? null : Math.max(day, lastEntry.day);
  };
  const p50 = forecastDay(forecast.p50Date);
  const p90 = forecastDay(forecast.p90Date);

  const start = first.day;
  const end = Math.max(lastEntry.day, p50 ?? lastEntry.day, p90 ?? lastEntry.day, start + 1);
  const maxValue = Math.max(0, ...points.map((e) => Math.max(scopeOf(e.p), doneOf(e.p))));
  const yAxis = valueAxis(maxValue, unit === "leaves", top, size.height - bottom, size.height);
  const y = yAxis.scale;
  const plot = plotBox(size, top, bottom, yAxis.labels);
  const x = linearScale([start, end], [plot.left, plot.right]);
  const xTicks = fitAxis(
    // Calendar ticks seldom fall on the axis' ends: at least 3 asked for, so that a narrow axis shows 2.
    Math.max(3, tickCount(plot.right - plot.left, X_TICK_SPACING)),
    (n) => dateTicks(start, end, n).map((t): AxisTick => ({ at: r1(x(t.day)), label: t.label })),
    (ticks) => labelsFit(ticks, xLabelExtent, size.width),
    (ticks) => thinLabels(ticks, xLabelExtent, size.width),
  );

  const scopeLine = points.map((e) => [x(e.day), y(scopeOf(e.p))] as const);
  const doneLine = points.map((e) => [x(e.day), y(doneOf(e.p))] as const);
  const lastX = x(lastEntry.day);
  const doneArea = `${linePath(doneLine)}L${r1(lastX)},${r1(plot.bottom)}L${r1(x(start))},${r1(plot.bottom)}Z`;

  const from = [lastX, y(lastDone)] as const;
  const scopeY = y(lastScope);
  // Each known forecast date: an edge of the cone (its label left of P50's end, right of P90's) and a row.
  const forecasts = (
    [
      { label: "P50", day: p50, dx: -3, anchor: "end", finish: "likely" },
      { label: "P90", day: p90, dx: 3, anchor: "start", finish: "safe" },
    ] as const
  ).filter((f): f is typeof f & { day: number } => f.day !== null);
  const edges = forecasts.map(
    (f): ConeEdge => ({
      label: f.label,
      path: linePath([from, [x(f.day), scopeY]]),
      x: r1(x(f.day) + f.dx),
      y: r1(scopeY - 6),
      anchor: f.anchor,
    }),
  );
  const cone =
    p50 !== null && p90 !== null ? `${linePath([from, [x(p50), scopeY], [x(p90), scopeY]])}Z` : null;
  const forecastEnd = Math.max(p50 ?? lastEntry.day, p90 ?? lastEntry.day);
  const scopeProjection =
    forecastEnd > lastEntry.day
      ? linePath([
          [lastX, scopeY],
          [x(forecastEnd), scopeY],
        ])
      : null;

  const fmt = (v: number) => formatNumber(v);
  const rows = [
    ...points.map((e) => ({
      key: e.p.date,
      cells: [formatDay(e.day), fmt(scopeOf(e.p)), fmt(doneOf(e.p))],
    })),
    ...forecasts.map((f) => ({
      key: f.label.toLowerCase(),
      cells: [
        `${formatDay(f.day)}: ${f.finish} finish (${f.label} forecast)`,
        fmt(lastScope),
        `${fmt(lastScope)} (forecast)`,
      ],
    })),
  ];

  const now = `Scope ${formatAmount(lastScope, unit)}, done ${formatAmount(lastDone, unit)} on ${formatDay(lastEntry.day)}`;
  const outlook = finished
    ? "all of it is done"
    : p50 !== null && p90 !== null
      ? `forecast finish between ${formatDay(p50)} and ${formatDay(p90)}`
      : p50 !== null
        ? `forecast finish by ${formatDay(p50)} (P50)`
        : p90 !== null
          ? `forecast finish by ${formatDay(p90)} (P90)`
          : "no forecast yet";

  return {
    empty: false,
    description: `${now}; ${outlook}.`,
    axes: {
      size,
      plot,
      x: { ticks: xTicks, title: null },
      y: { ticks: yAxis.labels, title: yTitle },
    },
    scopePath: linePath(scopeLine),
    donePath: linePath(doneLine),
    doneArea,
    scopeProjection,
    cone,
    edges,
    last: { x: r1(lastX), scopeY: r1(scopeY), doneY: r1(y(lastDone)) },
    table: { caption, columns, rows },
  };
}

/** Ticks of a value axis; on a log one (step 10) each power is written with the decimals it needs. */
function valueTicks(ticks: NiceTicks, scale: Scale, log = false): AxisTick[] {
  return ticks.ticks.map((v) => ({ at: r1(scale(v)), label: formatTick(v, log ? v : ticks.step) }));
}

// ---- finish distribution -------------------------------------------------------------------------

export type HistogramInput = {
  bins: readonly FinishBin[];
  p50Days: number;
  p90Days: number;
  /** The forecast's first day (today), YYYY-MM-DD. */
  startDate: string;
  /** The day a number of working days from startDate ends on: YYYY-MM-DD (or a label, shown as it is). */
  workingDaysToDate: (days: number) => string;
  /** The bars' width in working days; by default the smallest gap between two bins (1 for one bin). */
  binWidth?: number;
};

export type HistogramBar = {
  key: string;
  x: number;
  y: number;
  width: number;
  height: number;
  title: string;
};
export type HistogramMarker = {
  label: "P50" | "P90";
  x: number;
  /** The line runs from here (level with the top of its label) down to the x axis. */
  lineTop: number;
  text: string;
  textX: number;
  textY: number;
  anchor: "start" | "end";
};

export type HistogramModel = {
  empty: boolean;
  description: string;
  axes: Axes;
  bars: HistogramBar[];
  markers: HistogramMarker[];
  table: ChartTable;
};

/** The bars' width: the smallest gap between two bins, 1 for a single one. */
export function binWidthOf(bins: readonly FinishBin[]): number {
  const days = [...new Set(bins.map((b) => b.days))].sort((a, b) => a - b);
  let width = Number.POSITIVE_INFINITY;
  for (let i = 1; i < days.length; i++) width = Math.min(width, days[i]! - days[i - 1]!);
  return Number.isFinite(width) ? width : 1;
}

/**
 * The finish distribution: a bar per bin (runs finishing within (days - width, days] working days), and
 * the P50 and P90 lines labelled with their dates above the plot, on two rows when they would overlap.
 * Laid out for a box of `size` px.
 */
export function histogramModel(input: HistogramInput, size: ChartSize = DEFAULT_CHART_SIZE): HistogramModel {
  // Above the plot: the P50 and P90 labels' two rows; below it: two lines of tick labels and the x title.
  const top = 48;
  const bottom = 60;
  const { p50Days, p90Days } = input;
  const bins = [...input.bins].sort((a, b) => a.days - b.days);
  const total = bins.reduce((n, b) => n + b.runs, 0);
  const dateOf = (days: number) => formatDay(input.workingDaysToDate(days));
  const width = input.binWidth && input.binWidth > 0 ? input.binWidth : binWidthOf(bins);
  const rangeOf = (days: number) =>
    width === 1 && Number.isInteger(days)
      ? formatNumber(days)
      : `${formatNumber(days - width)}-${formatNumber(days)}`;
  const columns = [
    { label: "Working days" },
    { label: "Finished by" },
    { label: "Runs", numeric: true },
    { label: "Share of runs", numeric: true },
  ];
  const markerText = (days: number) => `${formatNumber(days)} working days (${dateOf(days)})`;
  const caption =
    total > 0
      ? `Simulated runs by finish time from ${formatDay(input.startDate)}: P50 ${markerText(p50Days)}, P90 ${markerText(p90Days)}`
      : "Simulated runs by finish time";
  const table: ChartTable = {
    caption,
    columns,
    rows: bins.map((b) => ({
      key: String(b.days),
      cells: [
        rangeOf(b.days),
        dateOf(b.days),
        formatNumber(b.runs, 0),
        formatPercent(total ? b.runs / total : 0),
      ],
    })),
  };
  if (bins.length === 0 || total === 0) {
    return {
      empty: true,
      description: "No forecast yet.",
      axes: EMPTY_AXES(size, plotBox(size, top, bottom, []), "Runs"),
      bars: [],
      markers: [],
      table,
    };
  }

  const lo = Math.max(0, Math.min(bins[0]!.days - width, p50Days, p90Days));
  const hi = Math.max(bins[bins.length - 1]!.days, p50Days, p90Days);
  const yAxis = valueAxis(Math.max(...bins.map((b) => b.runs)), true, top, size.height - bottom, size.height);
  const y = yAxis.scale;
  const plot = plotBox(size, top, bottom, yAxis.labels);
  // The x domain follows its ticks, so each count of ticks has its own scale.
  const xAxis = fitAxis(
    tickCount(plot.right - plot.left, X_TICK_SPACING),
    (n) => {
      const ticks = niceTicks(lo, hi, n, true);
      const scale = linearScale([ticks.min, ticks.max], [plot.left, plot.right]);
      const labels = ticks.ticks.map(
        (d): AxisTick => ({ at: r1(scale(d)), label: formatNumber(d), sub: dateOf(d) }),
      );
      return { ticks, scale, labels };
    },
    (l) => labelsFit(l.labels, xLabelExtent, size.width),
    (l) => ({ ...l, labels: thinLabels(l.labels, xLabelExtent, size.width) }),
  );
  const xTicks = xAxis.ticks;
  const x = xAxis.scale;

  const bars = bins.map((b) => {
    const x0 = x(Math.max(xTicks.min, b.days - width));
    const x1 = x(b.days);
    // A hairline between neighbours, unless the bars are too thin to spare it.
    const gap = x1 - x0 > 3 ? 1 : 0;
    const top = y(b.runs);
    return {
      key: String(b.days),
      x: r1(x0 + gap / 2),
      y: r1(top),
      width: r1(Math.max(0.5, x1 - x0 - gap)),
      height: r1(plot.bottom - top),
      title: `${rangeOf(b.days)} working days (by ${dateOf(b.days)}): ${plural(b.runs, "run", "runs")}, ${formatPercent(b.runs / total)}`,
    };
  });

  // P50 to the left of its line and P90 to the right, so they part; each turns to the other side when its
  // own has no room (to the side with more room when neither has), and P90 drops to the second row when
  // the two would still overlap.
  const place = (
    label: "P50" | "P90",
    days: number,
    prefer: "start" | "end",
    row: 0 | 1,
  ): HistogramMarker => {
    const lx = x(days);
    const text = `${label} ${dateOf(days)}`;
    const w = textWidth(text);
    const fits = { end: lx - 4 - w >= plot.left, start: lx + 4 + w <= size.width };
    const other = prefer === "end" ? "start" : "end";
    const anchor = fits[prefer] ? prefer : fits[other] ? other : lx > size.width - lx ? "end" : "start";
    return {
      label,
      x: r1(lx),
      text,
      textX: r1(anchor === "end" ? lx - 4 : lx + 4),
      textY: plot.top - 24 + row * 16,
      lineTop: plot.top - 34 + row * 16,
      anchor,
    };
  };
  const span = (m: HistogramMarker) => {
    const w = textWidth(m.text);
    return m.anchor === "end" ? [m.textX - w, m.textX] : [m.textX, m.textX + w];
  };
  const m50 = place("P50", p50Days, "end", 0);
  let m90 = place("P90", p90Days, "start", 0);
  const [a0, a1] = span(m50);
  const [b0, b1] = span(m90);
  if (a0! < b1! + 4 && b0! < a1! + 4) m90 = place("P90", p90Days, "start", 1);

  return {
    empty: false,
    description: `Of ${plural(total, "simulated run", "simulated runs")} from ${formatDay(input.startDate)}, half finish within ${markerText(p50Days)} and 9 in 10 within ${markerText(p90Days)}.`,
    axes: {
      size,
      plot,
      x: {
        ticks: xAxis.labels,
        title: fittingTitle(
          roomAround((plot.left + plot.right) / 2, size.width),
          `Working days from ${formatDay(input.startDate)} (and the date they end on)`,
          `Working days from ${formatDay(input.startDate)}`,
          "Working days",
        ),
      },
      y: { ticks: yAxis.labels, title: "Runs" },
    },
    bars,
    markers: [m50, m90],
    table,
  };
}

// ---- estimate accuracy ---------------------------------------------------------------------------

export type EstimateSource = AccuracyPoint["source"];
export const SOURCES: readonly EstimateSource[] = ["rule", "model", "person"];
export const SOURCE_LABEL: Record<EstimateSource, string> = {
  rule: "Rule",
  model: "Model",
  person: "Person",
};

/** Past this ratio of the largest to the smallest positive value (two decades), the axes are logarithmic. */
export const LOG_SCALE_RATIO = 100;

/**
 * A marker's outline centred on (cx, cy): a circle for the rule, a square for a model, a triangle for a
 * person, so the shape tells the source apart as well as the colour.
 */
export function markerPath(source: EstimateSource, cx: number, cy: number): string {
  const x = r1(cx);
  const y = r1(cy);
  if (source === "rule") return `M${r1(x - 5)},${y}a5,5 0 1,0 10,0a5,5 0 1,0 -10,0Z`;
  if (source === "model") return `M${r1(x - 4.5)},${r1(y - 4.5)}h9v9h-9Z`;
  return `M${x},${r1(y - 6)}L${r1(x + 6)},${r1(y + 4.5)}L${r1(x - 6)},${r1(y + 4.5)}Z`;
}

export type AccuracyMarker = { key: string; source: EstimateSource; path: string; title: string };

export type AccuracyModel = {
  empty: boolean;
  description: string;
  scale: "linear" | "log";
  axes: Axes;
  /** y = x: where a task took as long as estimated. */
  diagonal: { x1: number; y1: number; x2: number; y2: number };
  /** The diagonal's label, along it near its top end. */
  diagonalLabel: { x: number; y: number; angle: number };
  markers: AccuracyMarker[];
  legend: { source: EstimateSource; label: string; count: number }[];
  table: ChartTable;
};

/**
 * The estimate accuracy: a marker per finished task at (estimate, actual) hours, both axes on the same
 * domain so that y = x is the diagonal "as estimated". Linear with nice ticks, unless the positive values
 * span more than two decades (LOG_SCALE_RATIO): then both axes are logarithmic, with ticks at powers of
 * ten, so a 1 h task and a 300 h one both stay readable; a 0 is drawn on the axis' lowest power. Laid out
 * for a box of `size` px.
 */
export function accuracyModel(
  points: readonly AccuracyPoint[],
  size: ChartSize = DEFAULT_CHART_SIZE,
): AccuracyModel {
  const top = 16;
  const bottom = 48;
  const legend = SOURCES.map((source) => ({
    source,
    label: SOURCE_LABEL[source],
    count: points.filter((p) => p.source === source).length,
  }));
  const table: ChartTable = {
    caption: "Estimated and actual hours of finished tasks",
    columns: [
      { label: "Task" },
      { label: "Estimated by" },
      { label: "Estimate (hours)", numeric: true },
      { label: "Actual (hours)", numeric: true },
    ],
    rows: points.map((p) => ({
      key: p.task_id,
      cells: [p.title, SOURCE_LABEL[p.source], formatNumber(p.estimate_hours), formatNumber(p.actual_hours)],
    })),
  };

  const values = points.flatMap((p) => [p.estimate_hours, p.actual_hours]);
  const positive = values.filter((v) => v > 0);
  const max = Math.max(0, ...values);
  const minPositive = positive.length ? Math.min(...positive) : 0;
  const scale: "linear" | "log" = minPositive > 0 && max / minPositive > LOG_SCALE_RATIO ? "log" : "linear";
  const log = scale === "log";
  const toScale = log ? logScale : linearScale;
  // Both axes on one domain, so one count of ticks for both: what the shorter of the two has room for
  // (with the plot at its narrowest, 64 px from the left).
  const axes = fitAxis(
    Math.min(
      tickCount(size.width - 64 - 32, X_TICK_SPACING),
      tickCount(size.height - top - bottom, Y_TICK_SPACING),
    ),
    (n) => {
      const ticks = log ? logTicks(minPositive, max) : niceTicks(0, max, n);
      const y = toScale([ticks.min, ticks.max], [size.height - bottom, top]);
      const yLabels = valueTicks(ticks, y, log);
      const plot = plotBox(size, top, bottom, yLabels);
      const x = toScale([ticks.min, ticks.max], [plot.left, plot.right]);
      return { ticks, plot, x, y, xLabels: valueTicks(ticks, x, log), yLabels };
    },
    (l) => labelsFit(l.xLabels, xLabelExtent, size.width) && labelsFit(l.yLabels, yLabelExtent, size.height),
    // Powers of ten cannot be fewer: every other one, or fewer, keeps its label.
    (l) => ({
      ...l,
      xLabels: thinLabels(l.xLabels, xLabelExtent, size.width),
      yLabels: thinLabels(l.yLabels, yLabelExtent, size.height),
    }),
  );
  const { ticks, plot, x, y } = axes;
  const suffix = log ? ", log scale" : "";
  const middle = { x: (plot.left + plot.right) / 2, y: (plot.top + plot.bottom) / 2 };

  const diagonal = {
    x1: r1(x(ticks.min)),
    y1: r1(y(ticks.min)),
    x2: r1(x(ticks.max)),
    y2: r1(y(ticks.max)),
  };
  const angle = (Math.atan2(diagonal.y2 - diagonal.y1, diagonal.x2 - diagonal.x1) * 180) / Math.PI;
  const t = 0.97;
  const diagonalLabel = {
    x: r1(diagonal.x1 + (diagonal.x2 - diagonal.x1) * t),
    y: r1(diagonal.y1 + (diagonal.y2 - diagonal.y1) * t),
    angle: r1(angle),
  };

  const markers = points.map((p) => ({
    key: p.task_id,
    source: p.source,
    path: markerPath(p.source, x(p.estimate_hours), y(p.actual_hours)),
    title: `${p.title}: estimated ${formatHours(p.estimate_hours)}, took ${formatHours(p.actual_hours)} (${p.source})`,
  }));

  const over = points.filter((p) => p.actual_hours > p.estimate_hours).length;
  const under = points.filter((p) => p.actual_hours < p.estimate_hours).length;
  const same = points.length - over - under;
  const estimated = points.reduce((n, p) => n + p.estimate_hours, 0);
  const taken = points.reduce((n, p) => n + p.actual_hours, 0);
  const parts = [`${formatNumber(over)} took longer than estimated`, `${formatNumber(under)} less`];
  if (same) parts.push(`${formatNumber(same)} as estimated`);
  const description = points.length
    ? `${plural(points.length, "finished task", "finished tasks")}: ${parts.join(", ")}; ${formatHours(estimated)} estimated and ${formatHours(taken)} taken in all.`
    : "No finished tasks with actual hours yet.";

  return {
    empty: points.length === 0,
    description,
    scale,
    axes: {
      size,
      plot,
      x: {
        ticks: axes.xLabels,
        title: fittingTitle(
          roomAround(middle.x, size.width),
          `Estimate, hours${suffix}`,
          log ? "Estimate, h (log)" : "Estimate, h",
        ),
      },
      y: {
        ticks: axes.yLabels,
        title: fittingTitle(
          roomAround(middle.y, size.height),
          `Actual, hours${suffix}`,
          log ? "Actual, h (log)" : "Actual, h",
        ),
      },
    },
    diagonal,
    diagonalLabel,
    markers,
    legend,
    table,
  };
}
