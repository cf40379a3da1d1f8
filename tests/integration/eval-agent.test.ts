/**
 * The agent's tool loop of the planning evaluation (`npm run eval -- --agent`): corpus cases planned through
 * the MCP server's planning tools on a test server with no model, the fake answering as the agent's model,
 * scored like any planner (decision 029).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evaluateAgent, formatAgentStats } from "../eval/agent";
import { findCase } from "../eval/corpus/index";
import { type FakeOpenAI, startFakeOpenAI } from "../fakes/openai";

describe("eval harness, the agent's tool loop", () => {
  let llm: FakeOpenAI;
  beforeAll(async () => {
    llm = await startFakeOpenAI();
    llm.setPlanShape({ subtasks: 4, complexity: (depth) => (depth === 0 ? 8 : 4) });
  });
  afterAll(async () => {
    await llm.close();
  });

  it("plans corpus cases through the MCP planning tools with the fake as the agent's model, and scores them", async () => {
    const cases = [findCase("go-cli-envsync")!, findCase("vague-gym")!];
    const evaluation = await evaluateAgent(
      { baseUrl: llm.url, apiKey: llm.apiKey, model: "fake-gpt" },
      cases,
    );
    expect(evaluation.planner).toBe("agent");
    for (const s of evaluation.scores) {
      expect(s.error, s.caseId).toBeNull();
      // The root and its four children, each split into four leaves.
      expect(s.nodes, s.caseId).toBe(21);
    }
    // A step per split: the root, then its four children; the root's step asks the model twice.
    expect(evaluation.agent.stepsPerPlan).toEqual([5, 5]);
    expect(evaluation.totals.calls).toBe(2 * 6);
    expect(Math.max(...evaluation.agent.stepTokens)).toBeLessThan(2000);
    // The model was sent what the agent reads: the step's brief.
    const briefs = llm.requests.filter((r) => r.schemaName === "subtask_plan");
    expect(
      briefs.some((r) =>
        /Planning step 2 \(the whole description was in the first step/.test(r.messages.at(-1)!.content),
      ),
    ).toBe(true);
    expect(formatAgentStats(evaluation.agent)).toMatch(/tokens per step \(o200k\) median \d/);
  });
});
