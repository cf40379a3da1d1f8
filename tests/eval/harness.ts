/** Runs a planner over corpus cases and scores the plans: shared by `npm run eval` and the tests. */
import type { Planner } from "../../src/server/engine/planners/contract";
import { type FakeOpenAI, startFakeOpenAI } from "../fakes/openai";
import type { EvalCase } from "./case";
import { type DriverOptions, type PlanRecord, planCase } from "./driver";
import { type GateFailure, gateFailures, type PlanScore, scorePlan, type Totals, totals } from "./metrics";
import { modelPlannerFromEnv } from "./planners";

export type Evaluation = {
  planner: string;
  model: string | null;
  records: PlanRecord[];
  scores: PlanScore[];
  totals: Totals;
  failures: GateFailure[];
};

/** Plans every case (one after the other; each plan runs its splits concurrently) and scores it. */
export async function evaluate(
  planner: Planner,
  cases: readonly EvalCase[],
  options: Partial<DriverOptions> & { onCase?: (score: PlanScore) => void } = {},
): Promise<Evaluation> {
  const records: PlanRecord[] = [];
  const scores: PlanScore[] = [];
  for (const evalCase of cases) {
    const record = await planCase(planner, evalCase, options);
    const score = scorePlan(evalCase, record);
    records.push(record);
    scores.push(score);
    options.onCase?.(score);
  }
  return {
    planner: planner.name,
    model: planner.model,
    records,
    scores,
    totals: totals(scores),
    failures: gateFailures(scores),
  };
}

/**
 * The strict fake OpenAI-compatible server (tests/fakes/openai.ts) and the model planner pointed at it. Its
 * plans are two levels deep (four level-1 nodes scored 8, each split into four atomic ones) so the splits
 * below the root, with their ancestors, siblings and outline, are exercised too.
 */
export async function startFakeModelPlanner(): Promise<{ llm: FakeOpenAI; planner: Planner }> {
  const llm = await startFakeOpenAI();
  // `depth` is the depth of the split asked for: the root's children score 8, theirs 4.
  llm.setPlanShape({ subtasks: 4, complexity: (depth) => (depth === 0 ? 8 : 4) });
  const planner = modelPlannerFromEnv({
    EVAL_OPENAI_BASE_URL: llm.url,
    EVAL_OPENAI_API_KEY: llm.apiKey,
    EVAL_MODEL: "fake-gpt",
  });
  return { llm, planner };
}
