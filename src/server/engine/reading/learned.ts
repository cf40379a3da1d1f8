/**
 * The learned reader (decision 034): two small classifiers trained on labelled descriptions
 * (tests/reader-training/, `npm run train:reader`) instead of hand-kept English patterns.
 *
 * - `roleOf`: what one sentence is in its description (work, context, a non-goal, a constraint, an
 *   acceptance criterion, a question, a heading, metadata such as a version field or a log line);
 * - `kindOf`: what kind of work a whole description asks for.
 *
 * `judgeSentence` answers in the shape sentences.ts uses today, plus the finer role; `readRoles` judges
 * every sentence of a description. The weights load once, with this module.
 */
// Types only: kind.ts and sentences.ts are meant to call this module, so a value import would be a cycle.
import { READING_KINDS } from "../../../shared/schemas/reading";
import { descriptionFeatures, type SentenceInput, sentenceFeatures } from "./learned-features";
import { type ModelWeights, predict } from "./learned-model";
import { type DescriptionUnit, unitsOf } from "./learned-units";
import type { SentenceKind } from "./sentences";
import type { KindReading, WorkKind } from "./types";
import kindWeights from "./weights/kind.json";
import roleWeights from "./weights/role.json";

export const SENTENCE_ROLES = [
  "work",
  "context",
  "non_goal",
  "constraint",
  "criterion",
  "question",
  "heading",
  "metadata",
] as const;
export type SentenceRole = (typeof SENTENCE_ROLES)[number];

/** The kinds it tells apart: the ones a person may choose when checking a reading. */
export const LEARNED_KINDS = READING_KINDS satisfies readonly WorkKind[];

/** What a weights file holds: the model and a fingerprint of what it was trained on. */
export type WeightsFile = ModelWeights & {
  /** Fingerprints of the training inputs (the repository's own; the external corpus's, null without it). */
  trainedOn: { local: string; external: string | null; examples: number };
};

const ROLE_MODEL = roleWeights as unknown as WeightsFile;
const KIND_MODEL = kindWeights as unknown as WeightsFile;

export type RoleReading = { role: SentenceRole; p: number; scores: Record<SentenceRole, number> };
export type KindReadingLearned = { kind: WorkKind; p: number; ranked: { kind: WorkKind; p: number }[] };

function ranked<T extends string>(model: ModelWeights, features: readonly string[]): { id: T; p: number }[] {
  const p = predict(model, features);
  return model.classes
    .map((id, i) => ({ id: id as T, p: p[i]! }))
    .sort((a, b) => b.p - a.p || (a.id < b.id ? -1 : 1));
}

export function roleOf(sentence: SentenceInput): RoleReading {
  const all = ranked<SentenceRole>(ROLE_MODEL, sentenceFeatures(sentence));
  const scores = Object.fromEntries(all.map((r) => [r.id, r.p])) as Record<SentenceRole, number>;
  return { role: all[0]!.id, p: all[0]!.p, scores };
}

export function kindOf(text: string): KindReadingLearned {
  const all = ranked<WorkKind>(KIND_MODEL, descriptionFeatures(text));
  return { kind: all[0]!.id, p: all[0]!.p, ranked: all.map((r) => ({ kind: r.id, p: r.p })) };
}

/**
 * One sentence judged in the shape of sentences.ts's `judgeSentence` ("work" | "context" | "question"),
 * with the finer role: non-goals, constraints, criteria, headings and metadata are all "context" there,
 * and the caller files them by `role`.
 */
export function judgeSentence(
  sentence: string,
  setting: Omit<SentenceInput, "text"> = {},
): { kind: SentenceKind; role: SentenceRole; p: number } {
  const { role, p } = roleOf({ ...setting, text: sentence });
  return { kind: role === "work" || role === "question" ? role : "context", role, p };
}

/** Words that weigh in a model but explain nothing to a reader. */
const FUNCTION_WORDS = new Set(
  "a an and as at be by for from in into is it of on or our that the their this to we with you your i can could will would should must may might shall".split(
    " ",
  ),
);

/** The words of the text that pushed a model most toward a class (for a reader's "because"). */
function strongestWords(
  model: ModelWeights,
  features: readonly string[],
  id: string,
  count: number,
): string[] {
  const c = model.classes.indexOf(id);
  const words = new Map<string, number>();
  for (const f of new Set(features)) {
    const m = /^(?:l|t):(.+)$/.exec(f);
    const w = model.weights[f];
    if (!m || !w || FUNCTION_WORDS.has(m[1]!)) continue;
    // What the word adds to this class over the mean of the others.
    const lift = w[c]! - (w.reduce((a, b) => a + b, 0) - w[c]!) / (w.length - 1);
    if (lift > 0) words.set(m[1]!, Math.max(words.get(m[1]!) ?? 0, lift));
  }
  return [...words.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, count)
    .map(([w]) => w);
}

/**
 * The kind in kind.ts's `readKind` shape but for its label (kind.ts owns KIND_LABELS: add
 * `label: KIND_LABELS[id]`); `because` names the words that weighed most.
 */
export function kindReading(text: string): Omit<KindReading, "label"> & { p: number; words: string[] } {
  const features = descriptionFeatures(text);
  const [top] = ranked<WorkKind>(KIND_MODEL, features);
  const words = strongestWords(KIND_MODEL, features, top!.id, 3);
  const quoted = words.map((w) => `"${w}"`).join(", ");
  return {
    id: top!.id,
    because: words.length > 0 ? [`the words ${quoted}`] : [],
    /** The words that weighed most, quoted, for a reader's "because" (empty when none stood out). */
    words: words.length > 0 ? [quoted] : [],
    p: top!.p,
  };
}

/** Every sentence of a description, in its setting, with its role. */
export function readRoles(description: string): (DescriptionUnit & RoleReading)[] {
  return unitsOf(description).map((u) => ({ ...u, ...roleOf(u) }));
}
