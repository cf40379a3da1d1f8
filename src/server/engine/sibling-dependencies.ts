import type { PlannedSubtask } from "../../shared/schemas/plan";
import { rangeAround } from "./planners/offline/estimate";

/**
 * The dependencies a planner proposed among the subtasks of one split, as [waiting, awaited] pairs of
 * 0-based positions. A planner's numbers are 1-based and only advisory: numbers outside the list, a
 * subtask waiting for itself, repeats, and any pair that would close a cycle (with the pairs kept before
 * it) are dropped, so a model's mistake never blocks a plan.
 */
export function siblingDependencies(planned: Pick<PlannedSubtask, "depends_on">[]): [number, number][] {
  const n = planned.length;
  const waitsFor = planned.map(() => new Set<number>());
  const reaches = (from: number, to: number) => {
    const seen = new Set([from]);
    const stack = [from];
    while (stack.length) {
      const v = stack.pop()!;
      if (v === to) return true;
      for (const w of waitsFor[v]!) {
        if (!seen.has(w)) {
          seen.add(w);
          stack.push(w);
        }
      }
    }
    return false;
  };
  const out: [number, number][] = [];
  planned.forEach((p, i) => {
    for (const number of p.depends_on ?? []) {
      const j = number - 1;
      if (!Number.isInteger(j) || j < 0 || j >= n || j === i || waitsFor[i]!.has(j)) continue;
      // i waits for j: refused when j already (transitively) waits for i.
      if (reaches(j, i)) continue;
      waitsFor[i]!.add(j);
      out.push([i, j]);
    }
  });
  return out;
}

/** A planned subtask's estimate range: the planner's ends where it gave them (kept around the likely value), else the rule's. */
export function plannedRange(
  p: Pick<PlannedSubtask, "estimated_hours" | "estimate_low_hours" | "estimate_high_hours">,
) {
  const rule = rangeAround(p.estimated_hours);
  return {
    low: Math.min(p.estimate_low_hours ?? rule.low, p.estimated_hours),
    high: Math.max(p.estimate_high_hours ?? rule.high, p.estimated_hours),
  };
}
