import type { BurnUpPoint } from "../../../shared/schemas/actuals";
import { DEFAULT_ESTIMATE } from "../../../shared/schemas/schedule";
import { round1 } from "../../plan/graph";

/**
 * What a plan's work actually took, for the Plan tab's pictures (issue 33): the burn-up (scope and done
 * over time) and the estimate accuracy (estimate against actual, by source); and what the plan's history
 * says changed since a date.
 */

const DAY = 86_400_000;

/** Past this many days the burn-up has a point a week, and never more than BURN_UP_POINTS_MAX points. */
const DAILY_DAYS_MAX = 180;

const BURN_UP_POINTS_MAX = 200;

export const TITLE_MAX = 80;

export type LeafRow = {
  id: string;
  description: string;
  status: string;
  createdAt: string;
  completedAt: string | null;
  likely: number | null;
  actual: number | null;
  source: string | null;
};

const dayOf = (ms: number) => new Date(Math.floor(ms / DAY) * DAY).toISOString().slice(0, 10);

/** The days a burn-up shows, from `first` to `last` (epoch days), each point the end of its day. */
export function burnUpDays(first: number, last: number): number[] {
  const span = Math.max(0, last - first);
  const step = Math.max(span > DAILY_DAYS_MAX ? 7 : 1, Math.ceil((span + 1) / BURN_UP_POINTS_MAX));
  const days: number[] = [];
  for (let d = first; d < last; d += step) days.push(d);
  days.push(last);
  return days;
}

/** Scope and done at the end of each day: leaves that existed then, and those completed by then. */
export function burnUp(leaves: readonly LeafRow[], today: number): BurnUpPoint[] {
  if (leaves.length === 0) return [];
  const created = leaves.map((l) => Date.parse(l.createdAt));
  const first = Math.floor(Math.min(...created) / DAY);
  const last = Math.max(first, Math.floor(today / DAY));
  return burnUpDays(first, last).map((day) => {
    const end = (day + 1) * DAY;
    const point = { date: dayOf(day * DAY), scope_leaves: 0, done_leaves: 0, scope_hours: 0, done_hours: 0 };
    leaves.forEach((l, i) => {
      if (created[i]! >= end) return;
      const hours = l.likely ?? DEFAULT_ESTIMATE.likely;
      point.scope_leaves++;
      point.scope_hours += hours;
      if (l.status === "completed" && l.completedAt && Date.parse(l.completedAt) < end) {
        point.done_leaves++;
        point.done_hours += hours;
      }
    });
    return { ...point, scope_hours: round1(point.scope_hours), done_hours: round1(point.done_hours) };
  });
}
