import { descriptionFirstLine } from "../../shared/task-title";
import { NEAR_DUPLICATE, similarity, wordSet } from "../lib/words";

/**
 * The dedup pass run once the tree is built (decision 014): splits run in parallel and a model may plan
 * the same work in two branches despite being shown the outline. Leaves whose titles are the same, or
 * near enough (the same words give or take one in five, for titles of three words or more), are merged
 * into the first one in reading order: it keeps its place and takes the other's requirement ids and
 * acceptance criteria; the later one is removed.
 */
export type DedupeNode = {
  id: string;
  parentId: string | null;
  description: string;
  acceptanceCriteria: string[];
  requirementIds: string[];
};

export type Merge = {
  keep: string;
  drop: string;
  /** The kept node's merged lists. */
  acceptanceCriteria: string[];
  requirementIds: string[];
};

const normalise = (t: string) =>
  t
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();

/** `nodes` in depth-first reading order, the root excluded. */
export function findDuplicates(nodes: DedupeNode[]): Merge[] {
  const parents = new Set(nodes.map((n) => n.parentId));
  const kept: { node: DedupeNode; words: Set<string>; norm: string; criteria: string[]; ids: string[] }[] =
    [];
  const drops: { drop: string; into: (typeof kept)[number] }[] = [];
  for (const node of nodes.filter((n) => !parents.has(n.id))) {
    // Titles are compared, not whole descriptions: leaves of one sentence's list may quote it alike below.
    const title = descriptionFirstLine(node.description);
    const norm = normalise(title);
    const words = wordSet(title);
    const twin = kept.find(
      (k) =>
        k.norm === norm ||
        (words.size >= 3 && k.words.size >= 3 && similarity(k.words, words) >= NEAR_DUPLICATE),
    );
    if (!twin) {
      kept.push({ node, words, norm, criteria: node.acceptanceCriteria, ids: node.requirementIds });
      continue;
    }
    twin.criteria = [...new Set([...twin.criteria, ...node.acceptanceCriteria])].slice(0, 5);
    twin.ids = [...new Set([...twin.ids, ...node.requirementIds])].sort(
      (a, b) => Number(a.slice(1)) - Number(b.slice(1)),
    );
    drops.push({ drop: node.id, into: twin });
  }
  return drops.map(({ drop, into }) => ({
    keep: into.node.id,
    drop,
    acceptanceCriteria: into.criteria,
    requirementIds: into.ids,
  }));
}
