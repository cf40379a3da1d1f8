import { type RefObject, useLayoutEffect, useRef, useState } from "react";
import { type ChartSize, DEFAULT_CHART_SIZE } from "./chart-models";

/** Below this width the charts are laid out at it and scaled down (the labels would not fit). */
export const MIN_CHART_WIDTH = 240;

/**
 * The size to lay a chart out at, from the last one and its box's measured CSS size: whole pixels, and
 * the last size itself (so React skips the render) unless a side moved by a pixel or more; sub-pixel
 * jitter while the page settles is no change. A box narrower than MIN_CHART_WIDTH is laid out at that
 * width, its shape kept; a box with no size (hidden, not laid out) keeps the last size.
 */
export function nextChartSize(last: ChartSize, width: number, height: number): ChartSize {
  if (!(width > 0 && height > 0)) return last;
  const grow = Math.max(1, MIN_CHART_WIDTH / width);
  const w = width * grow;
  const h = height * grow;
  if (Math.abs(w - last.width) < 1 && Math.abs(h - last.height) < 1) return last;
  const next = { width: Math.round(w), height: Math.round(h) };
  return next.width === last.width && next.height === last.height ? last : next;
}

/** A chart's box: the element ChartFrame sizes with CSS, and the size measured from it. */
export type ChartBox = { ref: RefObject<HTMLDivElement | null>; size: ChartSize };

/**
 * Measures the box ChartFrame draws a chart in (pass it as ChartFrame's `box`), so the chart is laid out
 * in CSS pixels. The box's size comes from CSS alone (its width and aspect ratio), so the measurement
 * moves nothing on the page. Until it arrives, on the server and without ResizeObserver, the size is
 * DEFAULT_CHART_SIZE (the SVG scales that to the box).
 */
export function useChartSize(): ChartBox {
  const ref = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState(DEFAULT_CHART_SIZE);
  // A layout effect, so the first measurement is drawn before the first paint.
  useLayoutEffect(() => {
    const box = ref.current;
    if (!box || typeof ResizeObserver === "undefined") return;
    const measure = (width: number, height: number) => setSize((last) => nextChartSize(last, width, height));
    // offsetWidth and offsetHeight, unlike getBoundingClientRect, ignore transforms, like the observer.
    measure(box.offsetWidth, box.offsetHeight);
    const observer = new ResizeObserver(([entry]) => {
      if (entry) measure(entry.contentRect.width, entry.contentRect.height);
    });
    observer.observe(box);
    return () => observer.disconnect();
  }, []);
  return { ref, size };
}
