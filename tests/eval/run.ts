/**
 * npm run eval [-- options]: plans the corpus (tests/eval/corpus) and prints the planning-quality scorecard.
 *
 *   (no option)        the offline planner
 *   EVAL_OPENAI_BASE_URL, EVAL_MODEL (, EVAL_OPENAI_API_KEY, EVAL_LLM_TIMEOUT_MS) set:
 *                      that OpenAI-compatible endpoint (e.g. a local Ollama: http://localhost:11434/v1)
 *   --fake             the model path against the strict fake OpenAI server, started in-process
 *   --agent            planned the way a coding agent plans (the MCP server's planning tools on a test
 *                      server, no model on it), the agent's model being the fake, or EVAL_OPENAI_* when set
 *   --case <id>        one case, with its tree
 *   --json [file]      the scorecard as JSON, to the file or to stdout
 *   --concurrency <n>  splits at once (default 4)
 *   --strict           exit with status 1 when the gate fails
 *   --tuning           only the cases a planner may be tuned on (all but the held-out quarter)
 *   --held-out         only the held-out cases (tests/eval/corpus/held-out), totals and counts per rule:
 *                      nothing of their texts or plans is printed, so tuning cannot read them
 *   --external         the external corpus (../shared/corpus, tests/eval/external.ts) by its own
 *                      mechanical check: with --tuning the two thirds one may tune on, case by case;
 *                      with --held-out only the held-out third's totals; with --case <key> one plan
 */
import { writeFileSync } from "node:fs";
import type { Planner } from "../../src/server/engine/planners/contract";
import { type FakeOpenAI, startFakeOpenAI } from "../fakes/openai";
import { type AgentModel, evaluateAgent, formatAgentStats } from "./agent";
import type { EvalCase } from "./case";
import { CORPUS, findCase, HELD_OUT_CASES } from "./corpus/index";
import { planCase } from "./driver";
import {
  asEvalCase,
  EXTERNAL_CORPUS_DIR,
  externalTotals,
  formatExternalTotals,
  heldOutKeys,
  loadExternalCorpus,
  scoreExternal,
  wavesOf,
} from "./external";
import { evaluate, startFakeModelPlanner } from "./harness";
import { modelPlannerFromEnv, modelSettingsFromEnv, offlinePlanner } from "./planners";
import { caseLine, formatHeldOut, formatScorecard, formatTree } from "./scorecard";

type Args = {
  fake: boolean;
  caseId: string | null;
  json: string | true | null;
  concurrency: number;
  strict: boolean;
  set: "all" | "tuning" | "held-out";
  agent: boolean;
  external: boolean;
};

function parseArgs(argv: string[]): Args {
  const args: Args = {
    fake: false,
    caseId: null,
    json: null,
    concurrency: 4,
    strict: false,
    set: "all",
    agent: false,
    external: false,
  };
  for (let k = 0; k < argv.length; k++) {
    const a = argv[k]!;
    const next = argv[k + 1];
    if (a === "--fake") args.fake = true;
    else if (a === "--agent") args.agent = true;
    else if (a === "--external") args.external = true;
    else if (a === "--strict") args.strict = true;
    else if (a === "--tuning") args.set = "tuning";
    else if (a === "--held-out") args.set = "held-out";
    else if (a === "--case" && next) {
      args.caseId = next;
      k++;
    } else if (a === "--concurrency" && next) {
      args.concurrency = Math.max(1, Number(next) || 4);
      k++;
    } else if (a === "--json") {
      if (next && !next.startsWith("--")) {
        args.json = next;
        k++;
      } else args.json = true;
    } else
      throw new Error(
        `Unknown option ${a}. Options: --fake, --agent, --case <id>, --json [file], --concurrency <n>, --strict, --tuning, --held-out`,
      );
  }
  return args;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (args.external) return runExternal(args);
  const held = new Set(HELD_OUT_CASES.map((c) => c.id));
  const cases = args.caseId
    ? [findCase(args.caseId)].filter((c) => c !== undefined)
    : CORPUS.filter((c) =>
        args.set === "all" ? true : args.set === "held-out" ? held.has(c.id) : !held.has(c.id),
      );
  if (cases.length === 0)
    throw new Error(`No case "${args.caseId}". Cases: ${CORPUS.map((c) => c.id).join(", ")}`);

  if (args.agent) return runAgent(args, cases);

  let planner: Planner;
  let llm: FakeOpenAI | null = null;
  if (args.fake) ({ llm, planner } = await startFakeModelPlanner());
  else if (modelSettingsFromEnv()) planner = modelPlannerFromEnv();
  else planner = offlinePlanner();

  // Progress to stderr, so `--json` on stdout stays parseable.
  const live = args.json !== true && !args.caseId;
  if (live) process.stderr.write(`Planning ${cases.length} cases with the ${planner.name} planner...\n`);
  try {
    const evaluation = await evaluate(planner, cases, {
      concurrency: args.concurrency,
      onCase: (s) => {
        if (planner.name !== "offline") process.stderr.write(`  ${caseLine(s)}\n`);
      },
    });
    if (args.set === "held-out") {
      process.stdout.write(`${formatHeldOut(evaluation)}\n`);
      if (args.strict && evaluation.failures.length > 0) process.exitCode = 1;
      return;
    }
    if (args.json === true) process.stdout.write(`${JSON.stringify(evaluation, null, 2)}\n`);
    else {
      if (args.caseId) for (const r of evaluation.records) process.stdout.write(`${formatTree(r)}\n\n`);
      process.stdout.write(`${formatScorecard(evaluation)}\n`);
      if (typeof args.json === "string") {
        writeFileSync(args.json, `${JSON.stringify(evaluation, null, 2)}\n`);
        process.stdout.write(`\nScorecard written to ${args.json}\n`);
      }
    }
    if (args.strict && evaluation.failures.length > 0) process.exitCode = 1;
  } finally {
    await llm?.close();
  }
}

/** --agent: the corpus planned through the MCP server's planning tools, the agent's model answering each step. */
async function runAgent(args: Args, cases: EvalCase[]) {
  const settings = modelSettingsFromEnv();
  let llm: FakeOpenAI | null = null;
  let model: AgentModel;
  if (settings && !args.fake) model = settings;
  else {
    llm = await startFakeOpenAI();
    llm.setPlanShape({ subtasks: 4, complexity: (depth) => (depth === 0 ? 8 : 4) });
    model = { baseUrl: llm.url, apiKey: llm.apiKey, model: "fake-gpt" };
  }
  process.stderr.write(`Planning ${cases.length} cases through the agent tools with ${model.model}...\n`);
  try {
    const evaluation = await evaluateAgent(model, cases, {
      onCase: (s) => process.stderr.write(`  ${caseLine(s)}\n`),
    });
    if (args.set === "held-out") process.stdout.write(`${formatHeldOut(evaluation)}\n`);
    else if (args.json === true) process.stdout.write(`${JSON.stringify(evaluation, null, 2)}\n`);
    else {
      if (args.caseId) for (const r of evaluation.records) process.stdout.write(`${formatTree(r)}\n\n`);
      process.stdout.write(`${formatScorecard(evaluation)}\n`);
    }
    process.stdout.write(`${formatAgentStats(evaluation.agent)}\n`);
    if (args.strict && evaluation.failures.length > 0) process.exitCode = 1;
  } finally {
    await llm?.close();
  }
}

/** --external: the corpus written outside the project, scored by its own check (tests/eval/external.ts). */
async function runExternal(args: Args) {
  const all = loadExternalCorpus();
  if (all.length === 0) throw new Error(`No external corpus at ${EXTERNAL_CORPUS_DIR}`);
  const held = heldOutKeys(all);
  const cases = args.caseId
    ? all.filter((c) => c.key === args.caseId && !held.has(c.key))
    : all.filter((c) =>
        args.set === "held-out" ? held.has(c.key) : args.set === "tuning" ? !held.has(c.key) : true,
      );
  if (cases.length === 0) throw new Error(`No tuning case "${args.caseId}"`);
  const planner = offlinePlanner();
  const scores = [];
  for (const c of cases) {
    const record = await planCase(planner, asEvalCase(c));
    const score = scoreExternal(c, record);
    scores.push(score);
    if (args.caseId) {
      const waves = wavesOf(record);
      const leaves = record.nodes
        .filter((n) => waves.has(n.id))
        .map((n) => `  wave ${waves.get(n.id)}: ${n.title}`)
        .join("\n");
      process.stdout.write(
        `${formatTree(record)}\n\nLeaves by wave:\n${leaves}\n\n${JSON.stringify(score, null, 2)}\n`,
      );
    } else if (args.set === "tuning")
      process.stdout.write(
        `${score.pass ? "PASS" : "fail"} ${c.key} [${c.kind} -> ${score.plannedAs}] leaves ${score.leaves}, ${score.totalHours} h: ${score.reasons.join("; ")}\n`,
      );
  }
  if (args.json) {
    const out = JSON.stringify(args.set === "held-out" ? externalTotals(scores) : scores, null, 2);
    if (typeof args.json === "string") writeFileSync(args.json, `${out}\n`);
    else process.stdout.write(`${out}\n`);
  }
  const label =
    args.set === "held-out"
      ? "External corpus, held-out third"
      : args.set === "tuning"
        ? "External corpus, tuning part"
        : "External corpus, all";
  process.stdout.write(`${formatExternalTotals(label, externalTotals(scores))}\n`);
}

main().catch((err) => {
  console.error(err instanceof Error ? (process.env.EVAL_STACK ? err.stack : err.message) : err);
  process.exitCode = 2;
});
