import { type ReactNode, useId } from "react";
import { type Axes, type ChartTable, FONT_SIZE } from "./chart-models";
import type { ChartBox } from "./use-chart-size";

/**
 * What every chart of the Plan tab sits in (issue 33): a figure titled by its caption; the picture as an
 * SVG image named by that title and described by a sentence from the data; a legend in HTML; and the data
 * as a real table behind "Show the data as a table". The box's size is set by CSS alone: the column's
 * width, 16:9 from the `sm` breakpoint up and 4:3 below it (taller on a phone, so the plot keeps its
 * room), with or without data, so nothing moves when the data or the measurement arrives. The SVG's
 * viewBox is the box's measured size (useChartSize), so its units are CSS pixels and the labels keep their
 * size at any width. Without data, the box holds `empty` instead of the picture.
 */
export function ChartFrame({
  box,
  testId,
  title,
  description,
  table,
  empty,
  compactEmpty = false,
  legend,
  children,
}: {
  /** The measured box (useChartSize), the one the chart's model was laid out for. */
  box: ChartBox;
  testId: string;
  title: string;
  /** One or two sentences that say what the picture shows, from the data. */
  description: string;
  table: ChartTable;
  /** Shown in the box instead of the picture when there is nothing to draw. */
  empty?: string | null;
  /**
   * With no data for good (not while it loads), a line instead of the picture's box, and no legend or
   * table: an empty box the size of a chart said nothing on a plan without progress yet (issue 40).
   */
  compactEmpty?: boolean;
  legend?: ReactNode;
  /** The SVG's content, in a viewBox of box.size. */
  children?: ReactNode;
}) {
  const id = useId();
  const titleId = `${id}-title`;
  const descId = `${id}-desc`;
  if (empty && compactEmpty) {
    return (
      <figure className="flex w-full max-w-3xl flex-col gap-1" data-testid={testId}>
        <figcaption id={titleId} className="text-sm font-semibold">
          {title}
        </figcaption>
        <p className="text-sm text-base-content/70" data-testid={`${testId}-empty`}>
          {empty}
        </p>
      </figure>
    );
  }
  return (
    <figure className="flex w-full max-w-3xl flex-col gap-2" data-testid={testId}>
      <figcaption id={titleId} className="text-sm font-semibold">
        {title}
      </figcaption>
      <div ref={box.ref} className="relative aspect-[4/3] w-full sm:aspect-video">
        {empty ? (
          <div
            className="absolute inset-0 flex items-center justify-center rounded-box border border-dashed border-base-300 p-4 text-center text-sm text-base-content/70"
            data-testid={`${testId}-empty`}
          >
            {empty}
          </div>
        ) : (
          <svg
            viewBox={`0 0 ${box.size.width} ${box.size.height}`}
            preserveAspectRatio="xMidYMid meet"
            role="img"
            aria-labelledby={`${titleId} ${descId}`}
            className="absolute inset-0 size-full"
          >
            <desc id={descId}>{description}</desc>
            {/* The picture's shapes and labels are decoration for assistive technology: the name, the
                description and the table say it all. role="img" already makes them presentational; the
                group hides them from tools that read an image's content anyway. Marker <title>s stay
                pointer tooltips. */}
            {/* biome-ignore lint/a11y/noAriaHiddenOnFocusable: an SVG group is not focusable (no tabindex, no links) */}
            <g aria-hidden="true">{children}</g>
          </svg>
        )}
      </div>
      {legend}
      <details className="text-sm">
        <summary className="w-fit cursor-pointer text-base-content/80">Show the data as a table</summary>
        <div className="mt-2 rounded-box border border-base-300">
          <table className="table table-sm">
            <caption className="p-2 text-left text-base-content/80">{table.caption}</caption>
            <thead>
              <tr>
                {table.columns.map((c) => (
                  <th key={c.label} scope="col" className={c.numeric ? "text-right" : undefined}>
                    {c.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {table.rows.length === 0 ? (
                <tr>
                  <td colSpan={table.columns.length}>{empty ?? "No data yet."}</td>
                </tr>
              ) : (
                table.rows.map((row) => (
                  <tr key={row.key}>
                    {row.cells.map((cell, i) =>
                      i === 0 ? (
                        <th key={table.columns[i]?.label ?? i} scope="row" className="font-normal">
                          {cell}
                        </th>
                      ) : (
                        <td
                          key={table.columns[i]?.label ?? i}
                          className={table.columns[i]?.numeric ? "text-right tabular-nums" : undefined}
                        >
                          {cell}
                        </td>
                      ),
                    )}
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}

/**
 * Gridlines, ticks and axis titles. Labels are drawn in the text colour at 70 % (WCAG AA in both themes,
 * decision 024). Like everything ChartFrame draws in its SVG, they are hidden from assistive technology.
 */
export function ChartAxes({ axes }: { axes: Axes }) {
  const { size, plot, x, y } = axes;
  return (
    <g>
      <g className="stroke-base-content/10">
        {y.ticks.map((t) => (
          <line key={t.label} x1={plot.left} x2={plot.right} y1={t.at} y2={t.at} />
        ))}
      </g>
      <line
        className="stroke-base-content/40"
        x1={plot.left}
        x2={plot.right}
        y1={plot.bottom}
        y2={plot.bottom}
      />
      <line className="stroke-base-content/40" x1={plot.left} x2={plot.left} y1={plot.top} y2={plot.bottom} />
      <g className="text-base-content/70" fill="currentColor" fontSize={FONT_SIZE}>
        {y.ticks.map((t) => (
          <text key={t.label} x={plot.left - 8} y={t.at} dy="0.32em" textAnchor="end">
            {t.label}
          </text>
        ))}
        {x.ticks.map((t) => (
          <text key={t.label} x={t.at} y={plot.bottom + 16} textAnchor="middle">
            {t.label}
            {t.sub && (
              <tspan x={t.at} dy={FONT_SIZE + 2}>
                {t.sub}
              </tspan>
            )}
          </text>
        ))}
        <text
          x={14}
          y={(plot.top + plot.bottom) / 2}
          dy="0.32em"
          textAnchor="middle"
          transform={`rotate(-90 14 ${(plot.top + plot.bottom) / 2})`}
        >
          {y.title}
        </text>
        {x.title && (
          <text x={(plot.left + plot.right) / 2} y={size.height - 8} textAnchor="middle">
            {x.title}
          </text>
        )}
      </g>
      <g className="stroke-base-content/40">
        {x.ticks.map((t) => (
          <line key={t.label} x1={t.at} x2={t.at} y1={plot.bottom} y2={plot.bottom + 4} />
        ))}
      </g>
    </g>
  );
}

/** A legend entry: a small picture of the series (drawn in a 16 x 16 box) and its name. */
export type LegendItem = { key: string; label: string; swatch: ReactNode };

/** The series' names, in HTML so they wrap and read at full size; the swatches are decoration. */
export function ChartLegend({ items }: { items: LegendItem[] }) {
  return (
    <ul aria-label="Legend" className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-base-content/80">
      {items.map((item) => (
        <li key={item.key} className="flex items-center gap-1.5">
          <svg aria-hidden="true" viewBox="0 0 16 16" className="size-4 shrink-0">
            {item.swatch}
          </svg>
          {item.label}
        </li>
      ))}
    </ul>
  );
}
