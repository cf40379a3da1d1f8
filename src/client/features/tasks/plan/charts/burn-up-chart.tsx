import { useMemo } from "react";
import type { BurnUpPoint } from "../../../../../shared/schemas/actuals";
import { ChartAxes, ChartFrame, ChartLegend } from "./chart-frame";
import { type BurnUpForecast, type BurnUpUnit, burnUpModel, FONT_SIZE } from "./chart-models";
import { useChartSize } from "./use-chart-size";

const LEGEND = [
  {
    key: "scope",
    label: "Scope",
    swatch: <line x1={1} x2={15} y1={8} y2={8} strokeWidth={2} className="stroke-secondary" />,
  },
  {
    key: "done",
    label: "Done",
    swatch: (
      <>
        <rect x={1} y={8} width={14} height={7} className="fill-primary/20" />
        <line x1={1} x2={15} y1={8} y2={8} strokeWidth={2.5} className="stroke-primary" />
      </>
    ),
  },
  {
    key: "forecast",
    label: "Forecast finish, likely (P50) to safe (P90)",
    swatch: (
      <rect
        x={1.5}
        y={3.5}
        width={13}
        height={9}
        strokeDasharray="3 2"
        className="fill-accent/20 stroke-accent"
      />
    ),
  },
];

/**
 * The plan's burn-up (issue 33): its scope and done work per day, and a cone from the last day's done
 * value up to the scope, reached at the P50 date on one edge and at the P90 date on the other.
 */
export function BurnUpChart({
  points,
  unit,
  forecast,
  loading = false,
}: {
  points: BurnUpPoint[];
  unit: BurnUpUnit;
  forecast: BurnUpForecast;
  /** The progress is still being read: the box is kept, so nothing moves when it comes. */
  loading?: boolean;
}) {
  const { p50Date, p90Date } = forecast;
  const box = useChartSize();
  const m = useMemo(
    () => burnUpModel(points, unit, { p50Date, p90Date }, box.size),
    [points, unit, p50Date, p90Date, box.size],
  );
  return (
    <ChartFrame
      box={box}
      testId="burn-up-chart"
      title={unit === "hours" ? "Burn-up, in hours" : "Burn-up, in tasks"}
      description={m.description}
      table={m.table}
      empty={
        m.empty
          ? loading
            ? "Reading the progress..."
            : "No progress recorded yet: the chart starts with the first task done."
          : null
      }
      compactEmpty={!loading}
      legend={<ChartLegend items={LEGEND} />}
    >
      <ChartAxes axes={m.axes} />
      <g fill="none" strokeLinejoin="round" strokeLinecap="round">
        <path d={m.doneArea} className="fill-primary/20" stroke="none" />
        {m.cone && <path d={m.cone} className="fill-accent/20" stroke="none" />}
        {m.edges.map((e) => (
          <path key={e.label} d={e.path} strokeWidth={1.5} strokeDasharray="5 4" className="stroke-accent" />
        ))}
        {m.scopeProjection && (
          <path d={m.scopeProjection} strokeWidth={2} strokeDasharray="2 4" className="stroke-secondary" />
        )}
        <path d={m.scopePath} strokeWidth={2} className="stroke-secondary" />
        <path d={m.donePath} strokeWidth={2.5} className="stroke-primary" />
        {m.last && (
          <>
            <circle cx={m.last.x} cy={m.last.scopeY} r={3.5} className="fill-secondary" />
            <circle cx={m.last.x} cy={m.last.doneY} r={3.5} className="fill-primary" />
          </>
        )}
        <g className="text-base-content" fill="currentColor" fontSize={FONT_SIZE}>
          {m.edges.map((e) => (
            <text key={e.label} x={e.x} y={e.y} textAnchor={e.anchor}>
              {e.label}
            </text>
          ))}
        </g>
      </g>
    </ChartFrame>
  );
}
