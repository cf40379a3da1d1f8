/**
 * The planning-quality gate: the offline planner, driven as the pipeline drives it (tests/eval/driver.ts),
 * over the whole annotated corpus (tests/eval/corpus). `npm run eval` prints the same numbers as a scorecard.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { CORPUS } from "../eval/corpus/index";
import { type Evaluation, evaluate } from "../eval/harness";
import type { GateRule } from "../eval/metrics";
import { offlinePlanner } from "../eval/planners";

let evaluation: Evaluation;

beforeAll(async () => {
  evaluation = await evaluate(offlinePlanner(), CORPUS);
}, 60_000);

/** The gate's failures of some rules, each "[case] node ...: why". */
function failures(...rules: GateRule[]): string[] {
  return evaluation.failures.filter((f) => rules.includes(f.rule)).map((f) => f.message);
}

function expectNone(found: string[], what: string) {
  expect(
    found,
    `${found.length} ${what}:\n${found.slice(0, 60).join("\n")}${found.length > 60 ? "\n..." : ""}`,
  ).toEqual([]);
}

describe("planning quality of the offline planner over the corpus", () => {
  it("plans every case", () => {
    expectNone(failures("plan-failed"), "plans failed");
  });

  it("covers every stated requirement (100% coverage)", () => {
    expectNone(failures("uncovered-requirement"), "requirements not covered by any node");
  });

  it("never contradicts the stack the text names", () => {
    expectNone(failures("wrong-stack"), "technologies contradicting the text");
  });

  it("never plans an explicit non-goal", () => {
    expectNone(failures("non-goal-planned"), "non-goals planned as work");
  });

  it("has no exact or near-duplicate titles", () => {
    expectNone(failures("exact-duplicate", "near-duplicate"), "duplicate titles");
  });

  it("has no garbled titles", () => {
    expectNone(failures("garbled-title"), "garbled titles");
  });

  it("gives every plan at least 3 leaves", () => {
    expectNone(failures("too-few-leaves"), "plans with too few leaves");
  });

  it("does not give every leaf of the corpus the same story points", () => {
    expectNone(failures("uniform-story-points"), "story-point problems");
  });
});
