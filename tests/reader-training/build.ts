/**
 * Builds the learned reader's weights from the labelled texts and the corpora's weak labels (decision
 * 034). Deterministic: inputs sorted, the trainer seeded, weights rounded, so the same inputs give the same
 * JSON. `npm run train:reader` (train.ts) writes them; weights.test.ts checks the committed ones.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import {
  LEARNED_KINDS,
  SENTENCE_ROLES,
  type SentenceRole,
  type WeightsFile,
} from "../../src/server/engine/reading/learned";
import { descriptionFeatures, sentenceFeatures } from "../../src/server/engine/reading/learned-features";
import {
  DEFAULT_TRAIN_OPTIONS,
  type Example,
  predict,
  trainModel,
} from "../../src/server/engine/reading/learned-model";
import { unitsOf } from "../../src/server/engine/reading/learned-units";
import { tokensOf } from "../../src/server/engine/reading/nlp";
import { externalCorpus, projectCorpus, REPO_ROOT, sha256, type WeakText } from "./corpora";
import { type LabelledText, parseLabelled, textFiles } from "./labelled";

/** Your own texts held out for the report: a quarter, by the hash of the text's id. */
export function isHeldOutText(id: string): boolean {
  return "0123".includes(sha256(id)[0]!);
}

/** The code whose change changes the weights: part of the fingerprint. */
export const TRAINER_SOURCES = [
  "src/server/engine/reading/nlp.ts",
  "src/server/engine/reading/learned-features.ts",
  "src/server/engine/reading/learned-model.ts",
  "src/server/engine/reading/learned-units.ts",
  "tests/reader-training/build.ts",
  "tests/reader-training/corpora.ts",
  "tests/reader-training/labelled.ts",
];

const WEAK_WEIGHT = { work: 0.3, non_goal: 0.5, not_work: 0.3 } as const;
const EXTERNAL_KIND_WEIGHT = 0.7;
const BARE_WEIGHT = 0.3;
/** Kinds: few texts and a lopsided spread (most are products), so each kind counts as much as the others. */
export const KIND_OPTIONS = { ...DEFAULT_TRAIN_OPTIONS, balance: 1 };
/** A weak "work" label is dropped where the labelled texts' model reads a constraint, criterion, non-goal or
 * question: the corpora annotate "must keep working" or "p95 under 300 ms" as requirements to cover. */
const OVERRULED = new Set<string>(["constraint", "criterion", "non_goal", "question"]);

export type TrainingSet = {
  labelled: LabelledText[];
  projectTexts: WeakText[];
  externalTexts: WeakText[] | null;
  /** Fingerprints of the inputs, recorded in the weights: the repository's own, and the external corpus's. */
  fingerprint: { local: string; external: string | null };
};

/** Everything the weights are trained on (no held-out text of any corpus). */
export function trainingSet(options: { external?: boolean } = {}): TrainingSet {
  const files = textFiles();
  const labelled = files.flatMap((f) => parseLabelled(f.content, f.name)).filter((t) => !isHeldOutText(t.id));
  const projectTexts = projectCorpus().training;
  const externalTexts = options.external === false ? null : (externalCorpus()?.training ?? null);
  const fingerprint = {
    local: sha256(
      JSON.stringify({
        files,
        project: projectTexts.map((t) => [t.id, t.kind, t.description]),
        code: TRAINER_SOURCES.map((f) => readFileSync(path.join(REPO_ROOT, f), "utf8")),
      }),
    ),
    external: externalTexts
      ? sha256(JSON.stringify(externalTexts.map((t) => [t.id, t.kind, t.description])))
      : null,
  };
  return { labelled, projectTexts, externalTexts, fingerprint };
}

/** Each labelled sentence in its setting, and once more bare (a caller may judge a sentence out of context). */
export function roleExamples(texts: readonly LabelledText[]): Example[] {
  return texts.flatMap((t) =>
    t.sentences.flatMap((s) => {
      const tokens = tokensOf(s.text);
      return [
        { features: sentenceFeatures({ ...s, tokens }), label: s.role, weight: 1 },
        // Bare but for its own layout (a caller judging one line still sees whether it is a heading).
        {
          features: sentenceFeatures({
            text: s.text,
            tokens,
            headingLine: s.headingLine,
            listItem: s.listItem,
          }),
          label: s.role,
          weight: BARE_WEIGHT,
        },
      ];
    }),
  );
}

const NOT_WORK_ROLES = SENTENCE_ROLES.filter((r) => r !== "work");

/** Weak role labels: "not work" becomes the likeliest other role by a model trained on the labelled texts alone. */
function weakRoleExamples(
  texts: readonly WeakText[],
  labelledModel: ReturnType<typeof trainModel>,
): Example[] {
  return texts.flatMap((t) =>
    unitsOf(t.description).flatMap((u): Example[] => {
      const label = t.label(u.text);
      if (label === null || (label === "work" && (u.headingLine || u.inCode))) return [];
      const features = sentenceFeatures(u);
      const p = predict(labelledModel, features);
      const likeliest = (roles: readonly string[]) =>
        roles.reduce((best, r) =>
          p[labelledModel.classes.indexOf(r)]! > p[labelledModel.classes.indexOf(best)]! ? r : best,
        );
      if (label === "work" && OVERRULED.has(likeliest(SENTENCE_ROLES))) return [];
      // Only a line laid out as a heading is read as one: short prose ("And yeah") is not.
      const candidates = u.headingLine ? NOT_WORK_ROLES : NOT_WORK_ROLES.filter((r) => r !== "heading");
      const role = (label === "not_work" ? likeliest(candidates) : label) as SentenceRole;
      return [{ features, label: role, weight: WEAK_WEIGHT[label] }];
    }),
  );
}

/**
 * The external corpus's examples keep only features the repository's own data also has: a word or a pair of
 * words in the weights files is never one that only the external corpus's text holds.
 */
function withinVocabulary(examples: readonly Example[], vocabulary: ReadonlySet<string>): Example[] {
  return examples.map((e) => ({ ...e, features: e.features.filter((f) => vocabulary.has(f)) }));
}

const vocabularyOf = (examples: readonly Example[]) => new Set(examples.flatMap((e) => e.features));

export function buildWeights(set: TrainingSet): { role: WeightsFile; kind: WeightsFile } {
  const labelledRoles = roleExamples(set.labelled);
  const labelledModel = trainModel(labelledRoles, SENTENCE_ROLES);
  const localRoles = [...labelledRoles, ...weakRoleExamples(set.projectTexts, labelledModel)];
  const externalRoles = weakRoleExamples(set.externalTexts ?? [], labelledModel);
  const roleSet = [...localRoles, ...withinVocabulary(externalRoles, vocabularyOf(localRoles))];
  const localKinds: Example[] = [
    ...set.labelled.map((t) => ({ features: descriptionFeatures(t.text), label: t.kind, weight: 1 })),
    ...set.projectTexts
      .filter((t) => t.kind !== null)
      .map((t) => ({ features: descriptionFeatures(t.description), label: t.kind!, weight: 1 })),
  ];
  const externalKinds: Example[] = (set.externalTexts ?? [])
    .filter((t) => t.kind !== null)
    .map((t) => ({
      features: descriptionFeatures(t.description),
      label: t.kind!,
      weight: EXTERNAL_KIND_WEIGHT,
    }));
  const kindSet = [...localKinds, ...withinVocabulary(externalKinds, vocabularyOf(localKinds))];
  const trainedOn = (examples: number) => ({ ...set.fingerprint, examples });
  return {
    role: { ...trainModel(roleSet, SENTENCE_ROLES), trainedOn: trainedOn(roleSet.length) },
    kind: { ...trainModel(kindSet, LEARNED_KINDS, KIND_OPTIONS), trainedOn: trainedOn(kindSet.length) },
  };
}

/** The weights file's text: one feature a line, so a diff shows what changed. */
export function weightsJson(w: WeightsFile): string {
  const lines = Object.keys(w.weights)
    .sort()
    .map((f) => `    ${JSON.stringify(f)}: ${JSON.stringify(w.weights[f])}`);
  return `{\n  "classes": ${JSON.stringify(w.classes)},\n  "trainedOn": ${JSON.stringify(w.trainedOn)},\n  "weights": {\n${lines.join(",\n")}\n  }\n}\n`;
}
