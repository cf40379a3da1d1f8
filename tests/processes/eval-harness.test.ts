/**
 * The model path of the planning evaluation (`npm run eval -- --fake`): the LangChain planner against the
 * strict fake OpenAI-compatible server, driven and scored like the offline planner.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Planner } from "../../src/server/engine/planners/contract";
import { findCase } from "../eval/corpus/index";
import { evaluate, startFakeModelPlanner } from "../eval/harness";
import { formatScorecard } from "../eval/scorecard";
import type { FakeOpenAI } from "../fakes/openai";

const run = promisify(execFile);

describe("eval harness, model path", () => {
  let llm: FakeOpenAI;
  let planner: Planner;

  beforeAll(async () => {
    ({ llm, planner } = await startFakeModelPlanner());
  });
  afterAll(async () => {
    await llm.close();
  });

  it("plans and scores corpus cases through the fake model, counting calls and tokens", async () => {
    const cases = [findCase("go-cli-envsync")!, findCase("vague-gym")!];
    const evaluation = await evaluate(planner, cases);

    expect(evaluation.planner).toBe("langchain");
    expect(evaluation.model).toBe("fake-gpt");
    for (const s of evaluation.scores) {
      expect(s.error, s.caseId).toBeNull();
      // Complexity, the root split, four level-1 splits, and the two composer calls.
      expect(s.calls, s.caseId).toBe(8);
      expect(s.nodes, s.caseId).toBe(21);
      expect(s.promptTokens, s.caseId).toBeGreaterThan(0);
      expect(s.completionTokens, s.caseId).toBeGreaterThan(0);
    }
    const t = evaluation.totals;
    expect(t.calls).toBe(llm.usage.requests);
    expect(t.promptTokens).toBe(llm.usage.promptTokens);
    expect(t.completionTokens).toBe(llm.usage.completionTokens);
    expect(t.tokensPerNode).toBeGreaterThan(0);
    expect(t.wallMs).toBeGreaterThan(0);

    // The splits below the root were sent their ancestors (the project's text reaches every prompt).
    const deeper = llm.requests.filter(
      (r) => r.schemaName === "subtask_plan" && /Depth:\s*1\b/.test(r.messages.at(-1)!.content),
    );
    expect(deeper).toHaveLength(8);
    for (const r of deeper) expect(r.strict).toBe(true);

    expect(formatScorecard(evaluation)).toContain("Planner: langchain (fake-gpt), 2 cases");
  });

  it("npm run eval -- --fake --case <id> --json prints the scorecard as JSON", async () => {
    const { stdout } = await run(
      process.execPath,
      ["--import", "tsx", "tests/eval/run.ts", "--fake", "--case", "notion-backup", "--json"],
      { cwd: process.cwd() },
    );
    const evaluation = JSON.parse(stdout);
    expect(evaluation.scores).toHaveLength(1);
    expect(evaluation.scores[0].caseId).toBe("notion-backup");
    expect(evaluation.totals.calls).toBeGreaterThan(0);
    expect(evaluation.totals.promptTokens + evaluation.totals.completionTokens).toBeGreaterThan(0);
    // A fresh process compiles the evaluation with tsx and loads the learned reader: seconds alone, tens
    // of seconds beside the browser tests on two cores.
  });
});
