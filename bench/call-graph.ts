/**
 * The call-graph bound of a decomposition: how long its model calls alone would take, at a given number
 * of calls in flight, if the engine cost nothing. Every call takes the same time L, so the bound is a
 * whole number of rounds of L.
 *
 * The calls: one complexity assessment, then the splits (a tree: the root's split, then one split per
 * non-atomic node, each after its parent's), then the composer's calls (in parallel, after the last split).
 *
 * Splits, `levels[d]` of them at depth d, at most c at a time: a split at depth d cannot start before
 * round d (it waits for d splits above it, one after the other), and the N(>=d) splits at depth d or
 * deeper need ceil(N(>=d) / c) rounds of their own from then on. So no schedule takes fewer than
 *   max over d of (d + ceil(N(>=d) / c))
 * rounds. `scheduleRounds` runs the calls greedily (deepest-reaching first) to check that the bound is
 * reached, i.e. that it is the bound and not only a lower one.
 */

export type CallGraph = {
  /** Split calls per depth, the root's first: [1, 5, 25] for depth 3 with 5 children per node. */
  levels: number[];
  /** Calls the composer makes in parallel once every split is done. */
  composeCalls: number;
};

/** Rounds n calls need at c at a time (at least one, even with unlimited concurrency). */
function roundsFor(n: number, concurrency: number): number {
  return n > 0 ? Math.max(1, Math.ceil(n / concurrency)) : 0;
}

function splitRoundsBound(levels: number[], concurrency: number): number {
  let rounds = 0;
  for (let d = 0; d < levels.length; d++) {
    const atOrBelow = levels.slice(d).reduce((a, b) => a + b, 0);
    if (atOrBelow > 0) rounds = Math.max(rounds, d + roundsFor(atOrBelow, concurrency));
  }
  return rounds;
}

/** Rounds of the whole graph: complexity, splits, compose. */
export function boundRounds(graph: CallGraph, concurrency: number): number {
  return 1 + splitRoundsBound(graph.levels, concurrency) + roundsFor(graph.composeCalls, concurrency);
}

/**
 * An actual schedule of the splits: each round runs up to c ready splits, those with the most levels
 * still below them first; a split's children become ready the round after it. Children are spread as
 * evenly as the levels allow (levels[d + 1] over levels[d] parents).
 */
export function scheduleRounds(graph: CallGraph, concurrency: number): number {
  const { levels } = graph;
  // ready[d]: splits at depth d that may start now.
  const ready = levels.map((_, d) => (d === 0 ? levels[0]! : 0));
  const doneAt = levels.map(() => 0);
  let rounds = 0;
  while (doneAt.some((n, d) => n < levels[d]!)) {
    rounds++;
    let free = concurrency;
    const started = levels.map(() => 0);
    for (let d = 0; d < levels.length && free > 0; d++) {
      const n = Math.min(free, ready[d]!);
      started[d] = n;
      ready[d]! -= n;
      free -= n;
    }
    for (let d = 0; d < levels.length; d++) {
      if (started[d] === 0) continue;
      const before = doneAt[d]!;
      doneAt[d] = before + started[d]!;
      const next = levels[d + 1];
      if (next === undefined) continue;
      // Children released by the parents finished this round, spread evenly over the parents.
      const childrenOf = (parents: number) => Math.floor((parents * next) / levels[d]!);
      ready[d + 1]! += childrenOf(doneAt[d]!) - childrenOf(before);
    }
  }
  return 1 + rounds + roundsFor(graph.composeCalls, concurrency);
}
