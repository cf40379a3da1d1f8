import { group, idList, type OutlineNode, uniqueById } from "./nodes";

/**
 * Fitting the outline to `max_subtasks` per level: neighbours are gathered into parts of even size under
 * a node named after what it gathers, never dropped.
 */

/**
 * Makes every level fit `max` children: consecutive siblings are gathered under a node named after what
 * it gathers, so nothing is dropped when a split is capped at max_subtasks.
 */
function fitTree(nodes: OutlineNode[], max: number, base?: string): OutlineNode[] {
  const fitted = nodes.map((n) =>
    n.children.length ? { ...n, children: fitTree(n.children, max, n.title) } : n,
  );
  if (fitted.length <= max) return fitted;
  const size = Math.ceil(fitted.length / max);
  const chunks: OutlineNode[][] = [];
  for (let i = 0; i < fitted.length; i += size) chunks.push(fitted.slice(i, i + size));
  return fitTree(
    chunks.map((chunk, k) =>
      chunk.length === 1 ? chunk[0]! : gathered(chunk, k, chunks.length, undefined, base),
    ),
    max,
    base,
  );
}

/**
 * Nodes already fitted below, gathered into at most `slots` nodes of at most `max` each: a level at a
 * time, so every level below keeps `max` (fitting to `slots` itself would cap them all at `slots`, and
 * never end at one slot).
 */
function fitInto(nodes: OutlineNode[], slots: number, max: number, base: string): OutlineNode[] {
  if (nodes.length <= slots) return nodes;
  const size = Math.min(max, Math.ceil(nodes.length / slots));
  const chunks: OutlineNode[][] = [];
  for (let i = 0; i < nodes.length; i += size) chunks.push(nodes.slice(i, i + size));
  return fitInto(
    chunks.map((chunk, k) =>
      chunk.length === 1 ? chunk[0]! : gathered(chunk, k, chunks.length, undefined, base),
    ),
    slots,
    max,
    base,
  );
}

/**
 * A gathering node; consecutive steps of one series stay one series: a part holding steps of a series
 * (and of no other) takes its place in it, at its first step, so part 2 of a stated sequence waits for part 1.
 */
function gathered(chunk: OutlineNode[], k: number, of: number, title?: string, base?: string): OutlineNode {
  const inSeries = chunk.filter((c) => c.sequence);
  const series =
    inSeries.length && inSeries.every((c) => c.sequence === inSeries[0]!.sequence)
      ? inSeries[0]!.sequence
      : undefined;
  const node = group(title ?? chunkTitle(chunk, k, of, base), chunk);
  if (!series) return node;
  const steps = inSeries.map((c) => c.step).filter((s): s is number => s !== undefined);
  return {
    ...node,
    sequence: series,
    ...(steps.length === inSeries.length ? { step: Math.min(...steps) } : {}),
  };
}

/** The first level: setup and release keep their own places while the workstreams fit in between. */
export function fitFirstLevel(
  first: OutlineNode[],
  middle: OutlineNode[],
  last: OutlineNode[],
  max: number,
  coreTitle: string | null,
) {
  const slots = max - first.length - last.length;
  if (slots < 1 || middle.length <= slots) return fitTree([...first, ...middle, ...last], max);
  // As few gathering nodes as will do, each as full as a split allows.
  const groups = Math.ceil(middle.length / max);
  if (groups > slots)
    return fitTree(
      [...first, ...fitInto(fitTree(middle, max), slots, max, coreTitle ?? "The stated work"), ...last],
      max,
    );
  // Parts of even size, so none is left with a single child ("part 2 of 2 (R8)").
  const size = Math.ceil(middle.length / groups);
  const out: OutlineNode[] = [];
  for (let i = 0, k = 0; i < middle.length; i += size, k++) {
    const chunk = fitTree(middle.slice(i, i + size), max);
    out.push(
      groups === 1 && coreTitle
        ? gathered(chunk, k, groups, coreTitle)
        : gathered(chunk, k, groups, undefined, coreTitle ?? undefined),
    );
  }
  return fitTree([...first, ...out, ...last], max);
}

/** The longest list of ids a title spells out ("R8-R14"); a longer one is told by its count and ends. */
const TITLE_IDS = 80;

/**
 * What a gathering node holds, in words: its groups' names, or, for a run of requirements, the part it
 * is ("Core functionality, part 2 of 3 (R8-R14)") so no title repeats one of its children's.
 */
function chunkTitle(chunk: OutlineNode[], k: number, of: number, base?: string): string {
  const ids = uniqueById(chunk.flatMap((c) => c.covers));
  const groups = chunk.filter((c) => c.children.length > 0 || c.covers.length !== 1);
  const part = of > 1 ? `, part ${k + 1} of ${of}` : "";
  if (groups.length === 0 && ids.length)
    return `${base ?? "Stated requirements"}${part} (${idList(ids, TITLE_IDS)})`;
  const names = chunk.map((c) => c.title);
  const joined = names.join("; ");
  return joined.length <= 120
    ? joined
    : `${base ?? "Steps"}${part}${ids.length ? ` (${idList(ids, TITLE_IDS)})` : ""}`;
}
