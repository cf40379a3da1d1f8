import { useMemo } from "react";
import { ChartAxes, ChartFrame, ChartLegend } from "./chart-frame";
import { FONT_SIZE, type HistogramInput, histogramModel } from "./chart-models";
import { useChartSize } from "./use-chart-size";

const LEGEND = [
  {
    key: "runs",
    label: "Simulated runs",
    swatch: <rect x={2} y={3} width={12} height={12} className="fill-primary/70" />,
  },
  {
    key: "p50",
    label: "P50: half the runs finish by then",
    swatch: (
      <line x1={8} x2={8} y1={1} y2={15} strokeWidth={2} strokeDasharray="4 2" className="stroke-secondary" />
    ),
  },
  {
    key: "p90",
    label: "P90: 9 in 10 finish by then",
    swatch: (
      <line x1={8} x2={8} y1={1} y2={15} strokeWidth={2} strokeDasharray="1.5 2" className="stroke-accent" />
    ),
  },
];

/**
 * When the plan may end (issue 33): how many of the forecast's simulated runs finish within each number of
 * working days from `startDate`, with the P50 and P90 lines labelled by their dates.
 */
export function FinishDistributionChart(input: HistogramInput) {
  const { bins, p50Days, p90Days, startDate, workingDaysToDate, binWidth } = input;
  const box = useChartSize();
  const m = useMemo(
    () => histogramModel({ bins, p50Days, p90Days, startDate, workingDaysToDate, binWidth }, box.size),
    [bins, p50Days, p90Days, startDate, workingDaysToDate, binWidth, box.size],
  );
  return (
    <ChartFrame
      box={box}
      testId="finish-distribution-chart"
      title="When the work may finish"
      description={m.description}
      table={m.table}
      empty={m.empty ? "No forecast yet" : null}
      legend={<ChartLegend items={LEGEND} />}
    >
      <ChartAxes axes={m.axes} />
      <g>
        <g className="fill-primary/70">
          {m.bars.map((b) => (
            <rect key={b.key} x={b.x} y={b.y} width={b.width} height={b.height}>
              <title>{b.title}</title>
            </rect>
          ))}
        </g>
        {m.markers.map((mk) => (
          <line
            key={mk.label}
            x1={mk.x}
            x2={mk.x}
            y1={mk.lineTop}
            y2={m.axes.plot.bottom}
            strokeWidth={2}
            strokeDasharray={mk.label === "P50" ? "4 2" : "1.5 2"}
            className={mk.label === "P50" ? "stroke-secondary" : "stroke-accent"}
          />
        ))}
        <g className="text-base-content" fill="currentColor" fontSize={FONT_SIZE}>
          {m.markers.map((mk) => (
            <text key={mk.label} x={mk.textX} y={mk.textY} textAnchor={mk.anchor}>
              {mk.text}
            </text>
          ))}
        </g>
      </g>
    </ChartFrame>
  );
}
