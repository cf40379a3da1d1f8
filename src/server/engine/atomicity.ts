import { ATOMIC_HOURS } from "../../shared/schemas/plan";

/**
 * When a node stops being split (docs/decisions/005-decomposition.md, 014):
 * - the root is always split (it is the project; max_depth >= 1);
 * - a node at max_depth is atomic;
 * - otherwise a node is atomic when its complexity score (1-10) is at or below
 *   complexity_threshold x 10 (the default 0.7 splits everything scored 8, 9 or 10) and its estimate,
 *   when it has one, is at most ATOMIC_HOURS (about two developer-days, one pull request): atomic is
 *   defined in time, so a "simple" node that would take a week is split too.
 * The planner proposes scores and estimates; this rule, not the planner, decides atomicity, so the
 * outcome is reproducible from the stored values.
 */
export function isAtomic(
  node: { depth: number; complexityScore: number; estimatedHours?: number | null },
  opts: { maxDepth: number; threshold: number },
) {
  if (node.depth === 0) return false;
  if (node.depth >= opts.maxDepth) return true;
  if (node.estimatedHours != null && node.estimatedHours > ATOMIC_HOURS) return false;
  return node.complexityScore <= Math.round(opts.threshold * 10 * 1000) / 1000;
}
