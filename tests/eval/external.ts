/**
 * The external corpus (issue 38): descriptions modelled closely on public texts, written and annotated
 * outside the project, read at run time from `../shared/corpus/*.json` beside the repository (CI lays
 * shared/ there too). Their text is never copied into the project: this module reads them, plans them
 * and scores the plans with the corpus's own mechanical check (its README):
 *
 * - each `features` group (alternative match words; "/re/" is a regular expression) needs a leaf of its
 *   own whose title or description matches it, counted as a maximum matching, one leaf per feature;
 *   the case needs 80% of them;
 * - no leaf title matches `leaf_title_mustnot` (non-work) or `leaf_title_misfit` (boilerplate that does
 *   not fit the kind);
 * - every `must_terms` group is named somewhere below the root;
 * - every stated `order` pair [before, after] is kept: the leaf matching `after` is in a later wave;
 * - no two leaves share a title, and no leaf title crams three or more features.
 *
 * A third of the cases is held out: the 20 whose sha256(key) sorts lowest. Nothing of their text or
 * plans is ever printed; tuning uses the rest.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { EvalCase, WorkKindId } from "./case";
import type { PlanNode, PlanRecord } from "./driver";
import { leavesOf } from "./metrics";

export type ExternalCase = {
  key: string;
  kind: string;
  description: string;
  features: string[][];
  leaf_title_mustnot: string[];
  leaf_title_misfit: string[];
  must_terms: string[][];
  /** Pairs [before, after]; each side a match word or a group of them. */
  order?: [string | string[], string | string[]][];
};

/** Where CI and a developer's machine keep the corpus: shared/ beside the repository. */
export const EXTERNAL_CORPUS_DIR = path.resolve(import.meta.dirname, "../../../shared/corpus");

/** The cases, sorted by key; an empty list when the folder is absent (a clone on its own). */
export function loadExternalCorpus(dir = EXTERNAL_CORPUS_DIR): ExternalCase[] {
  if (!existsSync(dir)) return [];
  const cases: ExternalCase[] = [];
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort())
    cases.push(...(JSON.parse(readFileSync(path.join(dir, file), "utf8")) as ExternalCase[]));
  return cases.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

const hashOf = (key: string) => createHash("sha256").update(key).digest("hex");

/** The held-out third: the cases whose sha256(key) sorts lowest (20 of 60). */
export function heldOutKeys(cases: readonly ExternalCase[]): Set<string> {
  const ranked = [...cases].sort((a, b) => (hashOf(a.key) < hashOf(b.key) ? -1 : 1));
  return new Set(ranked.slice(0, Math.round(cases.length / 3)).map((c) => c.key));
}

/** The kind an engineer plans each corpus kind as; the four product-shaped kinds may be either. */
export const EXPECTED_KIND: Record<string, WorkKindId[]> = {
  "one-liner": ["product"],
  prd: ["product", "feature"],
  brief: ["product"],
  readme: ["product"],
  "feature-request": ["feature"],
  bug: ["bug"],
  perf: ["performance"],
  migration: ["migration"],
  infra: ["infrastructure", "migration"],
  "data-ml": ["data"],
};

/** The case as the planning driver takes it (only the description is planned). */
export function asEvalCase(c: ExternalCase): EvalCase {
  return {
    id: c.key,
    kind: c.kind,
    description: c.description,
    requirements: [],
    technologies: [],
    non_goals: [],
  };
}

// ---------------------------------------------------------------------------------------------------------
// Matching

const patterns = new Map<string, RegExp>();
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A match word: case-insensitive at a word start, or "/re/" as a regular expression. */
export function matchesWord(text: string, word: string): boolean {
  let re = patterns.get(word);
  if (!re) {
    re =
      word.length > 2 && word.startsWith("/") && word.endsWith("/")
        ? new RegExp(word.slice(1, -1), "i")
        : new RegExp(`(?<![\\p{L}\\p{N}_])${escapeRegExp(word.trim()).replace(/\s+/g, "[\\s-]+")}`, "iu");
    patterns.set(word, re);
  }
  return re.test(text);
}

export const matchesGroup = (text: string, group: string | readonly string[]) =>
  (typeof group === "string" ? [group] : group).some((w) => matchesWord(text, w));

const regexCache = new Map<string, RegExp>();
function titleHits(title: string, res: readonly string[]): string | null {
  for (const source of res) {
    let re = regexCache.get(source);
    if (!re) {
      re = new RegExp(source, "i");
      regexCache.set(source, re);
    }
    if (re.test(title)) return source;
  }
  return null;
}

/**
 * What a person reads as the leaf's title: its first line, without the requirement ids the outline puts
 * before it ("R3: ", "R3, R4: "), which would otherwise hide a title from the anchored patterns.
 */
export function leafTitle(node: PlanNode): string {
  return node.title.replace(/^\s*R\d+(?:\s*[,–-]\s*R\d+)*\s*:\s*/, "").trim();
}

/** Title and description: what the README counts as a leaf's own text. */
const leafText = (node: PlanNode) => node.description;

/** Size of a maximum matching of features to leaves (Kuhn's augmenting paths). */
function maximumMatching(edges: number[][], rightSize: number): { size: number; matchOf: number[] } {
  const owner = new Array<number>(rightSize).fill(-1);
  const tryFeature = (f: number, seen: boolean[]): boolean => {
    for (const l of edges[f]!) {
      if (seen[l]) continue;
      seen[l] = true;
      if (owner[l] === -1 || tryFeature(owner[l]!, seen)) {
        owner[l] = f;
        return true;
      }
    }
    return false;
  };
  let size = 0;
  for (let f = 0; f < edges.length; f++) if (tryFeature(f, new Array(rightSize).fill(false))) size++;
  const matchOf = new Array<number>(edges.length).fill(-1);
  owner.forEach((f, l) => {
    if (f >= 0) matchOf[f] = l;
  });
  return { size, matchOf };
}

/** Each leaf's wave: 0 when nothing it waits for is earlier, else one more than the latest it waits for. */
export function wavesOf(plan: PlanRecord): Map<string, number> {
  const byId = new Map(plan.nodes.map((n) => [n.id, n]));
  const children = new Map<string, PlanNode[]>();
  for (const n of plan.nodes)
    if (n.parentId) children.set(n.parentId, [...(children.get(n.parentId) ?? []), n]);
  const leavesUnder = (id: string): PlanNode[] => {
    const kids = children.get(id) ?? [];
    // A dependency on a node the plan no longer has (merged by the dedup pass) orders nothing.
    if (kids.length === 0) return byId.has(id) ? [byId.get(id)!] : [];
    return kids.flatMap((k) => leavesUnder(k.id));
  };
  const waves = new Map<string, number>();
  const visiting = new Set<string>();
  const waveOf = (leaf: PlanNode): number => {
    const known = waves.get(leaf.id);
    if (known !== undefined) return known;
    if (visiting.has(leaf.id)) return 0;
    visiting.add(leaf.id);
    let wave = 0;
    for (let at: PlanNode | undefined = leaf; at; at = at.parentId ? byId.get(at.parentId) : undefined)
      for (const dep of at.depends_on ?? [])
        for (const l of leavesUnder(dep)) wave = Math.max(wave, waveOf(l) + 1);
    visiting.delete(leaf.id);
    waves.set(leaf.id, wave);
    return wave;
  };
  for (const leaf of leavesOf(plan)) waveOf(leaf);
  return waves;
}

// ---------------------------------------------------------------------------------------------------------
// The check

export type ExternalScore = {
  key: string;
  kind: string;
  /** The kind the plan was made as, and whether an engineer would plan it so. */
  plannedAs: string | null;
  wrongKind: boolean;
  failed: string | null;
  leaves: number;
  features: number;
  featuresInOwnLeaf: number;
  /** Feature groups (indexes) without a leaf of their own. */
  missing: number[];
  nonWork: { title: string; pattern: string }[];
  misfit: { title: string; pattern: string }[];
  missingTerms: string[][];
  brokenOrder: [string | string[], string | string[]][];
  duplicateTitles: string[];
  crammed: string[];
  /** The share of leaves holding the commonest estimate, in plans of 10 or more leaves. */
  commonestEstimateShare: number | null;
  totalHours: number;
  pass: boolean;
  reasons: string[];
};

export function scoreExternal(c: ExternalCase, plan: PlanRecord): ExternalScore {
  const leaves = leavesOf(plan);
  const edges = c.features.map((group) =>
    leaves.flatMap((leaf, i) => (matchesGroup(leafText(leaf), group) ? [i] : [])),
  );
  const { size, matchOf } = maximumMatching(edges, leaves.length);
  const missing = c.features.flatMap((_, i) => (matchOf[i]! < 0 ? [i] : []));
  const titles = leaves.map(leafTitle);
  const nonWork = titles.flatMap((title) => {
    const pattern = titleHits(title, c.leaf_title_mustnot);
    return pattern ? [{ title, pattern }] : [];
  });
  const misfit = titles.flatMap((title) => {
    const pattern = titleHits(title, c.leaf_title_misfit);
    return pattern ? [{ title, pattern }] : [];
  });
  const below = plan.nodes
    .filter((n) => n.depth > 0)
    .map((n) => [n.description, n.implementation_details ?? "", ...(n.acceptance_criteria ?? [])].join("\n"))
    .join("\n");
  const missingTerms = c.must_terms.filter((g) => !matchesGroup(below, g));
  const waves = wavesOf(plan);
  const brokenOrder = (c.order ?? []).filter(([before, after]) => {
    const first = leaves.find((l) => matchesGroup(leafText(l), before));
    const then = leaves.find((l) => l !== first && matchesGroup(leafText(l), after));
    if (!first || !then) return true;
    return (waves.get(then.id) ?? 0) <= (waves.get(first.id) ?? 0);
  });
  const seen = new Map<string, number>();
  for (const t of titles) {
    const k = t.toLowerCase().replace(/\s+/g, " ");
    seen.set(k, (seen.get(k) ?? 0) + 1);
  }
  const duplicateTitles = [...seen].filter(([, n]) => n > 1).map(([t]) => t);
  const crammed = titles.filter((t) => c.features.filter((g) => matchesGroup(t, g)).length >= 3);
  const hours = leaves.map((l) => l.estimated_hours ?? null).filter((h): h is number => h !== null);
  const counts = new Map<number, number>();
  for (const h of hours) counts.set(h, (counts.get(h) ?? 0) + 1);
  const commonestEstimateShare =
    leaves.length >= 10 && hours.length > 0 ? Math.max(...counts.values()) / leaves.length : null;
  const expected = EXPECTED_KIND[c.kind] ?? [];
  const wrongKind =
    plan.workKind !== null && expected.length > 0 && !expected.includes(plan.workKind as WorkKindId);

  const reasons: string[] = [];
  if (plan.error) reasons.push(`failed: ${plan.error}`);
  if (c.features.length > 0 && size / c.features.length < 0.8)
    reasons.push(`features ${size}/${c.features.length}`);
  if (nonWork.length) reasons.push(`${nonWork.length} non-work`);
  if (misfit.length) reasons.push(`${misfit.length} misfit`);
  if (missingTerms.length) reasons.push(`${missingTerms.length} terms missing`);
  if (brokenOrder.length) reasons.push(`${brokenOrder.length} order broken`);
  if (duplicateTitles.length) reasons.push(`${duplicateTitles.length} duplicate titles`);
  if (crammed.length) reasons.push(`${crammed.length} crammed`);
  return {
    key: c.key,
    kind: c.kind,
    plannedAs: plan.workKind,
    wrongKind,
    failed: plan.error,
    leaves: leaves.length,
    features: c.features.length,
    featuresInOwnLeaf: size,
    missing,
    nonWork,
    misfit,
    missingTerms,
    brokenOrder,
    duplicateTitles,
    crammed,
    commonestEstimateShare,
    totalHours: Math.round(hours.reduce((a, b) => a + b, 0)),
    pass: reasons.length === 0,
    reasons,
  };
}

export type ExternalTotals = {
  cases: number;
  passed: number;
  features: number;
  featuresInOwnLeaf: number;
  nonWorkLeaves: number;
  misfitLeaves: number;
  wrongKind: number;
  missingTerms: number;
  brokenOrder: number;
  duplicateTitles: number;
  crammed: number;
  failures: number;
  leaves: number;
  /** Plans of 10+ leaves whose commonest estimate covers more than 30% of the leaves, and the worst share. */
  estimateSpreadOver30: number;
  worstEstimateShare: number;
};

export function externalTotals(scores: readonly ExternalScore[]): ExternalTotals {
  const sum = (f: (s: ExternalScore) => number) => scores.reduce((a, s) => a + f(s), 0);
  const shares = scores.map((s) => s.commonestEstimateShare).filter((x): x is number => x !== null);
  return {
    cases: scores.length,
    passed: sum((s) => (s.pass ? 1 : 0)),
    features: sum((s) => s.features),
    featuresInOwnLeaf: sum((s) => s.featuresInOwnLeaf),
    nonWorkLeaves: sum((s) => s.nonWork.length),
    misfitLeaves: sum((s) => s.misfit.length),
    wrongKind: sum((s) => (s.wrongKind ? 1 : 0)),
    missingTerms: sum((s) => s.missingTerms.length),
    brokenOrder: sum((s) => s.brokenOrder.length),
    duplicateTitles: sum((s) => s.duplicateTitles.length),
    crammed: sum((s) => s.crammed.length),
    failures: sum((s) => (s.failed ? 1 : 0)),
    leaves: sum((s) => s.leaves),
    estimateSpreadOver30: shares.filter((x) => x > 0.3).length,
    worstEstimateShare: shares.length ? Math.max(...shares) : 0,
  };
}

export function formatExternalTotals(label: string, t: ExternalTotals): string {
  const pct = (a: number, b: number) => (b === 0 ? "-" : `${Math.round((100 * a) / b)}%`);
  return [
    `${label}: ${t.cases} cases`,
    `  pass the mechanical check     ${t.passed}/${t.cases} (${pct(t.passed, t.cases)})`,
    `  features in a leaf of own     ${t.featuresInOwnLeaf}/${t.features} (${pct(t.featuresInOwnLeaf, t.features)})`,
    `  non-work leaves               ${t.nonWorkLeaves}`,
    `  misfit steps                  ${t.misfitLeaves}`,
    `  wrong kind                    ${t.wrongKind}`,
    `  must-terms groups missing     ${t.missingTerms}`,
    `  stated orders broken          ${t.brokenOrder}`,
    `  duplicate leaf titles         ${t.duplicateTitles}`,
    `  crammed leaf titles           ${t.crammed}`,
    `  planning failures             ${t.failures}`,
    `  leaves                        ${t.leaves}`,
    `  estimate spread: plans with one value over 30% of leaves ${t.estimateSpreadOver30}, worst share ${pct(t.worstEstimateShare, 1)}`,
  ].join("\n");
}
