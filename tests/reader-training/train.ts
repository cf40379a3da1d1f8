/**
 * npm run train:reader: rebuilds the learned reader's weights (src/server/engine/reading/weights/) and
 * prints precision and recall on held-out texts (decision 034). Of the external corpus's held-out third
 * it prints only totals a kind, never a text.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { readKind } from "../../src/server/engine/reading/kind";
import { LEARNED_KINDS, SENTENCE_ROLES, type WeightsFile } from "../../src/server/engine/reading/learned";
import { descriptionFeatures, sentenceFeatures } from "../../src/server/engine/reading/learned-features";
import { predict } from "../../src/server/engine/reading/learned-model";
import { unitsOf } from "../../src/server/engine/reading/learned-units";
import { extractScope } from "../../src/server/engine/reading/requirements";
import { judgeSentence as judgeByRules } from "../../src/server/engine/reading/sentences";
import { buildWeights, isHeldOutText, trainingSet, weightsJson } from "./build";
import { EXTERNAL_DIR, externalCorpus, projectCorpus, REPO_ROOT } from "./corpora";
import { loadLabelled } from "./labelled";

const out = (line = "") => process.stdout.write(`${line}\n`);
const pct = (x: number) => (Number.isFinite(x) ? `${(100 * x).toFixed(0)}%` : "-");

function best(model: WeightsFile, features: string[]): string {
  const p = predict(model, features);
  return model.classes[p.indexOf(Math.max(...p))]!;
}

function table(title: string, classes: readonly string[], pairs: { gold: string; guess: string }[]) {
  out(`\n${title} (${pairs.length})`);
  out(`  ${"class".padEnd(16)}${"n".padStart(5)}${"precision".padStart(11)}${"recall".padStart(8)}`);
  for (const c of classes) {
    const n = pairs.filter((p) => p.gold === c).length;
    const guessed = pairs.filter((p) => p.guess === c).length;
    const right = pairs.filter((p) => p.gold === c && p.guess === c).length;
    out(
      `  ${c.padEnd(16)}${String(n).padStart(5)}${pct(right / guessed).padStart(11)}${pct(right / n).padStart(8)}`,
    );
  }
  const right = pairs.filter((p) => p.gold === p.guess).length;
  out(`  accuracy ${pct(right / pairs.length)} (${right}/${pairs.length})`);
}

const started = performance.now();
const set = trainingSet();
if (set.externalTexts === null)
  out(`No external corpus at ${EXTERNAL_DIR}: training on the labelled texts and tests/eval/corpus only.`);
const { role, kind } = buildWeights(set);
const trainedIn = performance.now() - started;
const dir = path.join(REPO_ROOT, "src/server/engine/reading/weights");
for (const [name, w] of [
  ["role", role],
  ["kind", kind],
] as const) {
  const json = weightsJson(w);
  writeFileSync(path.join(dir, `${name}.json`), json);
  out(
    `${name}.json: ${Object.keys(w.weights).length} features, ${(json.length / 1024).toFixed(1)} KB, ${w.trainedOn.examples} examples`,
  );
}
out(`trained in ${(trainedIn / 1000).toFixed(1)} s`);

const all = loadLabelled();
const heldOut = all.filter((t) => isHeldOutText(t.id));
const roleCount = (ts: typeof all) => ts.reduce((n, t) => n + t.sentences.length, 0);
out(
  `\nlabelled texts: ${all.length} (${roleCount(all)} sentences); held out: ${heldOut.length} texts (${roleCount(heldOut)} sentences)`,
);
out(
  `project corpus: ${set.projectTexts.length} cases trained on; external corpus: ${set.externalTexts?.length ?? 0} cases trained on`,
);

table(
  "Role, held-out labelled sentences",
  SENTENCE_ROLES,
  heldOut.flatMap((t) => t.sentences.map((s) => ({ gold: s.role, guess: best(role, sentenceFeatures(s)) }))),
);
const projectHeldOut = projectCorpus().heldOut.filter((t) => t.kind !== null);
table(
  "Kind, held-out labelled texts",
  LEARNED_KINDS,
  heldOut.map((t) => ({ gold: t.kind, guess: best(kind, descriptionFeatures(t.text)) })),
);
table(
  "Kind, tests/eval/corpus/held-out",
  LEARNED_KINDS,
  projectHeldOut.map((t) => ({ gold: t.kind!, guess: best(kind, descriptionFeatures(t.description)) })),
);

// The rules the learned reader would replace (kind.ts, sentences.ts), on the same held-out texts.
const rulesKind = (text: string) => readKind({ description: text, scope: extractScope(text) }).id;
table(
  "Kind by today's rules (kind.ts), held-out labelled texts + tests/eval/corpus/held-out",
  LEARNED_KINDS,
  [
    ...heldOut.map((t) => ({ gold: t.kind, guess: rulesKind(t.text) })),
    ...projectHeldOut.map((t) => ({ gold: t.kind!, guess: rulesKind(t.description) })),
  ],
);
const asWork = (r: string) => (r === "work" ? "work" : "not work");
const heldSentences = heldOut.flatMap((t) => t.sentences);
table(
  "Work or not, held-out labelled sentences: learned",
  ["work", "not work"],
  heldSentences.map((s) => ({ gold: asWork(s.role), guess: asWork(best(role, sentenceFeatures(s))) })),
);
table(
  "Work or not, held-out labelled sentences: today's judgeSentence (sentences.ts)",
  ["work", "not work"],
  heldSentences.map((s) => ({
    gold: asWork(s.role),
    guess: asWork(judgeByRules(s.text, s.listItem ?? false)),
  })),
);

// The external held-out third: counted, never printed.
const external = externalCorpus();
if (external) {
  const pairs = external.heldOut
    .filter((t) => t.kind !== null)
    .map((t) => ({ gold: t.kind!, guess: best(kind, descriptionFeatures(t.description)) }));
  table("Kind, external held-out (totals only)", LEARNED_KINDS, pairs);
  table(
    "Kind by today's rules, external held-out (totals only)",
    LEARNED_KINDS,
    external.heldOut
      .filter((t) => t.kind !== null)
      .map((t) => ({ gold: t.kind!, guess: rulesKind(t.description) })),
  );
  const sentencePairs = external.heldOut.flatMap((t) =>
    unitsOf(t.description)
      .map((u) => ({ u, label: t.label(u.text) }))
      .filter((x) => x.label !== null && !x.u.headingLine)
      .map((x) => ({
        gold: x.label === "work" ? "work" : "not work",
        learned: asWork(best(role, sentenceFeatures(x.u))),
        rules: asWork(judgeByRules(x.u.text, x.u.listItem ?? false)),
      })),
  );
  table(
    "Work or not, external held-out weak labels (a feature's words: work; a must-not pattern: not work): learned",
    ["work", "not work"],
    sentencePairs.map((p) => ({ gold: p.gold, guess: p.learned })),
  );
  table(
    "Work or not, external held-out weak labels: today's judgeSentence",
    ["work", "not work"],
    sentencePairs.map((p) => ({ gold: p.gold, guess: p.rules })),
  );
}
