import { useMemo } from "react";
import type { AccuracyPoint } from "../../../../../shared/schemas/actuals";
import { ChartAxes, ChartFrame, ChartLegend } from "./chart-frame";
import { accuracyModel, type EstimateSource, FONT_SIZE, markerPath } from "./chart-models";
import { useChartSize } from "./use-chart-size";

/** Each source's colour; its shape (chart-models.ts: markerPath) tells it apart without colour. */
const SOURCE_CLASS: Record<EstimateSource, string> = {
  rule: "fill-primary",
  model: "fill-secondary",
  person: "fill-accent",
};

/**
 * How good the estimates were (issue 33): each finished task at (estimate, actual) hours, marked by who
 * estimated it, against the diagonal where a task took as long as estimated. Above it: took longer.
 */
export function EstimateAccuracyChart({ points }: { points: AccuracyPoint[] }) {
  const box = useChartSize();
  const m = useMemo(() => accuracyModel(points, box.size), [points, box.size]);
  const { diagonal: d, diagonalLabel: dl } = m;
  const legend = [
    ...m.legend.map((l) => ({
      key: l.source,
      label: `${l.label} estimates (${l.count})`,
      swatch: <path d={markerPath(l.source, 8, 8)} className={`${SOURCE_CLASS[l.source]} stroke-base-100`} />,
    })),
    {
      key: "diagonal",
      label: "As estimated (actual = estimate)",
      swatch: <line x1={1} y1={15} x2={15} y2={1} strokeDasharray="4 3" className="stroke-base-content/60" />,
    },
  ];
  return (
    <ChartFrame
      box={box}
      testId="estimate-accuracy-chart"
      title="Estimates against actual hours"
      description={m.description}
      table={m.table}
      empty={m.empty ? "No finished tasks with actual hours yet" : null}
      legend={<ChartLegend items={legend} />}
    >
      <ChartAxes axes={m.axes} />
      <g>
        <line
          x1={d.x1}
          y1={d.y1}
          x2={d.x2}
          y2={d.y2}
          strokeWidth={1.5}
          strokeDasharray="6 4"
          className="stroke-base-content/60"
        />
        <text
          x={dl.x}
          y={dl.y}
          dy={-6}
          textAnchor="end"
          transform={`rotate(${dl.angle} ${dl.x} ${dl.y})`}
          fontSize={FONT_SIZE}
          fill="currentColor"
          className="text-base-content/70"
        >
          as estimated
        </text>
        <g strokeWidth={1}>
          {m.markers.map((mk) => (
            <path key={mk.key} d={mk.path} className={`${SOURCE_CLASS[mk.source]} stroke-base-100`}>
              <title>{mk.title}</title>
            </path>
          ))}
        </g>
      </g>
    </ChartFrame>
  );
}
