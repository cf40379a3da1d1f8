/**
 * Planning-quality metrics: pure functions of an annotated case (tests/eval/case.ts) and the plan the driver
 * recorded for it (tests/eval/driver.ts). The root (depth 0) is the user's own text: it never counts.
 */
import { PlanGraph } from "../../src/server/plan/graph";
import { findApplicationType, findStack } from "../../src/shared/catalogue";
import type { EvalCase } from "./case";
import type { PlanNode, PlanRecord } from "./driver";
import {
  CLIENT_CATEGORIES,
  EXCLUSIVE_CATEGORIES,
  FAMILIES,
  TECH_BY_ID,
  type Technology,
  technologiesIn,
} from "./technologies";

// ---------------------------------------------------------------------------------------------------------
// Text

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

const termPatterns = new Map<string, RegExp>();

/** Whole-word prefix match, case-insensitive: "export" matches "Exports"; spaces match spaces or hyphens. */
export function containsTerm(text: string, term: string): boolean {
  let pattern = termPatterns.get(term);
  if (!pattern) {
    const body = term.trim().split(/\s+/).map(escapeRegExp).join("[\\s-]+");
    pattern = new RegExp(`(?<![A-Za-z0-9_\\u00C0-\\u024F])${body}`, "i");
    termPatterns.set(term, pattern);
  }
  return pattern.test(text);
}

export const containsAll = (text: string, terms: string[]) => terms.every((t) => containsTerm(text, t));

/** A node's own text: its description (title included), implementation details and acceptance criteria. */
export function nodeText(node: PlanNode): string {
  return [node.description, node.implementation_details ?? "", ...(node.acceptance_criteria ?? [])].join(
    "\n",
  );
}

const nonRoot = (plan: PlanRecord) => plan.nodes.filter((n) => n.depth > 0);

/** Nodes with no children, the root excluded (a plan that was never split has no leaves). */
export function leavesOf(plan: PlanRecord): PlanNode[] {
  const parents = new Set(plan.nodes.map((n) => n.parentId));
  return nonRoot(plan).filter((n) => !parents.has(n.id));
}

// ---------------------------------------------------------------------------------------------------------
// Requirements and non-goals

export type Uncovered = { id: string; text: string };

export function uncoveredRequirements(evalCase: EvalCase, plan: PlanRecord): Uncovered[] {
  const texts = nonRoot(plan).map(nodeText);
  return evalCase.requirements
    .filter((r) => !texts.some((t) => containsAll(t, r.match)))
    .map((r) => ({ id: r.id, text: r.text }));
}

export type PlannedNonGoal = { nonGoal: string; nodeId: string; title: string };

/** The term follows a negation within three words: "no server", "without a database", "instead of a native app". */
export function negated(text: string, term: string): boolean {
  const body = escapeRegExp(term.trim()).replace(/\s+/g, "[\\s-]+");
  return new RegExp(
    `(?<![A-Za-z])(?:no|not|never|without|instead of|rather than|except)\\s+(?:[^\\s,;:.()]+\\s+){0,3}${body}`,
    "i",
  ).test(text);
}

/** Nodes whose title plans a non-goal: it holds all the terms, none of them negated ("sync, no server"). */
export function plannedNonGoals(evalCase: EvalCase, plan: PlanRecord): PlannedNonGoal[] {
  return evalCase.non_goals.flatMap((g) =>
    nonRoot(plan)
      .filter((n) => containsAll(n.title, g.match) && !g.match.some((t) => negated(n.title, t)))
      .map((n) => ({ nonGoal: g.text, nodeId: n.id, title: n.title })),
  );
}

// ---------------------------------------------------------------------------------------------------------
// Stack

/** What the case states: its named technologies and the catalogue stack it chose, with what they imply. */
export type StatedStack = {
  /** Named in the text (the annotation) or by the chosen catalogue stack. */
  named: Set<string>;
  /** `named` with everything they imply (TimescaleDB: PostgreSQL): the choices the case made. */
  closure: Set<string>;
  /** `closure` with the platforms its services are part of (S3: AWS): what the plan may mention freely. */
  known: Set<string>;
  /** Languages the plan's server-side work may use; empty when the case constrains none. */
  allowedLanguages: Set<string>;
};

function familyOf(id: string): readonly string[] {
  return FAMILIES.find((f) => f.includes(id)) ?? [id];
}

function catalogueStackText(evalCase: EvalCase): string {
  if (!evalCase.application_type || !evalCase.tech_stack_id) return "";
  const type = findApplicationType(evalCase.application_type);
  const stack = type ? findStack(type.id, evalCase.tech_stack_id) : undefined;
  return stack
    ? [stack.name, stack.description, stack.frontend_framework, stack.backend_language, stack.database].join(
        "\n",
      )
    : "";
}

export function statedStack(evalCase: EvalCase): StatedStack {
  const named = new Set([...evalCase.technologies, ...technologiesIn(catalogueStackText(evalCase))]);
  const closure = new Set<string>();
  const visit = (id: string) => {
    if (closure.has(id)) return;
    closure.add(id);
    for (const next of TECH_BY_ID.get(id)?.implies ?? []) visit(next);
  };
  for (const id of named) visit(id);
  const known = new Set(closure);
  for (const id of closure) {
    const platform = TECH_BY_ID.get(id)?.partOf;
    if (platform) known.add(platform);
  }
  const techs = [...closure].map((id) => TECH_BY_ID.get(id)).filter((t): t is Technology => Boolean(t));
  // The languages named outright; failing those, the ones the named server-side techs are written in.
  const base = new Set(techs.filter((t) => t.category === "language").map((t) => t.id));
  if (base.size === 0)
    for (const t of techs)
      if (!CLIENT_CATEGORIES.has(t.category)) for (const l of t.languages ?? []) base.add(l);
  // A named front end's language joins only when the server's is constrained (a Django app's React code).
  const allowed = new Set<string>();
  if (base.size > 0) {
    for (const l of base) allowed.add(l);
    for (const t of techs)
      if (CLIENT_CATEGORIES.has(t.category)) for (const l of t.languages ?? []) allowed.add(l);
  }
  for (const l of [...allowed]) for (const f of familyOf(l)) allowed.add(f);
  return { named, closure, known, allowedLanguages: allowed };
}

function impliedBy(t: Technology): Set<string> {
  const out = new Set<string>();
  const visit = (id: string) => {
    for (const next of TECH_BY_ID.get(id)?.implies ?? [])
      if (!out.has(next)) {
        out.add(next);
        visit(next);
      }
  };
  visit(t.id);
  return out;
}

/** The tech is what the case states, a part of it, one of its family, or something that implies it. */
function compatible(t: Technology, stated: StatedStack): boolean {
  if (known(t, stated)) return true;
  return [...impliedBy(t)].some((id) => stated.known.has(id));
}

/** Mentioning the tech invents nothing: the case states it, its platform, or its family. */
function known(t: Technology, stated: StatedStack): boolean {
  return (
    stated.known.has(t.id) ||
    (t.partOf !== undefined && stated.known.has(t.partOf)) ||
    familyOf(t.id).some((f) => stated.known.has(f))
  );
}

const names = (ids: Iterable<string>) =>
  [...ids]
    .map((id) => TECH_BY_ID.get(id)?.name ?? id)
    .sort()
    .join(", ");

/** Why mentioning `t` contradicts the stated stack, or null. */
export function contradiction(t: Technology, stated: StatedStack): string | null {
  if (compatible(t, stated)) return null;
  if (EXCLUSIVE_CATEGORIES.has(t.category)) {
    const same = [...stated.closure].filter((id) => TECH_BY_ID.get(id)?.category === t.category);
    if (same.length > 0) return `${t.name} (${t.category}) where the text names ${names(same)}`;
  }
  if (!CLIENT_CATEGORIES.has(t.category) && stated.allowedLanguages.size > 0) {
    const langs = t.category === "language" ? [t.id] : (t.languages ?? []);
    if (langs.length > 0 && !langs.some((l) => stated.allowedLanguages.has(l))) {
      const stack = names([...stated.allowedLanguages].filter((id) => id !== "nodejs"));
      return t.category === "language"
        ? `${t.name} where the text names ${stack}`
        : `${t.name} implies ${names(langs)} where the text names ${stack}`;
    }
  }
  return null;
}

/** A place in the plan that can mention technologies: a node, or a part of the composed context. */
export type PlanPlace = { where: string; nodeId: string | null; title: string; text: string };

export function planPlaces(plan: PlanRecord): PlanPlace[] {
  const places: PlanPlace[] = nonRoot(plan).map((n) => ({
    where: `node ${n.id}`,
    nodeId: n.id,
    title: n.title,
    text: nodeText(n),
  }));
  const c = plan.context;
  if (c) {
    const ts = c.tech_stack;
    places.push({
      where: "context.tech_stack",
      nodeId: null,
      title: "tech stack",
      text: [ts.frontend, ts.backend, ts.database, ts.deployment, ts.description].join("\n"),
    });
    for (const [k, p] of c.best_practices.entries())
      places.push({ where: `best practice ${k + 1}`, nodeId: null, title: p, text: p });
    for (const e of c.epics)
      places.push({
        where: `epic ${e.id}`,
        nodeId: null,
        title: e.title,
        text: `${e.title}\n${e.description}`,
      });
    for (const s of c.user_stories)
      places.push({
        where: `story ${s.id}`,
        nodeId: null,
        title: s.action,
        text: [s.actor, s.action, s.benefit, ...s.acceptance_criteria].join("\n"),
      });
  }
  return places;
}

export type StackFinding = {
  where: string;
  nodeId: string | null;
  title: string;
  tech: string;
  reason: string;
};
export type InventedTech = { tech: string; name: string; where: string; title: string; mentions: number };

export function stackFindings(evalCase: EvalCase, plan: PlanRecord) {
  const stated = statedStack(evalCase);
  const wrong: StackFinding[] = [];
  const invented = new Map<string, InventedTech>();
  for (const place of planPlaces(plan)) {
    for (const id of technologiesIn(place.text)) {
      const t = TECH_BY_ID.get(id)!;
      const reason = contradiction(t, stated);
      if (reason)
        wrong.push({ where: place.where, nodeId: place.nodeId, title: place.title, tech: id, reason });
      if (!known(t, stated)) {
        const seen = invented.get(id);
        if (seen) seen.mentions += 1;
        else
          invented.set(id, { tech: id, name: t.name, where: place.where, title: place.title, mentions: 1 });
      }
    }
  }
  return { wrong, invented: [...invented.values()] };
}

// ---------------------------------------------------------------------------------------------------------
// Duplicates

const STOP_WORDS = new Set(
  "a an the and or of for to in on with by from at as into via its their your our is are be this that".split(
    " ",
  ),
);

export function normalizeTitle(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

export function titleTokens(title: string): Set<string> {
  return new Set(
    normalizeTitle(title)
      .split(" ")
      .filter((w) => w && !STOP_WORDS.has(w)),
  );
}

export function jaccard(a: Set<string>, b: Set<string>): number {
  let common = 0;
  for (const t of a) if (b.has(t)) common++;
  const union = a.size + b.size - common;
  return union === 0 ? 0 : common / union;
}

export const NEAR_DUPLICATE_JACCARD = 0.8;

type TitleRef = { id: string; title: string };
export type DuplicatePair = { a: TitleRef; b: TitleRef; jaccard: number };

export function duplicateTitles(plan: PlanRecord): { exact: DuplicatePair[]; near: DuplicatePair[] } {
  const nodes = nonRoot(plan).map((n) => ({
    id: n.id,
    title: n.title,
    norm: normalizeTitle(n.title),
    tokens: titleTokens(n.title),
  }));
  const exact: DuplicatePair[] = [];
  const near: DuplicatePair[] = [];
  const firstByNorm = new Map<string, TitleRef>();
  for (const n of nodes) {
    const first = firstByNorm.get(n.norm);
    if (first) exact.push({ a: first, b: { id: n.id, title: n.title }, jaccard: 1 });
    else firstByNorm.set(n.norm, { id: n.id, title: n.title });
  }
  const candidates = nodes.filter((n) => n.tokens.size >= 3);
  for (let x = 0; x < candidates.length; x++) {
    const a = candidates[x]!;
    for (let y = x + 1; y < candidates.length; y++) {
      const b = candidates[y]!;
      if (a.norm === b.norm) continue;
      const small = Math.min(a.tokens.size, b.tokens.size);
      const large = Math.max(a.tokens.size, b.tokens.size);
      if (small / large < NEAR_DUPLICATE_JACCARD) continue;
      const j = jaccard(a.tokens, b.tokens);
      if (j >= NEAR_DUPLICATE_JACCARD)
        near.push({ a: { id: a.id, title: a.title }, b: { id: b.id, title: b.title }, jaccard: j });
    }
  }
  return { exact, near };
}

// ---------------------------------------------------------------------------------------------------------
// Garbled titles

const LOWER_CASE_TOOLS = new Set(
  "npm pnpm yarn git kubectl curl ffmpeg webpack esbuild pytest dbt k6 htmx jq cron systemd nginx vite".split(
    " ",
  ),
);
const SUBJECT_FRAGMENTS =
  "i|we|they|he|she|i'm|we're|they're|you're|it's|let's|i'd|we'd|i'll|we'll|you'll|don't|doesn't|can't|won't|isn't|aren't|wasn't|that's|there's|i've|we've";
const TEMPLATE_WORDS =
  "for|to|of|with|about|from|by|on|in|at|into|implement|implementing|build|add|create|manage|support|handle|enable|design|develop|allow|let";
const DANGLING = new Set(
  "a an the of to for with and or but nor so then from into via than per vs at by as in on if when where who that because while whose which such their our your its my".split(
    " ",
  ),
);
/** Verbs whose particle may end a title: "Sign in", "Log on", "Opt in". */
const PHRASAL = new Set(
  "sign log opt check plug turn fill zoom drill roll phase carry add bake read print pass try tap clock".split(
    " ",
  ),
);
const CONJUNCTIONS = new Set("and or but nor so yet because although though whereas".split(" "));

export type GarbleRule = { id: string; description: string; test: (title: string) => boolean };

const words = (title: string) => title.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w));
const bare = (word: string) => word.toLowerCase().replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}']+$/gu, "");

function balanced(title: string): boolean {
  const count = (ch: string) => title.split(ch).length - 1;
  return (
    count("(") === count(")") &&
    count("[") === count("]") &&
    count("{") === count("}") &&
    count("“") === count("”") &&
    count('"') % 2 === 0 &&
    count("`") % 2 === 0
  );
}

export const GARBLE_RULES: readonly GarbleRule[] = [
  {
    id: "lower-case-start",
    description: "starts with a lower-case letter",
    test: (title) => {
      const first = words(title)[0] ?? "";
      if (!/^\p{Ll}/u.test(first)) return false;
      return !/\p{Lu}/u.test(first) && !LOWER_CASE_TOOLS.has(bare(first));
    },
  },
  {
    id: "pronoun-fragment",
    description: 'a template word followed by a pronoun or contraction ("for we\'re", "I want manage")',
    test: (title) =>
      new RegExp(
        `(?<![\\p{L}])(?:${TEMPLATE_WORDS})\\s+(?:${SUBJECT_FRAGMENTS})(?![\\p{L}\\p{N}'])`,
        "iu",
      ).test(title.replace(/’/g, "'")) ||
      /(?<![\p{L}])(?:I|we)(?:\s+would|'d)?\s+(?:want|need|like|wish)(?![\p{L}])/iu.test(
        title.replace(/’/g, "'"),
      ),
  },
  {
    id: "verb-verb",
    description: 'a template verb followed by a bare verb ("Manage write", "Implement want")',
    test: (title) =>
      /(?<![\p{L}])(?:implement|build|add|create|manage|support|handle|enable|design|develop|define|want|need)\s+(?:want|need|manage|implement|give|take|know)(?![\p{L}\p{N}-])/iu.test(
        title,
      ) ||
      /(?<![\p{L}])(?:implement|build|add|create|manage|support|handle|enable|design|develop|define)\s+(?:write|read|create|update|delete)(?=\s*$|\s+(?:a|an|the|it|them|this|that|my|our|your|their|to)(?![\p{L}]))/iu.test(
        title,
      ),
  },
  {
    id: "verb-negation",
    description: 'a template verb followed by a negation ("Implement no db needed")',
    test: (title) =>
      /(?<![\p{L}])(?:implement|build|add|create|manage|support|handle|enable|design|develop)\s+(?:no|not|never|don't|without)(?![\p{L}'])/iu.test(
        title.replace(/’/g, "'"),
      ),
  },
  {
    id: "doubled-word",
    description: 'the same word twice in a row ("the the")',
    test: (title) => /(?<![\p{L}\p{N}])(\p{L}+)\s+\1(?![\p{L}\p{N}])/iu.test(title),
  },
  {
    id: "dangling-end",
    description: "ends with an article, preposition or conjunction",
    test: (title) => {
      const ws = words(title).map(bare);
      const last = ws[ws.length - 1] ?? "";
      if (!DANGLING.has(last)) return false;
      return !(["in", "on", "by", "at"].includes(last) && PHRASAL.has(ws[ws.length - 2] ?? ""));
    },
  },
  { id: "unbalanced", description: "unbalanced brackets or quotes", test: (title) => !balanced(title) },
  {
    id: "conjunction-start",
    description: "starts with a conjunction",
    test: (title) => CONJUNCTIONS.has(bare(words(title)[0] ?? "")),
  },
  {
    id: "placeholder-text",
    description: 'contains "undefined", "null", "[object", "NaN" or a template placeholder',
    test: (title) =>
      /(?<![\p{L}])(?:undefined|NaN)(?![\p{L}])|\[object|\{\{|\{[a-z_]+\}/u.test(title) ||
      /(?<![\p{L}])null(?![\p{L}])(?![\s-]+(?:values?|checks?|safety|handling|pointers?|bytes?|fields?|columns?|terminat|coalesc|inputs?|results?|states?|entr|cases?|keys?|constraints?|and|or))/iu.test(
        title,
      ),
  },
  { id: "too-short", description: "fewer than 2 words", test: (title) => words(title).length < 2 },
  { id: "too-long", description: "over 160 characters", test: (title) => title.length > 160 },
];

export type GarbledTitle = { nodeId: string; title: string; rule: string };

export function garbledTitles(plan: PlanRecord): GarbledTitle[] {
  return nonRoot(plan).flatMap((n) =>
    GARBLE_RULES.filter((r) => r.test(n.title)).map((r) => ({ nodeId: n.id, title: n.title, rule: r.id })),
  );
}

// ---------------------------------------------------------------------------------------------------------
// Reading (issue 28): what an engineer would not plan as work, features merged, kind, boilerplate, scope,
// order

export type Finding = { nodeId: string | null; title: string; why: string };

const nodeRef = (n: PlanNode): Pick<Finding, "nodeId" | "title"> => ({ nodeId: n.id, title: n.title });

/** Titles that are never work whatever the case: a question, a bare link, markup left in. */
const NOT_WORK_SHAPES: { why: string; re: RegExp }[] = [
  { why: "a question", re: /\?\s*$/ },
  { why: "a bare link", re: /^(?:R\d+:\s*)?(?:<)?https?:\/\/\S+(?:>)?\.?$/i },
  {
    why: "markup (code, table, box drawing or a checkbox)",
    re: /```|\|.*\||[\u2500-\u257F]|^\s*(?:R\d+:\s*)?\[[ xX]?\]|\[tasklist\]/,
  },
];

/** Leaves planned from text that is not work: annotated by the case, or of a shape that never is. */
export function nonWorkLeaves(evalCase: EvalCase, plan: PlanRecord): Finding[] {
  const out: Finding[] = [];
  for (const leaf of leavesOf(plan)) {
    const shape = NOT_WORK_SHAPES.find((s) => s.re.test(leaf.title));
    if (shape) {
      out.push({ ...nodeRef(leaf), why: shape.why });
      continue;
    }
    const annotated = (evalCase.not_work ?? []).find((w) => containsAll(leaf.title, w.match));
    if (annotated) out.push({ ...nodeRef(leaf), why: `not work: "${annotated.text}"` });
  }
  return out;
}

/** Leaves whose title holds two or more requirements the case says are separate features. */
export function mergedFeatures(evalCase: EvalCase, plan: PlanRecord): Finding[] {
  const byId = new Map(evalCase.requirements.map((r) => [r.id, r]));
  const out: Finding[] = [];
  for (const group of evalCase.separate ?? []) {
    for (const leaf of leavesOf(plan)) {
      const inside = group.filter((id) => {
        const r = byId.get(id);
        return r !== undefined && containsAll(leaf.title, r.match);
      });
      if (inside.length >= 2) out.push({ ...nodeRef(leaf), why: `holds ${inside.join(", ")} in one leaf` });
    }
  }
  return out;
}

/** The kind the plan was read as, against the case's; null when the case states none. */
export function kindFinding(evalCase: EvalCase, plan: PlanRecord): Finding | null {
  if (!evalCase.work_kind || plan.workKind === evalCase.work_kind) return null;
  return { nodeId: null, title: "", why: `read as ${plan.workKind ?? "nothing"}, not ${evalCase.work_kind}` };
}

/**
 * Steps that do not fit the kind of work: a stack choice or a first release for work on an existing
 * system, a gradual rollout for an upgrade, a store or package release for what is neither.
 */
const MISFITS: { why: string; title: RegExp; unless: (c: EvalCase) => boolean }[] = [
  {
    why: "a stack choice for work on something that exists",
    title: /^choose the stack\b/i,
    unless: (c) => c.work_kind === undefined || c.work_kind === "product",
  },
  {
    why: "a first release for work on something that exists",
    title: /\b(release the first version|deploy the first release|publish the first release)\b/i,
    unless: (c) => c.work_kind === undefined || c.work_kind === "product",
  },
  {
    why: "a new repository for work on something that exists",
    title: /^set up the repository\b/i,
    unless: (c) =>
      c.work_kind === undefined || !["bug", "performance", "feature", "migration"].includes(c.work_kind),
  },
  {
    why: "a gradual rollout behind a switch for an upgrade or a bug fix",
    title: /\bbehind a (switch|flag|feature flag)\b/i,
    unless: (c) => c.work_kind === undefined || !["migration", "bug"].includes(c.work_kind),
  },
  {
    why: "an app-store review for what is not a mobile app",
    title: /\b(store review|app store|play store)\b/i,
    unless: (c) =>
      /\b(ios|android|mobile|iphone|app store|play store|react native|flutter|expo)\b/i.test(c.description),
  },
  {
    why: "an extension store for what is not a browser extension",
    title: /\bextension store\b/i,
    unless: (c) => /\b(extension|add-?on)\b/i.test(c.description),
  },
];

export function misfitSteps(evalCase: EvalCase, plan: PlanRecord): Finding[] {
  // A step the text itself asks for ("R10: Write to both databases behind a feature flag") is no misfit.
  return nonRoot(plan)
    .filter((n) => !/\bR\d+\b/.test(n.title))
    .flatMap((n) =>
      MISFITS.filter((m) => m.title.test(n.title) && !m.unless(evalCase)).map((m) => ({
        ...nodeRef(n),
        why: m.why,
      })),
    );
}

/** Non-goals the plan does not state as such, and statements it wrongly states as non-goals. */
export function scopeErrors(evalCase: EvalCase, plan: PlanRecord): Finding[] {
  const out: Finding[] = [];
  // Stated when a non-goal holds the annotation's terms, or its words ("art tasks" in "so no art tasks").
  const content = (t: string) =>
    t.split(/\W+/).filter((w) => w.length > 2 && !/^(?:the|and|for|with|any|our)$/i.test(w));
  const stated = (g: { text: string; match: string[] }) =>
    plan.nonGoals.some(
      (n) => containsAll(n, g.match) || (content(g.text).length > 0 && containsAll(n, content(g.text))),
    );
  // One non-goal may be annotated twice (its terms for titles both ways): stated once is enough.
  const byText = new Map<string, { text: string; match: string[] }[]>();
  for (const g of evalCase.non_goals) byText.set(g.text, [...(byText.get(g.text) ?? []), g]);
  for (const [, [g, ...rest]] of byText)
    if (![g!, ...rest].some(stated))
      out.push({ nodeId: null, title: "", why: `the non-goal "${g!.text}" is not stated as out of scope` });
  for (const w of evalCase.not_non_goals ?? [])
    for (const n of plan.nonGoals.filter((t) => containsAll(t, w.match)))
      out.push({ nodeId: null, title: n, why: `"${w.text}" is read as out of scope, but it is not` });
  return out;
}

/**
 * The leaf that states a requirement: one that quotes a stated requirement ("R4: ...") in its title, else
 * any leaf whose title holds the terms, else any node whose text covers it.
 */
function nodeFor(plan: PlanRecord, match: string[]): PlanNode | null {
  const leaves = leavesOf(plan);
  // A title cut short ("The request is published to every driver…") is read whole, as its leaf states it.
  const whole = (l: PlanNode) =>
    l.title.endsWith("…") ? `${l.title} ${l.description.match(/\nAs stated: "(.*)"/)?.[1] ?? ""}` : l.title;
  return (
    leaves.find((l) => /^R\d+:/.test(l.title) && containsAll(whole(l), match)) ??
    leaves.find((l) => containsAll(l.title, match)) ??
    leaves.find((l) => containsAll(nodeText(l), match)) ??
    nonRoot(plan).find((n) => containsAll(nodeText(n), match)) ??
    null
  );
}

/** The plan's dependencies in the graph the schedule uses. */
function planGraph(plan: PlanRecord): PlanGraph {
  const edges = plan.nodes.flatMap((n) =>
    (n.depends_on ?? []).map((d) => ({ taskId: n.id, dependsOnId: d })),
  );
  const nodes = plan.nodes.map((n) => ({
    id: n.id,
    parentId: n.parentId,
    done: false,
    estimate: null,
    storyPoints: null,
  }));
  return new PlanGraph(nodes, edges);
}

/** The plan's order as "does A come before B": the end of A reaches the start of B in the schedule's graph. */
function comesBefore(plan: PlanRecord): (a: PlanNode, b: PlanNode) => boolean {
  const graph = planGraph(plan);
  return (a, b) => {
    const from = 2 * graph.index.get(a.id)! + 1;
    const to = 2 * graph.index.get(b.id)!;
    const seen = new Uint8Array(2 * graph.size);
    const stack = [from];
    seen[from] = 1;
    while (stack.length) {
      const v = stack.pop()!;
      if (v === to) return true;
      for (let k = graph.first[v]!; k < graph.first[v + 1]!; k++) {
        const w = graph.succ[k]!;
        if (!seen[w]) {
          seen[w] = 1;
          stack.push(w);
        }
      }
    }
    return false;
  };
}

/** Stated sequences the plan does not keep, and orders it invents between independent requirements. */
export function orderViolations(evalCase: EvalCase, plan: PlanRecord): Finding[] {
  if (!evalCase.sequence?.length && !evalCase.independent?.length) return [];
  const byId = new Map(evalCase.requirements.map((r) => [r.id, r]));
  const before = comesBefore(plan);
  const node = (id: string) => {
    const r = byId.get(id);
    return r ? nodeFor(plan, r.match) : null;
  };
  const out: Finding[] = [];
  for (const seq of evalCase.sequence ?? []) {
    for (let i = 1; i < seq.length; i++) {
      const a = node(seq[i - 1]!);
      const b = node(seq[i]!);
      if (!a || !b || a === b) continue;
      if (!before(a, b))
        out.push({ ...nodeRef(b), why: `${seq[i]} should come after ${seq[i - 1]} ("${a.title}")` });
    }
  }
  for (const [x, y] of evalCase.independent ?? []) {
    const a = node(x);
    const b = node(y);
    if (!a || !b || a === b) continue;
    if (before(a, b) || before(b, a))
      out.push({ ...nodeRef(b), why: `${x} and ${y} are ordered, but nothing in the text orders them` });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// One plan

export type PlanScore = {
  caseId: string;
  kind: string;
  error: string | null;
  nodes: number;
  leaves: number;
  maxDepth: number;
  requirements: { total: number; covered: number; uncovered: Uncovered[] };
  wrongStack: StackFinding[];
  invented: InventedTech[];
  nonGoals: PlannedNonGoal[];
  exactDuplicates: DuplicatePair[];
  nearDuplicates: DuplicatePair[];
  garbled: GarbledTitle[];
  /** Leaves per story-point value. */
  storyPoints: Record<string, number>;
  /** Leaves with an estimate, and how many of those are at most 16 h; null when no node has the field. */
  hours: { estimated: number; atMost16: number } | null;
  /** Leaves with 2-5 acceptance criteria; null when no node has the field. */
  acceptance: { leaves: number; twoToFive: number } | null;
  /** Leaves with at least one requirement id; null when no node has the field. */
  requirementIds: { leaves: number; withIds: number } | null;
  /** Splits that failed and left their node a leaf. */
  needsAttention: number;
  /** The order the planner proposed: dependencies kept, and whether they (with the tree) form a cycle. */
  dependencies: { edges: number; cyclic: boolean };
  /** Issue 28's reading metrics. */
  nonWork: Finding[];
  merged: Finding[];
  kindMismatch: Finding | null;
  /** The kind the plan was read as, and the case's. */
  workKind: { read: string | null; expected: string | null };
  misfits: Finding[];
  scope: Finding[];
  order: Finding[];
  wallMs: number;
  calls: number;
  promptTokens: number;
  completionTokens: number;
};

/** The plan's dependencies through the same graph the schedule uses (a cycle would make it unschedulable). */
function orderOf(plan: PlanRecord): { edges: number; cyclic: boolean } {
  const graph = planGraph(plan);
  return { edges: graph.edges.length, cyclic: graph.order === null };
}

export function scorePlan(evalCase: EvalCase, plan: PlanRecord): PlanScore {
  const leaves = leavesOf(plan);
  const storyPoints: Record<string, number> = {};
  for (const l of leaves) {
    const key = String(l.story_points);
    storyPoints[key] = (storyPoints[key] ?? 0) + 1;
  }
  const has = (field: keyof PlanNode) => plan.nodes.some((n) => n.depth > 0 && n[field] !== undefined);
  const estimated = leaves.filter((l) => typeof l.estimated_hours === "number");
  const uncovered = uncoveredRequirements(evalCase, plan);
  const stack = stackFindings(evalCase, plan);
  const dups = duplicateTitles(plan);
  return {
    caseId: evalCase.id,
    kind: evalCase.kind,
    error: plan.error,
    nodes: plan.nodes.length,
    leaves: leaves.length,
    maxDepth: Math.max(0, ...plan.nodes.map((n) => n.depth)),
    requirements: {
      total: evalCase.requirements.length,
      covered: evalCase.requirements.length - uncovered.length,
      uncovered,
    },
    wrongStack: stack.wrong,
    invented: stack.invented,
    nonGoals: plannedNonGoals(evalCase, plan),
    exactDuplicates: dups.exact,
    nearDuplicates: dups.near,
    garbled: garbledTitles(plan),
    storyPoints,
    hours: has("estimated_hours")
      ? {
          estimated: estimated.length,
          atMost16: estimated.filter((l) => (l.estimated_hours ?? 0) <= 16).length,
        }
      : null,
    acceptance: has("acceptance_criteria")
      ? {
          leaves: leaves.length,
          twoToFive: leaves.filter(
            (l) => (l.acceptance_criteria?.length ?? 0) >= 2 && (l.acceptance_criteria?.length ?? 0) <= 5,
          ).length,
        }
      : null,
    requirementIds: has("requirement_ids")
      ? { leaves: leaves.length, withIds: leaves.filter((l) => (l.requirement_ids?.length ?? 0) > 0).length }
      : null,
    needsAttention: plan.nodes.filter((n) => n.needsAttention !== undefined).length,
    dependencies: orderOf(plan),
    nonWork: nonWorkLeaves(evalCase, plan),
    merged: mergedFeatures(evalCase, plan),
    kindMismatch: kindFinding(evalCase, plan),
    workKind: { read: plan.workKind, expected: evalCase.work_kind ?? null },
    misfits: misfitSteps(evalCase, plan),
    scope: scopeErrors(evalCase, plan),
    order: orderViolations(evalCase, plan),
    wallMs: plan.wallMs,
    calls: plan.usage.calls,
    promptTokens: plan.usage.promptTokens,
    completionTokens: plan.usage.completionTokens,
  };
}

// ---------------------------------------------------------------------------------------------------------
// The corpus

export type Totals = {
  cases: number;
  failedPlans: number;
  nodes: number;
  leaves: number;
  minLeaves: number;
  requirements: number;
  covered: number;
  /** 0-1. */
  coverage: number;
  wrongStack: number;
  invented: number;
  nonGoals: number;
  exactDuplicates: number;
  nearDuplicates: number;
  garbled: number;
  garbledByRule: Record<string, number>;
  storyPoints: Record<string, number>;
  distinctStoryPoints: number;
  /** 0-1 shares, null when the planner returns no such field. */
  hoursAtMost16: number | null;
  acceptance2to5: number | null;
  withRequirementIds: number | null;
  needsAttention: number;
  dependencies: number;
  plansWithDependencies: number;
  cyclicPlans: number;
  nonWork: number;
  merged: number;
  /** Cases with a stated kind, and how many were read as it. */
  kinds: { stated: number; right: number };
  misfits: number;
  scopeErrors: number;
  orderViolations: number;
  wallMs: number;
  calls: number;
  promptTokens: number;
  completionTokens: number;
  tokensPerNode: number;
};

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
function share<T>(items: (T | null)[], part: (t: T) => number, whole: (t: T) => number): number | null {
  const present = items.filter((x): x is T => x !== null);
  if (present.length === 0) return null;
  const w = sum(present.map(whole));
  return w === 0 ? 0 : sum(present.map(part)) / w;
}

export function totals(scores: PlanScore[]): Totals {
  const storyPoints: Record<string, number> = {};
  for (const s of scores)
    for (const [k, v] of Object.entries(s.storyPoints)) storyPoints[k] = (storyPoints[k] ?? 0) + v;
  const garbledByRule: Record<string, number> = {};
  for (const g of scores.flatMap((s) => s.garbled)) garbledByRule[g.rule] = (garbledByRule[g.rule] ?? 0) + 1;
  const requirements = sum(scores.map((s) => s.requirements.total));
  const covered = sum(scores.map((s) => s.requirements.covered));
  const nodes = sum(scores.map((s) => s.nodes));
  const promptTokens = sum(scores.map((s) => s.promptTokens));
  const completionTokens = sum(scores.map((s) => s.completionTokens));
  return {
    cases: scores.length,
    failedPlans: scores.filter((s) => s.error).length,
    nodes,
    leaves: sum(scores.map((s) => s.leaves)),
    minLeaves: scores.length ? Math.min(...scores.map((s) => s.leaves)) : 0,
    requirements,
    covered,
    coverage: requirements === 0 ? 1 : covered / requirements,
    wrongStack: sum(scores.map((s) => s.wrongStack.length)),
    invented: sum(scores.map((s) => s.invented.length)),
    nonGoals: sum(scores.map((s) => s.nonGoals.length)),
    exactDuplicates: sum(scores.map((s) => s.exactDuplicates.length)),
    nearDuplicates: sum(scores.map((s) => s.nearDuplicates.length)),
    garbled: sum(scores.map((s) => s.garbled.length)),
    garbledByRule,
    storyPoints,
    distinctStoryPoints: Object.keys(storyPoints).length,
    hoursAtMost16: share(
      scores.map((s) => s.hours),
      (h) => h.atMost16,
      (h) => h.estimated,
    ),
    acceptance2to5: share(
      scores.map((s) => s.acceptance),
      (a) => a.twoToFive,
      (a) => a.leaves,
    ),
    withRequirementIds: share(
      scores.map((s) => s.requirementIds),
      (r) => r.withIds,
      (r) => r.leaves,
    ),
    needsAttention: sum(scores.map((s) => s.needsAttention)),
    dependencies: sum(scores.map((s) => s.dependencies.edges)),
    plansWithDependencies: scores.filter((s) => s.dependencies.edges > 0).length,
    cyclicPlans: scores.filter((s) => s.dependencies.cyclic).length,
    nonWork: sum(scores.map((s) => s.nonWork.length)),
    merged: sum(scores.map((s) => s.merged.length)),
    kinds: {
      stated: scores.filter((s) => s.workKind.expected !== null).length,
      right: scores.filter((s) => s.workKind.expected !== null && s.kindMismatch === null).length,
    },
    misfits: sum(scores.map((s) => s.misfits.length)),
    scopeErrors: sum(scores.map((s) => s.scope.length)),
    orderViolations: sum(scores.map((s) => s.order.length)),
    wallMs: sum(scores.map((s) => s.wallMs)),
    calls: sum(scores.map((s) => s.calls)),
    promptTokens,
    completionTokens,
    tokensPerNode: nodes === 0 ? 0 : (promptTokens + completionTokens) / nodes,
  };
}

// ---------------------------------------------------------------------------------------------------------
// The gate

export type GateRule =
  | "plan-failed"
  | "uncovered-requirement"
  | "wrong-stack"
  | "non-goal-planned"
  | "exact-duplicate"
  | "near-duplicate"
  | "garbled-title"
  | "too-few-leaves"
  | "uniform-story-points"
  | "dependency-cycle"
  | "non-work-leaf"
  | "merged-features"
  | "wrong-kind"
  | "misfit-step"
  | "scope-error"
  | "order-violation";

export type GateFailure = { rule: GateRule; caseId: string | null; message: string };

export const MIN_LEAVES = 3;

/** Everything the CI gate refuses, each naming the case and the offending node. */
export function gateFailures(scores: PlanScore[]): GateFailure[] {
  const out: GateFailure[] = [];
  const node = (id: string | null, title: string) => (id ? `${id} "${title}"` : `"${title}"`);
  for (const s of scores) {
    const f = (rule: GateRule, message: string) =>
      out.push({ rule, caseId: s.caseId, message: `[${s.caseId}] ${message}` });
    if (s.error) f("plan-failed", s.error);
    for (const r of s.requirements.uncovered)
      f("uncovered-requirement", `${r.id} not covered by any node: ${r.text}`);
    for (const w of s.wrongStack) f("wrong-stack", `${w.where} ${node(null, w.title)}: ${w.reason}`);
    for (const g of s.nonGoals)
      f("non-goal-planned", `${node(g.nodeId, g.title)} plans the non-goal "${g.nonGoal}"`);
    for (const d of s.exactDuplicates)
      f("exact-duplicate", `${node(d.a.id, d.a.title)} = ${node(d.b.id, d.b.title)}`);
    for (const d of s.nearDuplicates)
      f(
        "near-duplicate",
        `${node(d.a.id, d.a.title)} ~ ${node(d.b.id, d.b.title)} (Jaccard ${d.jaccard.toFixed(2)})`,
      );
    for (const g of s.garbled) f("garbled-title", `${node(g.nodeId, g.title)}: ${g.rule}`);
    if (s.leaves < MIN_LEAVES) f("too-few-leaves", `${s.leaves} leaves (at least ${MIN_LEAVES})`);
    if (s.dependencies.cyclic)
      f("dependency-cycle", "the proposed dependencies form a cycle: the plan cannot be scheduled");
    const finding = (rule: GateRule, x: Finding) =>
      f(rule, `${x.nodeId ? `${node(x.nodeId, x.title)}: ` : x.title ? `"${x.title}": ` : ""}${x.why}`);
    for (const x of s.nonWork) finding("non-work-leaf", x);
    for (const x of s.merged) finding("merged-features", x);
    if (s.kindMismatch) finding("wrong-kind", s.kindMismatch);
    for (const x of s.misfits) finding("misfit-step", x);
    for (const x of s.scope) finding("scope-error", x);
    for (const x of s.order) finding("order-violation", x);
  }
  const values = new Set(scores.flatMap((s) => Object.keys(s.storyPoints)));
  if (scores.length > 1 && values.size <= 1)
    out.push({
      rule: "uniform-story-points",
      caseId: null,
      message: `every leaf of the corpus has the same story points (${[...values].join("") || "none"})`,
    });
  return out;
}
