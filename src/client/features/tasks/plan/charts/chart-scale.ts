/**
 * Scales, ticks and number and date formatting for the Plan tab's charts (issue 33). Pure functions: the
 * chart models (chart-models.ts) build on them, and their tests compute the figures by hand.
 */

/** A map from a domain of values to a range of SVG coordinates. */
export type Scale = (value: number) => number;

/** The linear map of [d0, d1] onto [r0, r1]; a domain of one value maps everything to r0. */
export function linearScale([d0, d1]: readonly [number, number], [r0, r1]: readonly [number, number]): Scale {
  const span = d1 - d0;
  if (span === 0) return () => r0;
  return (v) => r0 + ((v - d0) / span) * (r1 - r0);
}

/**
 * The base-10 logarithmic map of [d0, d1] (both positive) onto [r0, r1]. Values at or below 0 cannot be
 * placed on it and are drawn at d0.
 */
export function logScale([d0, d1]: readonly [number, number], [r0, r1]: readonly [number, number]): Scale {
  const l0 = Math.log10(d0);
  const span = Math.log10(d1) - l0;
  if (!(span > 0)) return () => r0;
  return (v) => r0 + ((Math.log10(Math.max(v, d0)) - l0) / span) * (r1 - r0);
}

/** The decimals a multiple of `step` needs to be written exactly (0.2 -> 1, 5 -> 0). */
function decimalsOf(step: number): number {
  return Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
}

/**
 * A "nice" step (1, 2 or 5 times a power of ten) that cuts `span` into about `count` parts: the one
 * nearest the raw step on a log scale, as d3-array's tickIncrement picks it. With `integer`, at least 1.
 */
export function niceStep(span: number, count: number, integer = false): number {
  const raw = span / Math.max(1, count);
  if (!(raw > 0) || !Number.isFinite(raw)) return 1;
  const base = 10 ** Math.floor(Math.log10(raw));
  const error = raw / base;
  const factor = error >= Math.sqrt(50) ? 10 : error >= Math.sqrt(10) ? 5 : error >= Math.sqrt(2) ? 2 : 1;
  const step = base * factor;
  return integer ? Math.max(1, Math.round(step)) : step;
}

/** Ticks over a range, and the range widened to the first and last of them (the axis' domain). */
export type NiceTicks = { ticks: number[]; min: number; max: number; step: number };

/**
 * Evenly spaced ticks at multiples of a nice step (1, 2, 5 x 10^k) that cover [min, max], about `count`
 * intervals of them. A range of one value [v, v] widens to [0, v] ([0, 1] for 0); with
 * `integer`, the step is a whole number (counts of runs or tasks).
 */
export function niceTicks(min: number, max: number, count = 5, integer = false): NiceTicks {
  let lo = Math.min(min, max);
  let hi = Math.max(min, max);
  if (hi === lo) {
    // One value: the axis runs from 0 to it (or to 1 for 0 itself).
    if (lo > 0) lo = 0;
    else if (lo < 0) hi = 0;
    else hi = 1;
  }
  const step = niceStep(hi - lo, count, integer);
  const first = Math.floor(lo / step + 1e-9);
  const last = Math.ceil(hi / step - 1e-9);
  const decimals = decimalsOf(step);
  const ticks: number[] = [];
  for (let i = first; i <= last; i++) ticks.push(Number((i * step).toFixed(decimals)) || 0);
  return { ticks, min: ticks[0]!, max: ticks[ticks.length - 1]!, step };
}

/**
 * Powers of ten that cover [min, max] (both positive): the domain and ticks of a log axis. A range within
 * one power widens to the powers around it.
 */
export function logTicks(min: number, max: number): NiceTicks {
  const lo = Math.floor(Math.log10(Math.min(min, max)) + 1e-9);
  let hi = Math.ceil(Math.log10(Math.max(min, max)) - 1e-9);
  if (hi === lo) hi = lo + 1;
  const ticks: number[] = [];
  for (let k = lo; k <= hi; k++) ticks.push(Number((10 ** k).toFixed(Math.max(0, -k))));
  return { ticks, min: ticks[0]!, max: ticks[ticks.length - 1]!, step: 10 };
}

// ---- numbers ---------------------------------------------------------------------------------------

const numberFormats = new Map<number, Intl.NumberFormat>();

/** A number as people read it in English: grouped thousands, at most `decimals` decimals ("1,234.5"). */
export function formatNumber(value: number, decimals = 1): string {
  let format = numberFormats.get(decimals);
  if (!format) {
    format = new Intl.NumberFormat("en", { maximumFractionDigits: decimals });
    numberFormats.set(decimals, format);
  }
  // Rounded first, so a tiny negative never shows as "-0".
  const factor = 10 ** decimals;
  const rounded = Math.round(value * factor) / factor;
  return format.format(rounded === 0 ? 0 : rounded);
}

/** Hours with at most one decimal: "4 h", "2.5 h", "1,200 h". */
export function formatHours(hours: number): string {
  return `${formatNumber(hours)} h`;
}

/** A tick's label, with the decimals its step needs (0.1, 0.2 ... but 20, 40 ...). */
export function formatTick(value: number, step: number): string {
  return formatNumber(value, Math.min(decimalsOf(step), 3));
}

/** A share as a percentage with at most one decimal: 0.134 -> "13.4%". */
export function formatPercent(share: number): string {
  return `${formatNumber(share * 100)}%`;
}

// ---- dates (UTC days) ------------------------------------------------------------------------------

const DAY_MS = 86_400_000;
const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** "2026-11-27" as a count of UTC days since 1970-01-01; null when it is not a date. */
export function parseDay(iso: string): number | null {
  const m = ISO_DAY.exec(iso);
  if (!m) return null;
  const day = Math.round(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / DAY_MS);
  // Date.UTC rolls "2026-02-30" over into March: only a day that reads back the same is one.
  return Number.isFinite(day) && dayToIso(day) === iso ? day : null;
}

/** A count of UTC days since 1970-01-01 as "2026-11-27". */
export function dayToIso(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

const shortDate = new Intl.DateTimeFormat("en", { month: "short", day: "numeric", timeZone: "UTC" });
const monthOnly = new Intl.DateTimeFormat("en", { month: "short", timeZone: "UTC" });
const monthYear = new Intl.DateTimeFormat("en", { month: "short", year: "numeric", timeZone: "UTC" });

/** A day as "Nov 27" (English, UTC), from "2026-11-27" or a day count; any other text is kept as it is. */
export function formatDay(day: string | number): string {
  const n = typeof day === "number" ? day : parseDay(day);
  return n === null ? String(day) : shortDate.format(new Date(n * DAY_MS));
}

/** A tick on a date axis: its UTC day and its label. */
export type DateTick = { day: number; label: string };

/** Monday is day 4 of the count (1970-01-01 was a Thursday). */
const isMonday = (day: number) => (((day - 4) % 7) + 7) % 7 === 0;

/** Ticks every `step` days; weekly steps fall on Mondays. */
function dayTicks(start: number, end: number, step: number): number[] {
  let first = start;
  if (step % 7 === 0) while (!isMonday(first)) first++;
  const out: number[] = [];
  for (let d = first; d <= end; d += step) out.push(d);
  return out;
}

/** Ticks on the first day of every `months`-th month, counted from January of year 0. */
function monthTicks(start: number, end: number, months: number): number[] {
  const from = new Date(start * DAY_MS);
  let y = from.getUTCFullYear();
  let m = from.getUTCMonth();
  const out: number[] = [];
  for (;;) {
    const day = Date.UTC(y, m, 1) / DAY_MS;
    if (day > end) break;
    if (day >= start && (y * 12 + m) % months === 0) out.push(day);
    m++;
    if (m === 12) {
      m = 0;
      y++;
    }
  }
  return out;
}

const DAY_STEPS = [1, 2, 7, 14];
const MONTH_STEPS = [1, 2, 3, 6, 12, 24, 60, 120];

/**
 * Ticks for a date axis from `start` to `end` (UTC day counts, both included), at most `maxTicks` of them:
 * every day or every other day, else weekly or fortnightly on Mondays ("Nov 30"), else on the first of a
 * month every 1, 2, 3, 6 or 12 months, labelled by the month ("Dec"; January with its year, "Jan 2027").
 */
export function dateTicks(start: number, end: number, maxTicks = 6): DateTick[] {
  const span = end - start;
  for (const step of DAY_STEPS) {
    if (Math.floor(span / step) + 1 > maxTicks) continue;
    return dayTicks(start, end, step).map((day) => ({ day, label: formatDay(day) }));
  }
  for (const months of MONTH_STEPS) {
    const days = monthTicks(start, end, months);
    if (days.length > maxTicks) continue;
    return days.map((day) => {
      const date = new Date(day * DAY_MS);
      return { day, label: (date.getUTCMonth() === 0 ? monthYear : monthOnly).format(date) };
    });
  }
  return [];
}
