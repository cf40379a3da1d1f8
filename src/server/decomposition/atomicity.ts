/**
 * When a node stops being split (docs/decisions/005-decomposition.md):
 * - the root is always split (it is the project; max_depth >= 1);
 * - a node at max_depth is atomic;
 * - otherwise a node is atomic when its complexity score (1-10) is at or below
 *   complexity_threshold x 10; the default threshold 0.7 splits everything scored 8, 9 or 10.
 * The model proposes scores; this rule, not the model, decides atomicity, so the outcome is
 * reproducible from the stored scores.
 */
export function isAtomic(
  node: { depth: number; complexityScore: number },
  opts: { maxDepth: number; threshold: number },
) {
  if (node.depth === 0) return false;
  if (node.depth >= opts.maxDepth) return true;
  return node.complexityScore <= Math.round(opts.threshold * 10 * 1000) / 1000;
}
