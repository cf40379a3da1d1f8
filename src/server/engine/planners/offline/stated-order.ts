import type { OutlineNode } from "./outline";

/**
 * The offline planner's dependencies among siblings: only what the work's structure or the text states
 * (decisions 018 and 027). Shared words never order work: "export invoices" does not wait for "import
 * invoices" because both say "invoices".
 *   - setup comes before everything else; the release waits for every workstream;
 *   - within a release, the checks (security review, acceptance run) come before shipping;
 *   - steps of one series follow each other in order: a kind's own steps (reproduce before fixing,
 *     measure before changing, rehearse before cutting over) and the steps the text states in order
 *     ("1. Update Rails 2. Fix deprecations", "train, then validate, then deploy").
 * A parent's dependencies apply to its subtasks, so an order between two groups orders all their work.
 */

/** For each sibling, the (1-based) numbers of the siblings it waits for. */
export function siblingOrder(siblings: OutlineNode[]): number[][] {
  const deps = siblings.map(() => new Set<number>());
  // The release waits for setup through the workstreams, when there are any.
  const workstreams = siblings.some((n) => n.role !== "setup" && n.role !== "release");
  siblings.forEach((b, j) => {
    siblings.forEach((a, i) => {
      if (i === j) return;
      const before =
        (a.role === "setup" && b.role !== "setup" && !(b.role === "release" && workstreams)) ||
        (b.role === "release" && a.role !== "setup" && a.role !== "release") ||
        (b.role === "ship" && a.role === "verify");
      if (before) deps[j]!.add(i + 1);
    });
    // A step of a series waits for the step before it in the same series: every sibling of that step
    // when several share it (the items of one stated step are done side by side).
    if (b.sequence) {
      const earlier = siblings
        .slice(0, j)
        .map((a, i) => ({ a, i }))
        .filter(({ a }) => a.sequence === b.sequence);
      if (b.step === undefined) {
        const last = earlier[earlier.length - 1];
        if (last) deps[j]!.add(last.i + 1);
      } else {
        const steps = earlier.map(({ a }) => a.step ?? -1).filter((s) => s < b.step!);
        const previous = Math.max(-Infinity, ...steps);
        for (const { a, i } of earlier) if ((a.step ?? -1) === previous) deps[j]!.add(i + 1);
      }
    }
  });
  return deps.map((d) => [...d].sort((x, y) => x - y));
}
