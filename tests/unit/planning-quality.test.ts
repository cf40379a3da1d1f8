/**
 * The planning-quality gate: the offline planner, driven as the pipeline drives it (tests/eval/driver.ts),
 * over the annotated corpus (tests/eval/corpus): every case a planner may be tuned on (at least 80), with
 * the hard rules at 0. The held-out quarter (tests/eval/corpus/held-out) is planned and checked for what
 * never depends on tuning (no failed plan, no cycle, no duplicate or invented stack), and its reading
 * scores are reported by `npm run eval -- --held-out` without showing its texts (decision 027).
 * `npm run eval -- --tuning` prints the gated numbers as a scorecard.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { CORPUS, HELD_OUT_CASES } from "../eval/corpus/index";
import { type Evaluation, evaluate } from "../eval/harness";
import type { GateRule } from "../eval/metrics";
import { offlinePlanner } from "../eval/planners";

let evaluation: Evaluation;
let heldOut: Evaluation;
const held = new Set(HELD_OUT_CASES.map((c) => c.id));
const TUNING = CORPUS.filter((c) => !held.has(c.id));

/**
 * Soft rules: an order the text implies but never states, and features a sentence joins, are judged
 * case by case; these ceilings keep them from growing (they were 49 and 13 when the rules came in).
 * Order rose from 44 to 45 when the dedup pass began comparing titles rather than whole descriptions
 * (issue 38): leaves of one inline list, which quote their sentence below their titles, had been merged
 * into one, and a stated step now meets one of the leaves kept apart.
 */
const MAX_ORDER_VIOLATIONS = 45;
const MAX_MERGED_FEATURES = 9;

beforeAll(async () => {
  evaluation = await evaluate(offlinePlanner(), TUNING);
  heldOut = await evaluate(offlinePlanner(), HELD_OUT_CASES);
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
  it("gates at least 80 cases, none of them held out", () => {
    expect(TUNING.length).toBeGreaterThanOrEqual(80);
    expect(HELD_OUT_CASES.length).toBeGreaterThanOrEqual(Math.floor((CORPUS.length - 29) / 4));
  });

  it("plans no text as work that is not work (questions, narrative, headings, markup)", () => {
    expectNone(failures("non-work-leaf"), "leaves planned from text that is not work");
  });

  it("reads every case as the kind of work it is", () => {
    expectNone(failures("wrong-kind"), "cases read as the wrong kind of work");
  });

  it("adds no step that does not fit the kind of work", () => {
    expectNone(failures("misfit-step"), "misfit steps");
  });

  it("reads scope both ways: every non-goal stated, nothing taken for one that is not", () => {
    expectNone(failures("scope-error"), "scope errors");
  });

  it("keeps merged features and invented or lost order under their ceilings", () => {
    const order = failures("order-violation");
    const merged = failures("merged-features");
    expect(order.length, order.join("\n")).toBeLessThanOrEqual(MAX_ORDER_VIOLATIONS);
    expect(merged.length, merged.join("\n")).toBeLessThanOrEqual(MAX_MERGED_FEATURES);
  });

  it("plans every held-out case with no failure, cycle, duplicate or contradicted stack", () => {
    const rules = new Set(["plan-failed", "dependency-cycle", "exact-duplicate", "wrong-stack"]);
    // Only the rule and the case id: the held-out texts stay out of sight.
    const found = heldOut.failures.filter((f) => rules.has(f.rule)).map((f) => `${f.caseId}: ${f.rule}`);
    expectNone(found, "held-out failures");
  });

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
