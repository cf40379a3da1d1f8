import { OpenAIClient } from "@langchain/openai";
import { describe, expect, it } from "vitest";
import { readJsonAnswer } from "../../../lib/json-answer";
import { isReasoningModel, providerError } from "./model-planner";

const PLAN = { subtasks: [{ description: "Set up {the} repo", complexity_score: 3 }] };
const JSON_TEXT = JSON.stringify(PLAN, null, 2);

describe("readJsonAnswer", () => {
  it.each([
    ["bare JSON", JSON_TEXT],
    ["bare JSON with whitespace around", `\n  ${JSON_TEXT}  \n`],
    ["a ```json fence", `\`\`\`json\n${JSON_TEXT}\n\`\`\``],
    ["a ```JSON fence", `\`\`\`JSON\n${JSON_TEXT}\n\`\`\``],
    ["a bare ``` fence", `\`\`\`\n${JSON_TEXT}\n\`\`\``],
    ["a fence on one line", `\`\`\`${JSON.stringify(PLAN)}\`\`\``],
    ["a fence after prose", `Here you go:\n\`\`\`json\n${JSON_TEXT}\n\`\`\`\nAnything else?`],
    ["a leading <think> block", `<think>\nLet me plan. Maybe {"draft": 1}? No.\n</think>\n\n${JSON_TEXT}`],
    ["a <thinking> block and a fence", `<thinking>hmm</thinking>\n\`\`\`json\n${JSON_TEXT}\n\`\`\``],
    ["prose before and after", `Sure! Here is the plan:\n${JSON_TEXT}\nLet me know if you want changes.`],
    ["prose with braces that are not JSON", `Plan (as {JSON}): ${JSON_TEXT} -- {end}`],
    ["JSON encoded twice (a tool argument as a string)", JSON.stringify(JSON.stringify(PLAN))],
  ])("reads %s", (_what, text) => {
    expect(readJsonAnswer(text)).toEqual({ ok: true, value: PLAN });
  });

  it("respects strings: braces and escaped quotes inside them do not end the object", () => {
    const tricky = { a: 'say "}" and {', b: ["}", "{"], c: { d: "\\" } };
    expect(readJsonAnswer(`Result: ${JSON.stringify(tricky)} done`)).toEqual({ ok: true, value: tricky });
  });

  it("takes the first balanced object that parses, skipping a broken one", () => {
    expect(readJsonAnswer('First {"a": oops} then {"b": 2} and {"c": 3}')).toEqual({
      ok: true,
      value: { b: 2 },
    });
  });

  it.each([
    ["an empty answer", "", "the answer was empty"],
    ["only a <think> block", "<think>working on it</think>", "the answer was empty"],
    [
      "an unclosed <think> block",
      '<think>\nthe plan is {"a": 1',
      "the answer stopped inside its <think> block",
    ],
    ["prose only", "I cannot help with that.", "the answer contained no JSON object"],
    ["a JSON array", "[1, 2, 3]", "the answer contained no JSON object"],
    ["JSON cut in half", JSON_TEXT.slice(0, 30), "the answer contained no JSON object"],
  ])("explains %s", (_what, text, problem) => {
    expect(readJsonAnswer(text)).toEqual({ ok: false, problem });
  });
});

describe("providerError", () => {
  const stage = { label: "complexity analysis" };
  const headers = new Headers();
  const body = (message: string, code: string | null = null) => ({
    message,
    type: "invalid_request_error",
    param: null,
    code,
  });

  it.each([
    [
      new OpenAIClient.BadRequestError(
        400,
        body("Invalid schema for response_format 'x': In context=(), 'minLength' is not permitted."),
        undefined,
        headers,
      ),
      "The AI provider refused the request: Invalid schema for response_format 'x': In context=(), 'minLength' is not permitted. (HTTP 400, during complexity analysis).",
    ],
    [
      new OpenAIClient.AuthenticationError(
        401,
        body("Incorrect API key provided: sk-ab***cdef."),
        undefined,
        headers,
      ),
      "The AI provider refused the request: Incorrect API key provided: sk-ab***cdef. (HTTP 401, during complexity analysis). Check OPENAI_API_KEY.",
    ],
    [
      new OpenAIClient.PermissionDeniedError(
        403,
        body("Project does not have access to model x."),
        undefined,
        headers,
      ),
      "The AI provider refused the request: Project does not have access to model x. (HTTP 403, during complexity analysis). Check OPENAI_API_KEY.",
    ],
    [
      new OpenAIClient.NotFoundError(404, body("The model `x` does not exist."), undefined, headers),
      "The AI provider refused the request: The model `x` does not exist. (HTTP 404, during complexity analysis). Check LLM_MODEL and OPENAI_BASE_URL.",
    ],
    [
      new OpenAIClient.UnprocessableEntityError(422, body("'messages' is too short"), undefined, headers),
      "The AI provider refused the request: 'messages' is too short (HTTP 422, during complexity analysis).",
    ],
    [
      new OpenAIClient.RateLimitError(
        429,
        body("You exceeded your current quota.", "insufficient_quota"),
        undefined,
        headers,
      ),
      "The AI provider refused the request: You exceeded your current quota. (HTTP 429, during complexity analysis).",
    ],
    [
      // Not OpenAI's error shape (Ollama's native `{"error": "..."}`): the status alone.
      OpenAIClient.APIError.generate(404, { error: "model 'llama9' not found" }, undefined, headers),
      "The AI provider refused the request (HTTP 404, during complexity analysis). Check LLM_MODEL and OPENAI_BASE_URL.",
    ],
    [
      OpenAIClient.APIError.generate(400, undefined, undefined, headers),
      "The AI provider refused the request (HTTP 400, during complexity analysis).",
    ],
  ])("a refusal fails the task at once, in the provider's words (%#)", (err, message) => {
    const e = providerError(err, stage);
    expect(e.message).toBe(message);
    expect(e.permanent).toBe(true);
    expect(e.cause).toBe(err);
  });

  it.each([
    [
      new OpenAIClient.RateLimitError(429, body("Rate limit reached"), undefined, headers),
      "The AI provider is rate limiting us during complexity analysis.",
    ],
    [
      new OpenAIClient.InternalServerError(500, body("boom"), undefined, headers),
      "The AI provider failed (500) during complexity analysis.",
    ],
    [
      OpenAIClient.APIError.generate(503, undefined, undefined, headers),
      "The AI provider failed (503) during complexity analysis.",
    ],
    [
      OpenAIClient.APIError.generate(409, undefined, undefined, headers),
      "The AI provider failed (409) during complexity analysis.",
    ],
    [
      OpenAIClient.APIError.generate(408, undefined, undefined, headers),
      "The AI provider did not answer in time during complexity analysis.",
    ],
    [
      new OpenAIClient.APIConnectionTimeoutError(),
      "The AI provider did not answer in time during complexity analysis.",
    ],
    [
      new OpenAIClient.APIConnectionError({ message: "Connection error." }),
      "The AI provider could not be reached during complexity analysis.",
    ],
  ])("an outage stays retryable for the job queue (%#)", (err, message) => {
    const e = providerError(err, stage);
    expect(e.message).toBe(message);
    expect(e.permanent).toBe(false);
  });

  it("points to Settings, not to environment variables, for a provider saved there", () => {
    const key = new OpenAIClient.AuthenticationError(401, body("Bad key."), undefined, headers);
    expect(providerError(key, stage, "", "settings").message).toBe(
      "The AI provider refused the request: Bad key. (HTTP 401, during complexity analysis). Check the API key in Settings → AI model.",
    );
    const model = OpenAIClient.APIError.generate(404, { error: "model 'x' not found" }, undefined, headers);
    expect(providerError(model, stage, "", "settings").message).toMatch(
      /Check the model name and base URL in Settings → AI model\.$/,
    );
  });

  it("quotes nothing of an answer but the message of OpenAI's error shape", () => {
    const secret = "internal-service-secret-42";
    for (const err of [
      // A plain-text body (the SDK keeps it as the error's message).
      OpenAIClient.APIError.generate(404, undefined, `<html>${secret}</html>`, headers),
      // JSON in another shape.
      OpenAIClient.APIError.generate(403, { error: secret }, undefined, headers),
      OpenAIClient.APIError.generate(400, { detail: secret }, undefined, headers),
      OpenAIClient.APIError.generate(400, { error: { detail: secret } }, undefined, headers),
    ]) {
      const e = providerError(err, stage, "", "settings");
      expect(e.message).not.toContain(secret);
      expect(e.message).toMatch(
        /^The AI provider refused the request \(HTTP \d{3}, during complexity analysis\)\./,
      );
    }
    // A connection error's own words (which may name hosts and codes) are not passed on either.
    const refused = new OpenAIClient.APIConnectionError({
      message: "connect ECONNREFUSED 10.0.0.7:6379",
      cause: Object.assign(new Error("connect ECONNREFUSED 10.0.0.7:6379"), { code: "ECONNREFUSED" }),
    });
    expect(providerError(refused, stage).message).toBe(
      "The AI provider could not be reached during complexity analysis.",
    );
  });

  it("quotes at most 500 characters, on one line, and never our key", () => {
    const key = "sk-secret-0123456789abcdef";
    const long = new OpenAIClient.BadRequestError(
      400,
      body(`Bad key ${key}\n\n${"x".repeat(1000)}`),
      undefined,
      headers,
    );
    const e = providerError(long, stage, key);
    expect(e.message).not.toContain(key);
    expect(e.message).toContain("Bad key [redacted] xxx");
    expect(e.message).not.toContain("\n");
    expect(e.message).toMatch(/x\.\.\. \(HTTP 400, during complexity analysis\)\.$/);
    expect(e.message.length).toBeLessThan(600);
  });
});

describe("isReasoningModel", () => {
  it.each([
    ["o1", true],
    ["o3-mini", true],
    ["o4-mini-2025-04-16", true],
    ["gpt-5", true],
    ["gpt-5.1-mini", true],
    ["openai/gpt-5-nano", true],
    ["gpt-5-chat-latest", false],
    ["gpt-4o-mini", false],
    ["gpt-4.1", false],
    ["llama3.1:8b", false],
    ["qwen3:14b", false],
    ["deepseek-r1", false],
  ])("%s -> %s", (model, expected) => {
    expect(isReasoningModel(model)).toBe(expected);
  });
});
