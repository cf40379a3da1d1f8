/**
 * Drives the fake OpenAI server with the real `@langchain/openai` ChatOpenAI (and so the real
 * `openai` SDK), pinning both the fake's behaviour and how LangChain reacts to each failure.
 */
import type { AIMessage } from "@langchain/core/messages";
import { OutputParserException } from "@langchain/core/output_parsers";
import { ChatOpenAI } from "@langchain/openai";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import {
  complexityAssessment,
  eventModelPlan,
  projectContext,
  subtaskPlan,
} from "../../src/shared/schemas/plan";
import { type FakeOpenAI, startFakeOpenAI } from "./openai";

const inlinePlan = z.object({
  subtasks: z
    .array(
      z.object({
        description: z.string().min(1).max(2000),
        complexity_score: z.number().int().min(1).max(10),
        story_points: z.union([
          z.literal(1),
          z.literal(2),
          z.literal(3),
          z.literal(5),
          z.literal(8),
          z.literal(13),
        ]),
        implementation_details: z.string().min(1),
      }),
    )
    .min(1)
    .max(10),
});

const METHODS = ["jsonSchema", "functionCalling"] as const;
const TASK = "Build a collaborative todo app with offline sync and sharing";

let fake: FakeOpenAI;

beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterEach(() => {
  fake.reset();
  vi.restoreAllMocks();
});
afterAll(async () => {
  await fake.close();
});

function chat(opts: { maxRetries?: number; timeout?: number; apiKey?: string } = {}): ChatOpenAI {
  return new ChatOpenAI({
    model: "gpt-4o-mini",
    apiKey: opts.apiKey ?? fake.apiKey,
    configuration: { baseURL: fake.url },
    timeout: opts.timeout ?? 5_000,
    maxRetries: opts.maxRetries ?? 0,
  });
}

const prompt = (depth: number, extra = ""): [string, string][] => [
  ["system", "You split software tasks into subtasks."],
  ["human", `Task: ${TASK}\nDepth: ${depth} of at most 4\n${extra}`],
];

async function rejection(p: Promise<unknown>): Promise<any> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error("expected the call to reject");
}

async function timed<T>(p: Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const value = await p;
  return [value, performance.now() - t0];
}

const http = (path: string, init: RequestInit = {}) =>
  fetch(`${fake.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${fake.apiKey}`, "content-type": "application/json", ...init.headers },
  });

describe("default generator", () => {
  it.each(METHODS)("satisfies the real plan schemas via %s", async (method) => {
    const schemas = { complexityAssessment, subtaskPlan, projectContext, eventModelPlan } as const;
    for (const [name, schema] of Object.entries(schemas)) {
      const result = await chat().withStructuredOutput(schema, { name, method }).invoke(prompt(1));
      expect(() => schema.parse(result)).not.toThrow();
      const req = fake.requests.at(-1)!;
      expect(req.method).toBe(method === "jsonSchema" ? "json_schema" : "tools");
      expect(req.schemaName).toBe(name);
      expect(req.model).toBe("gpt-4o-mini");
    }
    expect(fake.requests).toHaveLength(4);
  });

  it.each(METHODS)("satisfies an inline zod schema with a literal union via %s", async (method) => {
    const plan = await chat().withStructuredOutput(inlinePlan, { name: "plan", method }).invoke(prompt(1));
    expect(plan.subtasks).toHaveLength(3);
    const descriptions = plan.subtasks.map((s) => s.description);
    expect(new Set(descriptions).size).toBe(3);
    expect(descriptions[1]).toBe(`Subtask 2 at depth 1 of: ${TASK.slice(0, 40).trim()}`);
    for (const s of plan.subtasks) expect([1, 2, 3, 5, 8, 13]).toContain(s.story_points);
  });

  it("keeps references consistent in the composer outputs", async () => {
    const ctx = await chat().withStructuredOutput(projectContext, { name: "ctx" }).invoke(prompt(0));
    const epicIds = ctx.epics.map((e) => e.id);
    for (const story of ctx.user_stories) expect(epicIds).toContain(story.epic_id);
    expect(ctx.user_stories[0]!.priority).toBe("must_have");

    const em = await chat().withStructuredOutput(eventModelPlan, { name: "em" }).invoke(prompt(0));
    const eventNames = em.events.map((e) => e.name);
    for (const lane of em.swimlanes) for (const e of lane.events) expect(eventNames).toContain(e);
  });

  it("honours setPlanShape, the 'at most N subtasks' phrase and maxItems", async () => {
    const planner = chat().withStructuredOutput(subtaskPlan, { name: "plan" });
    fake.setPlanShape({ subtasks: 5 });
    expect((await planner.invoke(prompt(1))).subtasks).toHaveLength(5);
    expect((await planner.invoke(prompt(1, "Propose at most 2 subtasks."))).subtasks).toHaveLength(2);
    fake.setPlanShape({ subtasks: 50 });
    expect((await planner.invoke(prompt(1))).subtasks).toHaveLength(10); // schema maxItems
    fake.setPlanShape({ subtasks: (depth) => 4 - depth });
    expect((await planner.invoke(prompt(0))).subtasks).toHaveLength(4);
    expect((await planner.invoke(prompt(2))).subtasks).toHaveLength(2);
    expect((await planner.invoke(prompt(4))).subtasks).toHaveLength(1); // schema minItems
  });

  it("derives complexity from the depth line", async () => {
    const planner = chat().withStructuredOutput(subtaskPlan, { name: "plan" });
    const scores = async (depth: number) =>
      (await planner.invoke(prompt(depth))).subtasks.map((s) => s.complexity_score);
    expect(await scores(0)).toEqual([9, 8, 9]);
    expect(await scores(2)).toEqual([5, 4, 5]);
    expect(await scores(4)).toEqual([1, 1, 1]);
    fake.setPlanShape({ complexity: (depth, index) => 10 - depth - index });
    expect(await scores(1)).toEqual([9, 8, 7]);
    fake.setPlanShape({ complexity: () => 99 });
    expect(await scores(1)).toEqual([10, 10, 10]); // clamped to the schema's maximum
    const assessment = await chat()
      .withStructuredOutput(complexityAssessment, { name: "score" })
      .invoke(prompt(3));
    expect(assessment.complexity_score).toBe(10);
  });

  it("uses the responder when it returns a value, the generator otherwise", async () => {
    const custom = {
      subtasks: [
        { description: "Custom", complexity_score: 2, story_points: 2, implementation_details: "Do it" },
      ],
    };
    fake.setResponder((req) => (req.schemaName === "custom" ? custom : undefined));
    expect(await chat().withStructuredOutput(subtaskPlan, { name: "custom" }).invoke(prompt(1))).toEqual(
      custom,
    );
    const generated = await chat().withStructuredOutput(subtaskPlan, { name: "plan" }).invoke(prompt(1));
    expect(generated.subtasks).toHaveLength(3);
  });

  it("answers plain chat with text", async () => {
    const reply = await chat().invoke("Say hello");
    expect(reply.content).toBe("Fake answer to: Say hello");
    expect(fake.requests[0]!.method).toBe("plain");
    expect(fake.requests[0]!.schema).toBeNull();
  });
});

describe("usage, latency and concurrency", () => {
  it("accounts tokens as ceil(chars/4) and sums them", async () => {
    const planner = chat().withStructuredOutput(subtaskPlan, { name: "plan", includeRaw: true });
    let prompt_ = 0;
    let completion = 0;
    for (const depth of [0, 1, 2]) {
      const { raw } = await planner.invoke(prompt(depth));
      const meta = (raw as AIMessage).usage_metadata!;
      expect(meta.total_tokens).toBe(meta.input_tokens + meta.output_tokens);
      const req = fake.requests.at(-1)!;
      expect(meta.input_tokens).toBe(Math.ceil(req.messages.reduce((n, m) => n + m.content.length, 0) / 4));
      expect(meta.output_tokens).toBe(Math.ceil(String((raw as AIMessage).content).length / 4));
      prompt_ += meta.input_tokens;
      completion += meta.output_tokens;
    }
    expect(fake.usage).toEqual({ requests: 3, promptTokens: prompt_, completionTokens: completion });
  });

  it("applies latency to every answer", async () => {
    fake.setLatency(250);
    const [, ms] = await timed(chat().invoke("hi"));
    expect(ms).toBeGreaterThanOrEqual(240);
  });

  it("measures concurrency", async () => {
    fake.setLatency(100);
    const planner = chat().withStructuredOutput(subtaskPlan, { name: "plan" });
    const [, ms] = await timed(Promise.all([0, 1, 2, 3].map((d) => planner.invoke(prompt(d)))));
    expect(fake.maxInFlight).toBeGreaterThanOrEqual(3);
    expect(ms).toBeLessThan(380);
    expect(fake.inFlight()).toBe(0);
  });
});

describe("failure modes as seen through ChatOpenAI", () => {
  it("retries a 429 after Retry-After and succeeds (maxRetries: 2)", async () => {
    fake.setMode("rate_limit", { times: 1 });
    const [plan, ms] = await timed(
      chat({ maxRetries: 2 }).withStructuredOutput(subtaskPlan, { name: "plan" }).invoke(prompt(1)),
    );
    expect(plan.subtasks).toHaveLength(3);
    expect(fake.requests).toHaveLength(2);
    expect(ms).toBeGreaterThanOrEqual(950); // retry-after: 1
  });

  it("retries a 500 and succeeds (maxRetries: 2)", async () => {
    fake.setMode("server_error", { times: 1 });
    const plan = await chat({ maxRetries: 2 })
      .withStructuredOutput(subtaskPlan, { name: "plan", method: "functionCalling" })
      .invoke(prompt(1));
    expect(plan.subtasks).toHaveLength(3);
    expect(fake.requests).toHaveLength(2);
  });

  it("surfaces 429, 500 and 401 with maxRetries: 0 (and never retries a 401)", async () => {
    const planner = (maxRetries: number, apiKey?: string) =>
      chat({ maxRetries, apiKey }).withStructuredOutput(subtaskPlan, { name: "plan" });

    fake.setMode("rate_limit");
    const e429 = await rejection(planner(0).invoke(prompt(1)));
    expect(e429.constructor.name).toBe("RateLimitError");
    expect(e429).toMatchObject({
      status: 429,
      code: "rate_limit_exceeded",
      type: "requests",
      lc_error_code: "MODEL_RATE_LIMIT",
      retryAfterMs: 1000,
    });
    expect(e429.headers.get("retry-after")).toBe("1");
    expect(e429.headers.get("x-ratelimit-remaining-requests")).toBe("0");

    fake.setMode("server_error");
    const e500 = await rejection(planner(0).invoke(prompt(1)));
    expect(e500.constructor.name).toBe("InternalServerError");
    expect(e500).toMatchObject({ status: 500, type: "server_error", code: null });
    expect(e500.lc_error_code).toBeUndefined();

    fake.setMode("unauthorized");
    const e401 = await rejection(planner(2).invoke(prompt(1)));
    expect(e401.constructor.name).toBe("AuthenticationError");
    expect(e401).toMatchObject({
      status: 401,
      code: "invalid_api_key",
      lc_error_code: "MODEL_AUTHENTICATION",
    });
    expect(fake.requests).toHaveLength(3); // one each: no retries

    fake.setMode("ok");
    const wrongKey = await rejection(planner(2, "sk-wrong-key-123456").invoke(prompt(1)));
    expect(wrongKey).toMatchObject({ status: 401, code: "invalid_api_key" });
    expect(wrongKey.message).toContain("Incorrect API key provided: sk-");
    expect(fake.requests).toHaveLength(4);
  });

  it("times out a request the server never answers", async () => {
    fake.setMode("timeout");
    const [err, ms] = await timed(
      rejection(chat({ timeout: 500 }).withStructuredOutput(subtaskPlan, { name: "plan" }).invoke(prompt(1))),
    );
    expect(err.name).toBe("TimeoutError");
    expect(err.message).toBe("Request timed out.");
    expect(ms).toBeGreaterThanOrEqual(450);
    expect(ms).toBeLessThan(1_000);
    await vi.waitFor(() => expect(fake.inFlight()).toBe(0));
  });

  it("fails malformed, truncated and schema-violating answers (jsonSchema: inside the SDK call)", async () => {
    const planner = chat().withStructuredOutput(subtaskPlan, { name: "plan", method: "jsonSchema" });
    fake.setMode("malformed_json");
    const malformed = await rejection(planner.invoke(prompt(1)));
    expect(malformed).toBeInstanceOf(SyntaxError);
    fake.setMode("truncated");
    const truncated = await rejection(planner.invoke(prompt(1)));
    expect(truncated.constructor.name).toBe("LengthFinishReasonError");
    fake.setMode("schema_violation");
    const violation = await rejection(planner.invoke(prompt(1)));
    expect(violation.name).toBe("$ZodError");
    expect(violation.issues[0].path).toEqual(["subtasks"]);
    for (const e of [malformed, truncated, violation]) expect(e).not.toBeInstanceOf(OutputParserException);
  });

  it("fails malformed, truncated and schema-violating answers (functionCalling: OutputParserException)", async () => {
    // LangChain warns about invalid tool calls on console.warn; keep the output clean.
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const planner = chat({ maxRetries: 2 }).withStructuredOutput(subtaskPlan, {
      name: "plan",
      method: "functionCalling",
    });
    for (const mode of ["malformed_json", "truncated", "schema_violation"] as const) {
      fake.setMode(mode);
      const err = await rejection(planner.invoke(prompt(1)));
      expect(err).toBeInstanceOf(OutputParserException);
      expect(err.lc_error_code).toBe("OUTPUT_PARSING_FAILURE");
    }
    expect(fake.requests).toHaveLength(3); // parsing happens outside the retry loop
  });

  it("retries jsonSchema parse failures inside ChatOpenAI's own retry loop", async () => {
    fake.setMode("schema_violation", { times: 1 });
    const plan = await chat({ maxRetries: 1 })
      .withStructuredOutput(subtaskPlan, { name: "plan", method: "jsonSchema" })
      .invoke(prompt(1));
    expect(plan.subtasks).toHaveLength(3);
    expect(fake.requests).toHaveLength(2);
  });
});

describe("raw HTTP surface", () => {
  it("lists models and rejects missing keys, bad JSON, streaming and unknown paths like OpenAI", async () => {
    await chat().invoke("hi");
    const models = await (await http("/models")).json();
    expect(models.object).toBe("list");
    expect(models.data.map((m: { id: string }) => m.id)).toEqual(["gpt-4o-mini", "fake-gpt"]);

    const noKey = await fetch(`${fake.url}/chat/completions`, { method: "POST", body: "{}" });
    expect(noKey.status).toBe(401);
    expect((await noKey.json()).error).toMatchObject({ type: "invalid_request_error", code: null });

    const badJson = await http("/chat/completions", { method: "POST", body: "{nope" });
    expect(badJson.status).toBe(400);
    expect((await badJson.json()).error.message).toMatch(/could not parse the JSON body/);

    const stream = await http("/chat/completions", {
      method: "POST",
      body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "x" }], stream: true }),
    });
    expect(stream.status).toBe(400);
    expect(await stream.json()).toEqual({
      error: {
        message: "streaming not supported by the fake",
        type: "invalid_request_error",
        param: "stream",
        code: null,
      },
    });

    const unknown = await http("/embeddings", { method: "POST", body: "{}" });
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error.message).toBe("Invalid URL (POST /v1/embeddings)");
  });

  it("applies a mode to the next N requests only", async () => {
    fake.setMode("rate_limit", { times: 2 });
    const body = JSON.stringify({ model: "m", messages: [{ role: "user", content: "x" }] });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await http("/chat/completions", { method: "POST", body });
      statuses.push(res.status);
      if (res.status === 429) {
        expect(res.headers.get("retry-after")).toBe("1");
        expect(res.headers.get("x-ratelimit-limit-requests")).toBeTruthy();
        expect((await res.json()).error).toMatchObject({
          type: "requests",
          param: null,
          code: "rate_limit_exceeded",
        });
      } else {
        const completion = await res.json();
        expect(completion).toMatchObject({ object: "chat.completion", model: "m" });
        expect(completion.id).toMatch(/^chatcmpl-/);
        expect(completion.choices[0]).toMatchObject({ index: 0, finish_reason: "stop", logprobs: null });
      }
    }
    expect(statuses).toEqual([429, 429, 200]);
    expect(fake.usage.requests).toBe(1);
  });

  it("close() destroys held sockets so nothing hangs", async () => {
    const other = await startFakeOpenAI({ apiKey: "sk-other" });
    other.setMode("timeout");
    const pending = fetch(`${other.url}/chat/completions`, {
      method: "POST",
      headers: { authorization: "Bearer sk-other" },
      body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "x" }] }),
    });
    await vi.waitFor(() => expect(other.inFlight()).toBe(1));
    const [, ms] = await timed(other.close());
    expect(ms).toBeLessThan(500);
    await expect(pending).rejects.toThrow();
  });
});
