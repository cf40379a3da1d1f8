const dateTime = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short" });
const dateOnly = new Intl.DateTimeFormat("en", { dateStyle: "long" });
const relative = new Intl.RelativeTimeFormat("en", { numeric: "auto" });

const STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["second", 60],
  ["minute", 60],
  ["hour", 24],
  ["day", 7],
  ["week", 4.345],
  ["month", 12],
  ["year", Number.POSITIVE_INFINITY],
];

function parse(iso: string | null | undefined): Date | null {
  if (!iso) return null;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** "Nov 21, 2026, 3:04 PM"; "" for a missing or invalid date. */
export function formatDateTime(iso: string | null | undefined): string {
  const d = parse(iso);
  return d ? dateTime.format(d) : "";
}

/** "November 21, 2026"; `utc` for instants that mark a UTC day (e.g. a monthly reset). */
export function formatDate(iso: string | null | undefined, { utc = false } = {}): string {
  const d = parse(iso);
  if (!d) return "";
  return utc ? d.toLocaleDateString("en", { dateStyle: "long", timeZone: "UTC" }) : dateOnly.format(d);
}

/** "5 minutes ago", "yesterday", "just now". */
export function formatRelativeTime(iso: string | null | undefined, now = Date.now()): string {
  const d = parse(iso);
  if (!d) return "";
  let value = (d.getTime() - now) / 1000;
  if (Math.abs(value) < 45) return "just now";
  for (const [unit, size] of STEPS) {
    if (Math.abs(value) < size) return relative.format(Math.round(value), unit);
    value /= size;
  }
  return dateTime.format(d);
}

const dayOfWeek = new Intl.DateTimeFormat("en", { weekday: "short", month: "short", day: "numeric" });
const dayOfWeekWithYear = new Intl.DateTimeFormat("en", {
  weekday: "short",
  month: "short",
  day: "numeric",
  year: "numeric",
});

/** A forecast date: "Tue, Nov 30", with its year when it is not this year's ("Tue, Nov 30, 2027"). */
export function forecastDate(date: Date, today: Date): string {
  return (date.getFullYear() === today.getFullYear() ? dayOfWeek : dayOfWeekWithYear).format(date);
}
