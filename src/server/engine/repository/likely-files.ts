import MiniSearch from "minisearch";
import type { RepositoryMap, TaskFile } from "../../../shared/schemas/repository-map";

/**
 * The files a task most likely touches (issue 42): a task's words ranked against the repository map's
 * paths and top-level symbols (routes, models, tables, exported functions and classes) with BM25+
 * (MiniSearch), the words split as code names are (camelCase, snake_case, path segments) and reduced to a
 * stem, so "invoice due dates" finds `src/routes/invoices.ts` and `dueDate`. A file that matches several of
 * the task's words, or one word in a symbol, ranks first; files far below the best are left out. When
 * nothing matches well, the task names the new file it needs next to the folder its kind of code lives in.
 */

/** Files named per task, at most. */
export const FILES_PER_TASK = 3;
/** A file scoring below this share of the best is a coincidence of one common word. */
const BEST_SHARE = 0.4;

/** Words every task says, which tell nothing about where the code is. */
const STOP = new Set(
  (
    "a an and are as at be by can could do does for from has have how i if in into is it its let lets may " +
    "me must my new no not of on or our out should so some than that the their them then there these this " +
    "those to up us use used user users using want we when where which while who will with would you your " +
    "add adds added adding allow allows able make makes need needs show shows see get set update updates " +
    "change changes create creates support supports also only each every all any more most via way page " +
    "feature features app application system data field fields value values list lists test tests file " +
    "files code implement implementing right now already current currently existing screen view"
  ).split(" "),
);

/** A word as the index keeps it: lower case, a plural's stem. */
export function stem(word: string): string {
  let w = word.toLowerCase();
  if (w.length > 4 && w.endsWith("ies")) w = `${w.slice(0, -3)}y`;
  else if (w.length > 4 && /(sses|xes|ches|shes)$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith("s") && !w.endsWith("ss") && !w.endsWith("us")) w = w.slice(0, -1);
  if (w.length > 5 && w.endsWith("ing")) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith("ed") && !w.endsWith("eed")) w = w.slice(0, -2);
  return w;
}

/** Words of a code name or a sentence: `dueDateReminder` → due, date, reminder. */
export function codeWords(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w.length > 1 && !/^\d+$/.test(w))
    .map((w) => w.toLowerCase());
}

const tokenize = (text: string) => codeWords(text);
const processTerm = (term: string) => (STOP.has(term) ? null : stem(term));

/** Paths that are not code anyone edits for a change: lockfiles, assets, generated and vendored files. */
const NOT_CODE =
  /(^|\/)(node_modules|vendor|dist|build|coverage|\.git|target|\.next)\/|(\.lock|-lock\.json|\.min\.js|\.map|\.png|\.jpe?g|\.gif|\.svg|\.ico|\.woff2?|\.pdf|\.snap)$|(^|\/)(LICENSE|CHANGELOG)/i;

/**
 * A migration the repository has applied: a numbered or dated entry of a migrations folder ($1 the folder).
 * History, not code a change edits: a change adds a new one (offline/files.ts).
 */
export const APPLIED_MIGRATION =
  /^(.*(?:^|\/)(?:migrations|migrate|versions|drizzle))\/(\d[\d_]*[^/]*)(\/|$)/;

type Doc = { id: string; path: string; symbols: string; folder: string };

export type FileIndex = {
  /**
   * The files a task's text most likely touches, best first; `tests`: its tests instead. `focus`: how
   * well each file matches the whole request (`focusOf`), which counts too: a leaf about "due dates" of a
   * request about invoices is about the invoice files.
   */
  filesFor(
    text: string,
    opts?: {
      tests?: boolean;
      focus?: Map<string, number>;
      limit?: number;
      /** The share of the best score a file needs (default BEST_SHARE); lower for a list to choose from. */
      floor?: number;
    },
  ): TaskFile[];
  /** Each file's match with a whole request, 0 to 1 (the best is 1). */
  focusOf(text: string): Map<string, number>;
  map: RepositoryMap;
};

/** How much the whole request's match counts beside a task's own. */
const FOCUS_WEIGHT = 0.6;

/** An index of a map's code files, built once per plan. */
const indexes = new WeakMap<RepositoryMap, FileIndex>();

/** The index of a map, built once per map object (a plan's splits share the brief's). */
export function indexOf(map: RepositoryMap): FileIndex {
  let index = indexes.get(map);
  if (!index) {
    index = indexRepository(map);
    indexes.set(map, index);
  }
  return index;
}

export function indexRepository(map: RepositoryMap): FileIndex {
  const symbolsByPath = new Map(map.symbols.map((s) => [s.path, s.names.map((n) => n.name).join(" ")]));
  const docs: Doc[] = map.files
    .filter(
      (f) =>
        !NOT_CODE.test(f.path) &&
        !APPLIED_MIGRATION.test(f.path) &&
        f.language !== null &&
        f.language !== "Markdown",
    )
    .map((f) => {
      const dir = f.path.includes("/") ? f.path.slice(0, f.path.lastIndexOf("/")) : "";
      return { id: f.path, path: f.path, symbols: symbolsByPath.get(f.path) ?? "", folder: dir };
    });
  const index = new MiniSearch<Doc>({
    fields: ["path", "symbols"],
    storeFields: ["path"],
    tokenize,
    processTerm,
  });
  index.addAll(docs);
  const isTest = (p: string) =>
    /(^|\/)(tests?|__tests__|specs?|e2e)\//i.test(p) ||
    /(\.(test|spec)\.|_test\.|(^|\/)test_|Tests?\.|_spec\.|(^|\/)tests?\.py$)/.test(p);

  const search = (text: string) => {
    const terms = [
      ...new Set(
        tokenize(text)
          .map(processTerm)
          .filter((t): t is string => Boolean(t)),
      ),
    ];
    if (terms.length === 0) return { terms, results: [] };
    const results = index.search(terms.join(" "), {
      prefix: (t) => t.length >= 4,
      fuzzy: (t) => (t.length >= 6 ? 0.15 : false),
      boost: { symbols: 1.4 },
      combineWith: "OR",
    });
    return { terms, results };
  };

  return {
    map,
    focusOf(text) {
      const { results } = search(text);
      const best = results[0]?.score ?? 0;
      return new Map(best > 0 ? results.map((r) => [r.id, r.score / best]) : []);
    },
    filesFor(text, opts = {}) {
      const { terms, results } = search(text);
      const wanted = (p: string) => (opts.tests ? isTest(p) : !isTest(p));
      const own = results.filter((r) => wanted(r.id));
      const ownBest = own[0]?.score ?? 0;
      const scored = new Map<string, { score: number; matched: number }>();
      for (const r of own)
        scored.set(r.id, { score: r.score / ownBest, matched: (r.terms as string[]).length });
      for (const [p, f] of opts.focus ?? []) {
        if (!wanted(p)) continue;
        const s = scored.get(p) ?? { score: 0, matched: 0 };
        scored.set(p, { ...s, score: s.score + FOCUS_WEIGHT * f });
      }
      const ranked = [...scored].sort((a, b) => b[1].score - a[1].score);
      const best = ranked[0]?.[1].score ?? 0;
      if (best === 0) return [];
      const out: TaskFile[] = [];
      for (const [p, { score, matched }] of ranked) {
        if (out.length >= (opts.limit ?? FILES_PER_TASK)) break;
        const share = score / best;
        if (share < (opts.floor ?? BEST_SHARE)) break;
        const confidence: TaskFile["confidence"] =
          share >= 0.75 && matched >= Math.min(2, terms.length) ? "high" : share >= 0.6 ? "medium" : "low";
        out.push({ path: p, confidence, new: false });
      }
      return out;
    },
  };
}

/** A planner's files for a task, as kept: existing paths of the map, or new ones that stay inside it. */
export function filesIn(map: RepositoryMap | null, files: TaskFile[]): TaskFile[] | undefined {
  if (!map) return undefined;
  const known = new Set(map.files.map((f) => f.path));
  const inside = (p: string) => !p.startsWith("/") && !p.split("/").includes("..") && !p.includes("\\");
  const kept = files.filter((f) => (f.new ? inside(f.path) && !known.has(f.path) : known.has(f.path)));
  return kept.length ? kept.slice(0, FILES_PER_TASK * 2) : undefined;
}

/** A task that checks or tests, by its title: it names test files, not the code's. */
export const TESTING = /\b(test|tests|testing|acceptance|verify|check|regression)\b/i;

/**
 * The files of planned subtasks, whoever planned them (issue 42): a planner's own are kept where the map
 * has them (`filesIn`); a subtask without any is given the files its words rank highest, as the outline's
 * leaves are, so a model's or an agent's plan names files too.
 */
export function withLikelyFiles<
  T extends { description: string; implementation_details: string; files?: TaskFile[] },
>(map: RepositoryMap, request: string, planned: T[]): T[] {
  const index = indexOf(map);
  const focus = index.focusOf(request);
  return planned.map((p) => {
    const own = p.files ? filesIn(map, p.files) : undefined;
    if (own) return { ...p, files: own };
    const ranked = index.filesFor(`${p.description}\n${p.implementation_details}`, {
      focus,
      tests: TESTING.test(p.description.split("\n")[0] ?? ""),
    });
    const { files: _dropped, ...rest } = p;
    return (ranked.length ? { ...rest, files: ranked } : rest) as T;
  });
}
