import { describe, expect, it } from "vitest";
import { plannedByText, plannerChoiceText, usageText } from "./planner-text";

describe("planner text", () => {
  it("names the planner", () => {
    expect(plannedByText({ planner: "offline", model: null })).toBe(
      "Outline from your description (no AI model connected)",
    );
    expect(plannedByText({ planner: "langchain", model: "gpt-4o-mini" })).toBe(
      "Planned by gpt-4o-mini via an OpenAI-compatible API",
    );
    expect(plannedByText({ planner: "agent", model: "claude-code" })).toBe(
      "Planned by your coding agent (claude-code)",
    );
    expect(plannedByText({ planner: "agent", model: null })).toBe("Planned by your coding agent");
    expect(plannedByText({ planner: null, model: null })).toBeNull();
  });

  it("says which planner a new task would get, and where its settings come from", () => {
    expect(plannerChoiceText({ name: "langchain", model: "gpt-4o-mini", source: "your settings" })).toBe(
      "Planned by gpt-4o-mini (your settings)",
    );
    expect(plannerChoiceText({ name: "langchain", model: "llama3.2", source: "instance settings" })).toBe(
      "Planned by llama3.2 (instance settings)",
    );
    expect(plannerChoiceText({ name: "offline", model: null, source: "none" })).toBe(
      "Outline from your description (no AI model connected)",
    );
  });

  it("sums tokens only when a model was called", () => {
    const llm = { planner: "langchain" };
    expect(
      usageText({ ...llm, predictions: { llm_calls: 7, prompt_tokens: 10_000, completion_tokens: 2_345 } }),
    ).toBe("7 model calls · 12,345 tokens");
    expect(usageText({ ...llm, predictions: { llm_calls: 1, prompt_tokens: 5, completion_tokens: 0 } })).toBe(
      "1 model call · 5 tokens",
    );
    expect(usageText({ ...llm, predictions: { llm_calls: 0 } })).toBeNull();
    expect(usageText({ ...llm, predictions: null })).toBeNull();
    // The offline planner counts stages as calls with no tokens: not model calls.
    expect(usageText({ planner: "offline", predictions: { llm_calls: 4 } })).toBeNull();
  });
});
