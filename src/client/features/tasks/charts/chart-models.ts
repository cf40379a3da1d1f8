import type { AccuracyPoint, BurnUpPoint, FinishBin } from "../../../../shared/schemas/actuals";
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
 * What the Plan tab's charts draw (issue 33), computed from their data: coordinates in a fixed viewBox,
 * ticks, the summary sentence and the rows of the table that stands in for the picture. Pure and
 * deterministic (no clock: "today" comes in as data), so the components only render.
 */

/** Every chart draws in this box (16:9): the page reserves it before the data arrives. */
export const CHART_WIDTH = 640;
export const CHART_HEIGHT = 360;
/** Axis labels, in viewBox units. */
export const FONT_SIZE = 12;

/** The plotting area inside the box, in viewBox coordinates. */
export type Plot = { left: number; right: number; top: number; bottom: number };
/** A tick: where it is drawn (x or y in the box), its label and an optional second line. */
export type AxisTick = { at: number; label: string; sub?: string };
export type Axes = {
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

/** Left: tick labels up to "10,000" and the rotated y title; bottom: tick labels and the x title. */
const plotBox = (top: number, bottom = 48): Plot => ({
  left: 64,
  right: CHART_WIDTH - 32,
  top,
  bottom: CHART_HEIGHT - bottom,
});

/** One decimal of a viewBox unit is finer than a pixel at any size the page draws. */
const r1 = (n: number) => Math.round(n * 10) / 10;

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

const EMPTY_AXES = (plot: Plot, yTitle: string): Axes => ({
  plot,
  x: { ticks: [], title: null },
  y: { ticks: [], title: yTitle },
});

/**
 * The burn-up: scope and done per day, and the forecast cone from the last day's done value up to the
 * scope, reached at the P50 date on one edge and at the P90 date on the other. Forecast dates past the last
 * day extend the x axis. No cone once done reaches scope.
 */
export function burnUpModel(
  input: readonly BurnUpPoint[],
  unit: BurnUpUnit,
  forecast: BurnUpForecast,
): BurnUpModel {
  const plot = plotBox(28);
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
      axes: EMPTY_AXES(plot, yTitle),
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
  const x = linearScale([start, end], [plot.left, plot.right]);
  const maxValue = Math.max(0, ...points.map((e) => Math.max(scopeOf(e.p), doneOf(e.p))));
  const yTicks = niceTicks(0, maxValue, 5, unit === "leaves");
  const y = linearScale([yTicks.min, yTicks.max], [plot.bottom, plot.top]);

  const scopeLine = points.map((e) => [x(e.day), y(scopeOf(e.p))] as const);
  const doneLine = points.map((e) => [x(e.day), y(doneOf(e.p))] as const);
  const lastX = x(lastEntry.day);
  const doneArea = `${linePath(doneLine)}L${r1(lastX)},${r1(plot.bottom)}L${r1(x(start))},${r1(plot.bottom)}Z`;

  const from = [lastX, y(lastDone)] as const;
  const scopeY = y(lastScope);
  const edges: ConeEdge[] = [];
  if (p50 !== null) {
    const ex = x(p50);
    edges.push({
      label: "P50",
      path: linePath([from, [ex, scopeY]]),
      x: r1(ex - 3),
      y: r1(scopeY - 6),
      anchor: "end",
    });
  }
  if (p90 !== null) {
    const ex = x(p90);
    edges.push({
      label: "P90",
      path: linePath([from, [ex, scopeY]]),
      x: r1(ex + 3),
      y: r1(scopeY - 6),
      anchor: "start",
    });
  }
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
  const rows = points.map((e) => ({
    key: e.p.date,
    cells: [formatDay(e.day), fmt(scopeOf(e.p)), fmt(doneOf(e.p))],
  }));
  if (p50 !== null) {
    rows.push({
      key: "p50",
      cells: [
        `${formatDay(p50)}: likely finish (P50 forecast)`,
        fmt(lastScope),
        `${fmt(lastScope)} (forecast)`,
      ],
    });
  }
  if (p90 !== null) {
    rows.push({
      key: "p90",
      cells: [
        `${formatDay(p90)}: safe finish (P90 forecast)`,
        fmt(lastScope),
        `${fmt(lastScope)} (forecast)`,
      ],
    });
  }

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
      plot,
      x: { ticks: dateTicks(start, end, 6).map((t) => ({ at: r1(x(t.day)), label: t.label })), title: null },
      y: { ticks: valueTicks(yTicks, y), title: yTitle },
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

/** About how wide a label is at FONT_SIZE, in viewBox units (a little wider than the average glyph). */
const textWidth = (text: string) => text.length * FONT_SIZE * 0.6;

/**
 * The finish distribution: a bar per bin (runs finishing within (days - width, days] working days), and
 * the P50 and P90 lines labelled with their dates above the plot, on two rows when they would overlap.
 */
export function histogramModel(input: HistogramInput): HistogramModel {
  const plot = plotBox(48, 60);
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
      axes: EMPTY_AXES(plot, "Runs"),
      bars: [],
      markers: [],
      table,
    };
  }

  const lo = Math.max(0, Math.min(bins[0]!.days - width, p50Days, p90Days));
  const hi = Math.max(bins[bins.length - 1]!.days, p50Days, p90Days);
  const xTicks = niceTicks(lo, hi, 6, true);
  const x = linearScale([xTicks.min, xTicks.max], [plot.left, plot.right]);
  const yTicks = niceTicks(0, Math.max(...bins.map((b) => b.runs)), 5, true);
  const y = linearScale([yTicks.min, yTicks.max], [plot.bottom, plot.top]);

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

  // P50 to the left of its line and P90 to the right, so they part; each flips inwards at the edges, and
  // P90 drops to the second row when the two would still overlap.
  const place = (
    label: "P50" | "P90",
    days: number,
    prefer: "start" | "end",
    row: 0 | 1,
  ): HistogramMarker => {
    const lx = x(days);
    const text = `${label} ${dateOf(days)}`;
    const w = textWidth(text);
    let anchor = prefer;
    if (anchor === "end" && lx - 4 - w < plot.left) anchor = "start";
    if (anchor === "start" && lx + 4 + w > CHART_WIDTH) anchor = "end";
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
      plot,
      x: {
        ticks: xTicks.ticks.map((d) => ({ at: r1(x(d)), label: formatNumber(d), sub: dateOf(d) })),
        title: `Working days from ${formatDay(input.startDate)} (and the date they end on)`,
      },
      y: { ticks: valueTicks(yTicks, y), title: "Runs" },
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
 * ten, so a 1 h task and a 300 h one both stay readable; a 0 is drawn on the axis' lowest power.
 */
export function accuracyModel(points: readonly AccuracyPoint[]): AccuracyModel {
  const plot = plotBox(16);
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
  const ticks = scale === "log" ? logTicks(minPositive, max) : niceTicks(0, max, 5);
  const toScale = scale === "log" ? logScale : linearScale;
  const x = toScale([ticks.min, ticks.max], [plot.left, plot.right]);
  const y = toScale([ticks.min, ticks.max], [plot.bottom, plot.top]);
  const suffix = scale === "log" ? ", log scale" : "";

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
      plot,
      x: { ticks: valueTicks(ticks, x, scale === "log"), title: `Estimate, hours${suffix}` },
      y: { ticks: valueTicks(ticks, y, scale === "log"), title: `Actual, hours${suffix}` },
    },
    diagonal,
    diagonalLabel,
    markers,
    legend,
    table,
  };
}
