import type { FinishBin } from "../../shared/schemas/actuals";
import {
  DEFAULT_ESTIMATE,
  type EstimateRange,
  type Forecast,
  HOURS_PER_DAY,
  type Rollup,
} from "../../shared/schemas/schedule";

/**
 * The order of a plan, computed (docs/decisions/018-plans-a-team-can-run.md).
 *
 * Every task X has two events, its start S(X) and its end E(X), joined by arcs that say "not before":
 *   - a child starts after its parent starts (S(parent) -> S(child)) and the parent ends after every
 *     child ends (E(child) -> E(parent)), so a parent's dependencies apply to all its descendants and
 *     depending on a parent means waiting for all of its leaves;
 *   - a leaf's work lies between its start and end (S(leaf) -> E(leaf), the only arc with a duration);
 *   - "X depends on Y" is E(Y) -> S(X).
 * The graph has 2n events and about 3n + d arcs, so everything below is linear in the plan's size, and a
 * dependency set is acceptable exactly when this graph has no cycle (a dependency between a task and its
 * own ancestor or descendant always makes one).
 */

export type PlanNode = {
  id: string;
  parentId: string | null;
  done: boolean;
  /** The leaf's own estimate, if it has one (a parent's comes from its leaves). */
  estimate: EstimateRange | null;
  storyPoints: number | null;
  /** Who estimated it ("rule", "model", "person"): a calibrated forecast draws ratios by source. */
  estimateSource?: string | null;
};
export type PlanEdge = { taskId: string; dependsOnId: string };

const start = (i: number) => 2 * i;
const end = (i: number) => 2 * i + 1;

export class PlanGraph {
  readonly nodes: readonly PlanNode[];
  readonly index = new Map<string, number>();
  readonly parent: Int32Array;
  readonly isLeaf: Uint8Array;
  /** Compressed arcs: the successors of event v are succ[first[v] .. first[v + 1]). */
  readonly first: Int32Array;
  readonly succ: Int32Array;
  /** For each arc, the dependency it comes from (index into edges), or -1 for a tree or work arc. */
  readonly arcEdge: Int32Array;
  readonly edges: readonly PlanEdge[];
  /** Events in an order that respects every arc; null when the dependencies make a cycle. */
  readonly order: Int32Array | null;

  constructor(nodes: readonly PlanNode[], edges: readonly PlanEdge[]) {
    const n = nodes.length;
    this.nodes = nodes;
    for (let i = 0; i < n; i++) this.index.set(nodes[i]!.id, i);
    this.parent = new Int32Array(n).fill(-1);
    this.isLeaf = new Uint8Array(n).fill(1);
    for (let i = 0; i < n; i++) {
      const p = nodes[i]!.parentId;
      const pi = p === null ? undefined : this.index.get(p);
      if (pi !== undefined) {
        this.parent[i] = pi;
        this.isLeaf[pi] = 0;
      }
    }
    this.edges = edges.filter((e) => this.index.has(e.taskId) && this.index.has(e.dependsOnId));

    const events = 2 * n;
    const degree = new Int32Array(events + 1);
    for (let i = 0; i < n; i++) {
      if (this.parent[i]! >= 0) {
        degree[start(this.parent[i]!)]!++;
        degree[end(i)]!++;
      }
      if (this.isLeaf[i]) degree[start(i)]!++;
    }
    for (const e of this.edges) degree[end(this.index.get(e.dependsOnId)!)]!++;
    this.first = new Int32Array(events + 1);
    for (let v = 0; v < events; v++) this.first[v + 1] = this.first[v]! + degree[v]!;
    const m = this.first[events]!;
    this.succ = new Int32Array(m);
    this.arcEdge = new Int32Array(m).fill(-1);
    const fill = this.first.slice(0, events);
    const arc = (from: number, to: number, edge: number) => {
      const k = fill[from]!++;
      this.succ[k] = to;
      this.arcEdge[k] = edge;
    };
    for (let i = 0; i < n; i++) {
      const p = this.parent[i]!;
      if (p >= 0) {
        arc(start(p), start(i), -1);
        arc(end(i), end(p), -1);
      }
      if (this.isLeaf[i]) arc(start(i), end(i), -1);
    }
    this.edges.forEach((e, k) => {
      arc(end(this.index.get(e.dependsOnId)!), start(this.index.get(e.taskId)!), k);
    });
    this.order = topologicalOrder(this.first, this.succ, events);
  }

  get size() {
    return this.nodes.length;
  }

  isAncestor(ancestor: number, of: number): boolean {
    for (let p = this.parent[of]!; p >= 0; p = this.parent[p]!) if (p === ancestor) return true;
    return false;
  }

  /** Every node of the subtree at `top`, itself included. */
  subtree(top: number): Uint8Array {
    const inside = new Uint8Array(this.size);
    inside[top] = 1;
    // A parent may come after its child in `nodes`; walking up from each node is still linear enough
    // for a plan, and memoised through `inside`/`outside`.
    const outside = new Uint8Array(this.size);
    for (let i = 0; i < this.size; i++) {
      const path: number[] = [];
      let v = i;
      while (v >= 0 && !inside[v] && !outside[v]) {
        path.push(v);
        v = this.parent[v]!;
      }
      const verdict = v >= 0 && inside[v] === 1;
      for (const u of path) (verdict ? inside : outside)[u] = 1;
    }
    return inside;
  }

  /**
   * The chain of dependencies that adding "task waits for dependsOn" would close, as task indices from
   * `task` back to `task` (A -> B -> ... -> A, each waiting for the next), or null when it closes none.
   */
  cycleThrough(task: number, dependsOn: number): number[] | null {
    // The new arc E(dependsOn) -> S(task) closes a cycle when S(task) already reaches E(dependsOn).
    const events = 2 * this.size;
    const from = new Int32Array(events).fill(-2); // arc index that reached the event; -1 for the source
    const queue = new Int32Array(events);
    let head = 0;
    let tail = 0;
    queue[tail++] = start(task);
    from[start(task)] = -1;
    const target = end(dependsOn);
    while (head < tail && from[target] === -2) {
      const v = queue[head++]!;
      for (let k = this.first[v]!; k < this.first[v + 1]!; k++) {
        const s = this.succ[k]!;
        if (from[s] !== -2) continue;
        from[s] = k;
        queue[tail++] = s;
      }
    }
    if (from[target] === -2) return null;
    // Walk back from E(dependsOn) to S(task), collecting the dependencies on the way (last one first).
    const chain = [task, dependsOn];
    const arcSource = (k: number) => {
      let lo = 0;
      let hi = events - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (this.first[mid]! <= k) lo = mid;
        else hi = mid - 1;
      }
      return lo;
    };
    for (let v = target; from[v]! >= 0; ) {
      const k = from[v]!;
      const edge = this.arcEdge[k]!;
      if (edge >= 0) {
        const e = this.edges[edge]!;
        const waiting = this.index.get(e.taskId)!;
        const awaited = this.index.get(e.dependsOnId)!;
        if (chain.at(-1) !== waiting) chain.push(waiting);
        chain.push(awaited);
      }
      v = arcSource(k);
    }
    if (chain.at(-1) !== task) chain.push(task);
    return chain;
  }
}

/**
 * Of `candidates` (in order), the dependencies that can join the plan: between tasks of this plan, not
 * between a task and its own ancestor or descendant, not already there, and closing no cycle with the
 * ones kept before them. For proposals a planner makes across branches, where a wrong one is dropped,
 * not refused.
 */
export function acceptableDependencies(graph: PlanGraph, candidates: readonly PlanEdge[]): PlanEdge[] {
  const kept: PlanEdge[] = [];
  let current = graph;
  for (const edge of candidates) {
    const a = current.index.get(edge.taskId);
    const b = current.index.get(edge.dependsOnId);
    if (a === undefined || b === undefined || a === b) continue;
    if (current.isAncestor(a, b) || current.isAncestor(b, a)) continue;
    if (current.edges.some((e) => e.taskId === edge.taskId && e.dependsOnId === edge.dependsOnId)) continue;
    if (current.cycleThrough(a, b)) continue;
    kept.push(edge);
    current = new PlanGraph(current.nodes, [...current.edges, edge]);
  }
  return kept;
}

function topologicalOrder(first: Int32Array, succ: Int32Array, events: number): Int32Array | null {
  const indegree = new Int32Array(events);
  for (let k = 0; k < succ.length; k++) indegree[succ[k]!]!++;
  const order = new Int32Array(events);
  let head = 0;
  let tail = 0;
  for (let v = 0; v < events; v++) if (indegree[v] === 0) order[tail++] = v;
  while (head < tail) {
    const v = order[head++]!;
    for (let k = first[v]!; k < first[v + 1]!; k++) {
      const s = succ[k]!;
      if (--indegree[s]! === 0) order[tail++] = s;
    }
  }
  return tail === events ? order : null;
}

/** The estimate a leaf is scheduled with, and whether it had one of its own. */
export function leafEstimate(node: PlanNode): { estimate: EstimateRange; estimated: boolean } {
  return node.estimate
    ? { estimate: node.estimate, estimated: true }
    : { estimate: DEFAULT_ESTIMATE, estimated: false };
}

/**
 * Longest distances from the plan's beginning to every event, where a leaf's work arc weighs
 * `weight[leaf]`; `via` records the arc each event's distance came through (for the critical path).
 */
function longestFromStart(graph: PlanGraph, order: Int32Array, weight: Float64Array, via?: Int32Array) {
  const dist = new Float64Array(2 * graph.size);
  for (const v of order) {
    const base = dist[v]!;
    const leafWork = (v & 1) === 0 && graph.isLeaf[v >> 1] === 1 ? weight[v >> 1]! : 0;
    for (let k = graph.first[v]!; k < graph.first[v + 1]!; k++) {
      const s = graph.succ[k]!;
      const d = s === v + 1 && leafWork > 0 ? base + leafWork : base;
      if (d > dist[s]!) {
        dist[s] = d;
        if (via) via[s] = k;
      }
    }
  }
  return dist;
}

/** Longest distance from each event to the plan's end (the remaining work after it), same weights. */
function longestToEnd(graph: PlanGraph, order: Int32Array, weight: Float64Array) {
  const tail = new Float64Array(2 * graph.size);
  for (let j = order.length - 1; j >= 0; j--) {
    const v = order[j]!;
    const leafWork = (v & 1) === 0 && graph.isLeaf[v >> 1] === 1 ? weight[v >> 1]! : 0;
    let best = 0;
    for (let k = graph.first[v]!; k < graph.first[v + 1]!; k++) {
      const s = graph.succ[k]!;
      const d = tail[s]! + (s === v + 1 ? leafWork : 0);
      if (d > best) best = d;
    }
    tail[v] = best;
  }
  return tail;
}

/** Leaves not done whose dependencies (their own and their ancestors') are all done, in plan order. */
export function readyLeaves(graph: PlanGraph): number[] {
  if (!graph.order) return [];
  const remaining = new Float64Array(graph.size);
  for (let i = 0; i < graph.size; i++) if (graph.isLeaf[i] && !graph.nodes[i]!.done) remaining[i] = 1;
  const blockedBy = longestFromStart(graph, graph.order, remaining);
  const out: number[] = [];
  for (let i = 0; i < graph.size; i++) if (remaining[i] && blockedBy[start(i)] === 0) out.push(i);
  return out;
}

export type ScheduleResult = {
  criticalPath: number[];
  criticalPathHours: number;
  waves: number[][];
  ready: number[];
  unestimated: number[];
  forecast: Forecast;
};

/**
 * The schedule of the subtree at `top`: work outside it counts as done (its own leaves are what is
 * planned), but a leaf is only ready when everything it waits for, inside or outside, is done.
 */
export function schedulePlan(
  graph: PlanGraph,
  top: number,
  teamSize: number,
  seed: string,
  simulations: number,
  /** Per estimate source, the actual / likely ratios a leaf's drawn hours are scaled by (none: as estimated). */
  ratiosFor: (source: string | null) => readonly number[] = () => [],
): ScheduleResult {
  const order = graph.order;
  if (!order) throw new Error("schedulePlan: the plan has a cycle");
  const n = graph.size;
  const inside = graph.subtree(top);
  const likely = new Float64Array(n);
  const unit = new Float64Array(n);
  const low = new Float64Array(n);
  const high = new Float64Array(n);
  const work: number[] = []; // leaves with work left inside the subtree, in plan order
  const unestimated: number[] = [];
  for (let i = 0; i < n; i++) {
    if (!graph.isLeaf[i] || graph.nodes[i]!.done || !inside[i]) continue;
    const { estimate, estimated } = leafEstimate(graph.nodes[i]!);
    if (!estimated) unestimated.push(i);
    // A zero-hour leaf still takes its place in the order.
    likely[i] = Math.max(estimate.likely, 1e-6);
    low[i] = Math.max(estimate.low, 1e-6);
    high[i] = Math.max(estimate.high, 1e-6);
    unit[i] = 1;
    work.push(i);
  }

  const via = new Int32Array(2 * n).fill(-1);
  const dist = longestFromStart(graph, order, likely, via);
  const tail = longestToEnd(graph, order, likely);
  let makespan = 0;
  let last = -1;
  for (const i of work) {
    const finish = dist[start(i)]! + likely[i]!;
    if (finish > makespan) {
      makespan = finish;
      last = i;
    }
  }
  const criticalPath: number[] = [];
  if (last >= 0) {
    // Back from the last leaf to the beginning, through the arcs that set each distance.
    const arcFrom = (k: number) => {
      let lo = 0;
      let hi = 2 * n - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (graph.first[mid]! <= k) lo = mid;
        else hi = mid - 1;
      }
      return lo;
    };
    for (let v = end(last); v >= 0 && via[v]! >= 0; v = arcFrom(via[v]!)) {
      const from = arcFrom(via[v]!);
      if (v === from + 1 && (from & 1) === 0 && likely[from >> 1]! > 0) criticalPath.push(from >> 1);
    }
    criticalPath.reverse();
  }
  const critical = new Uint8Array(n);
  for (const i of criticalPath) critical[i] = 1;

  const waveOf = longestFromStart(graph, order, unit);
  const waves: number[][] = [];
  for (const i of work) {
    const w = waveOf[start(i)]!;
    const wave = waves[w];
    if (wave) wave.push(i);
    else waves[w] = [i];
  }
  const priority = (i: number) => tail[start(i)]!;
  const ready = readyLeaves(graph)
    .filter((i) => inside[i] === 1)
    .sort((a, b) => critical[b]! - critical[a]! || priority(b) - priority(a) || a - b);

  return {
    criticalPath,
    criticalPathHours: round1(makespan),
    waves: waves.filter((w) => w !== undefined),
    ready,
    unestimated,
    // No runs asked (the agent's views use only the order): no forecast, and none of its set-up.
    forecast:
      simulations > 0
        ? forecast(graph, work, { low, likely, high }, tail, teamSize, seed, simulations, ratiosFor)
        : {
            team_size: teamSize,
            p50_days: 0,
            p90_days: 0,
            simulations: 0,
            hours_per_day: HOURS_PER_DAY,
            distribution: [],
          },
  };
}

export const round1 = (x: number) => Math.round(x * 10) / 10;

/** mulberry32: a small seeded generator, so the same plan gives the same forecast. */
function random(seed: string) {
  let h = 1779033703 ^ seed.length;
  for (let i = 0; i < seed.length; i++) {
    h = Math.imul(h ^ seed.charCodeAt(i), 3432918353);
    h = (h << 13) | (h >>> 19);
  }
  let a = h >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A draw from the triangular distribution over [low, high] that peaks at likely. */
function triangular(u: number, a: number, m: number, b: number) {
  if (b <= a) return m;
  const c = (m - a) / (b - a);
  return u < c ? a + Math.sqrt(u * (b - a) * (m - a)) : b - Math.sqrt((1 - u) * (b - a) * (b - m));
}

/**
 * Monte Carlo over the estimate ranges: each run draws every remaining leaf's hours and lets `teamSize`
 * people take ready leaves, the one with the most work behind it first (list scheduling), respecting every
 * dependency. The finish times' 50th and 90th percentiles, in working days.
 */
function forecast(
  graph: PlanGraph,
  work: number[],
  range: { low: Float64Array; likely: Float64Array; high: Float64Array },
  tail: Float64Array,
  teamSize: number,
  seed: string,
  simulations: number,
  ratiosFor: (source: string | null) => readonly number[],
): Forecast {
  const n = graph.size;
  // Evidence-based scheduling: each leaf's drawn hours times a ratio drawn from finished leaves' history.
  const ratios = new Map<number, readonly number[]>();
  for (const i of work) {
    const list = ratiosFor(graph.nodes[i]!.estimateSource ?? null);
    if (list.length > 0) ratios.set(i, list);
  }
  const events = 2 * n;
  const indegree = new Int32Array(events);
  for (let k = 0; k < graph.succ.length; k++) indegree[graph.succ[k]!]!++;
  // Ready leaves are taken by rank: most work behind them first, then plan order. Ranks are integers, so
  // the heap compares plain numbers.
  const rank = new Int32Array(n);
  const byPriority = Array.from({ length: n }, (_, i) => i).sort(
    (a, b) => tail[start(b)]! - tail[start(a)]! || a - b,
  );
  byPriority.forEach((i, r) => {
    rank[i] = r;
  });
  // The first instant is the same in every run: the events that fire before any work is done, and the
  // leaves that are ready then.
  const initialPending = indegree.slice();
  const stack = new Int32Array(events);
  const isWork = new Uint8Array(n);
  for (const i of work) isWork[i] = 1;
  const initialReady: number[] = [];
  let top = 0;
  for (let v = 0; v < events; v++) if (initialPending[v] === 0) stack[top++] = v;
  let initialFired = 0;
  while (top > 0) {
    const v = stack[--top]!;
    initialFired++;
    if ((v & 1) === 0 && isWork[v >> 1] === 1) {
      initialReady.push(rank[v >> 1]!);
      continue;
    }
    for (let k = graph.first[v]!; k < graph.first[v + 1]!; k++) {
      const s = graph.succ[k]!;
      if (--initialPending[s]! === 0) stack[top++] = s;
    }
  }
  initialReady.sort((a, b) => a - b); // a sorted array is a valid min-heap
  const pending = new Int32Array(events);
  const hours = new Float64Array(n);
  const heap = new Int32Array(n); // ranks
  const runAt = new Float64Array(Math.max(teamSize, 1));
  const runLeaf = new Int32Array(Math.max(teamSize, 1));
  const next = random(seed);
  const finishes = new Float64Array(simulations);
  const first = graph.first;
  const succ = graph.succ;

  for (let sim = 0; sim < simulations; sim++) {
    for (const i of work) {
      hours[i] = triangular(next(), range.low[i]!, range.likely[i]!, range.high[i]!);
      const list = ratios.get(i);
      if (list) hours[i] = hours[i]! * list[Math.floor(next() * list.length) % list.length]!;
    }
    pending.set(initialPending);
    let size = initialReady.length;
    for (let j = 0; j < size; j++) heap[j] = initialReady[j]!;
    let fired = initialFired;
    let running = 0;
    let now = 0;
    for (;;) {
      while (running < teamSize && size > 0) {
        const leaf = byPriority[heap[0]!]!;
        const moved = heap[--size]!;
        let c = 0;
        for (;;) {
          const l = 2 * c + 1;
          if (l >= size) break;
          const best = l + 1 < size && heap[l + 1]! < heap[l]! ? l + 1 : l;
          if (heap[best]! >= moved) break;
          heap[c] = heap[best]!;
          c = best;
        }
        if (size > 0) heap[c] = moved;
        runAt[running] = now + hours[leaf]!;
        runLeaf[running] = leaf;
        running++;
      }
      if (running === 0) break;
      // The next leaf to finish (teams are small: a scan beats a heap here).
      let soonest = 0;
      for (let r = 1; r < running; r++) if (runAt[r]! < runAt[soonest]!) soonest = r;
      now = runAt[soonest]!;
      const done = runLeaf[soonest]!;
      running--;
      runAt[soonest] = runAt[running]!;
      runLeaf[soonest] = runLeaf[running]!;
      // Its end event fires, and with it every event that waited only for it.
      stack[0] = end(done);
      top = 1;
      while (top > 0) {
        const v = stack[--top]!;
        fired++;
        if ((v & 1) === 0 && isWork[v >> 1] === 1) {
          // A leaf with work left becomes ready.
          let c = size++;
          const r = rank[v >> 1]!;
          while (c > 0) {
            const p = (c - 1) >> 1;
            if (heap[p]! <= r) break;
            heap[c] = heap[p]!;
            c = p;
          }
          heap[c] = r;
          continue;
        }
        for (let k = first[v]!; k < first[v + 1]!; k++) {
          const s = succ[k]!;
          if (--pending[s]! === 0) stack[top++] = s;
        }
      }
    }
    // Every event fires once; only a cycle could leave some unfired.
    if (fired !== events) throw new Error("forecast: the plan has a cycle");
    finishes[sim] = now;
  }
  finishes.sort();
  const at = (p: number) =>
    simulations ? finishes[Math.min(simulations - 1, Math.ceil(p * simulations) - 1)]! : 0;
  return {
    team_size: teamSize,
    p50_days: round1(at(0.5) / HOURS_PER_DAY),
    p90_days: round1(at(0.9) / HOURS_PER_DAY),
    simulations,
    hours_per_day: HOURS_PER_DAY,
    distribution: finishHistogram(finishes),
  };
}

/** Bars of a finish histogram at most. */
const BINS_MAX = 30;

/**
 * The runs' finish times (sorted, in hours) as a histogram in working days: bars of a half-day multiple
 * wide, at most BINS_MAX of them, each counting the runs that finish in [days - width, days) (the last
 * bar also takes the longest run).
 */
export function finishHistogram(finishes: Float64Array): FinishBin[] {
  if (finishes.length === 0) return [];
  const days = Array.from(finishes, (h) => h / HOURS_PER_DAY);
  const min = days[0]!;
  const max = days[days.length - 1]!;
  const width = Math.max(0.5, Math.ceil(((max - min) / BINS_MAX) * 2) / 2);
  const first = Math.floor(min / width) * width;
  const count = Math.min(BINS_MAX + 1, Math.floor((max - first) / width) + 1);
  const runs = new Array<number>(count).fill(0);
  for (const d of days) runs[Math.min(count - 1, Math.floor((d - first) / width))]!++;
  return runs.map((r, k) => ({ days: round1(first + (k + 1) * width), runs: r }));
}

/**
 * Roll-ups of every parent in the plan: story points and hour ranges of its leaves added up, and how
 * many leaves are done. Leaves get none. Linear: each node adds itself to its parent once the nodes are
 * visited deepest first (`deepestFirst` is any order with every child before its parent).
 */
export function rollups(graph: PlanGraph, deepestFirst: Iterable<number>): (Rollup | null)[] {
  const out: (Rollup | null)[] = new Array(graph.size).fill(null);
  const sums = graph.nodes.map(() => ({
    story_points: 0,
    estimate_hours: { low: 0, likely: 0, high: 0 },
    leaves_done: 0,
    leaves_total: 0,
    leaves_unestimated: 0,
  }));
  for (const i of deepestFirst) {
    const node = graph.nodes[i]!;
    const own = sums[i]!;
    if (graph.isLeaf[i]) {
      own.leaves_total = 1;
      own.leaves_done = node.done ? 1 : 0;
      own.story_points = node.storyPoints ?? 0;
      if (node.estimate) own.estimate_hours = { ...node.estimate };
      else own.leaves_unestimated = 1;
    } else {
      own.estimate_hours = {
        low: round1(own.estimate_hours.low),
        likely: round1(own.estimate_hours.likely),
        high: round1(own.estimate_hours.high),
      };
      out[i] = own;
    }
    const p = graph.parent[i]!;
    if (p < 0) continue;
    const up = sums[p]!;
    up.story_points += own.story_points;
    up.estimate_hours.low += own.estimate_hours.low;
    up.estimate_hours.likely += own.estimate_hours.likely;
    up.estimate_hours.high += own.estimate_hours.high;
    up.leaves_done += own.leaves_done;
    up.leaves_total += own.leaves_total;
    up.leaves_unestimated += own.leaves_unestimated;
  }
  return out;
}
