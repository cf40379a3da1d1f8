/**
 * Drives the fake OpenAI server with the real `@langchain/openai` ChatOpenAI (and so the real
 * `openai` SDK), pinning both the fake's behaviour and how LangChain reacts to each failure.
 * Structured requests go out the way the planner sends them (the portable schema, `strict: true`,
 * validated with zod afterwards) unless a test needs the bounds of a full JSON schema, which it then
 * sends without `strict` (`loose`). The strict-mode rules themselves are pinned at the end.
 */
import type { AIMessage } from "@langchain/core/messages";
import { OutputParserException } from "@langchain/core/output_parsers";
import { ChatOpenAI } from "@langchain/openai";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { portableFormat } from "../../src/server/engine/planners/model/portable-schema";
import {
  complexityAssessment,
  eventModelPlan,
  plannedSubtask,
  projectContext,
  subtaskPlan,
} from "../../src/shared/schemas/plan";
import { type FakeOpenAI, STRICT_LIMITS, startFakeOpenAI, strictSchemaProblem } from "./openai";

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

type Method = (typeof METHODS)[number];

/** As the planner asks: the portable schema with `strict: true`; the answer is then checked with zod. */
function strict<S extends z.ZodType>(
  model: ChatOpenAI,
  schema: S,
  name: string,
  method: Method = "jsonSchema",
) {
  return model
    .withStructuredOutput(portableFormat(schema).schema, { name, method, strict: true })
    .pipe((value) => schema.parse(value));
}

/** The full JSON schema zod derives (bounds included), sent without `strict`; the answer checked with zod. */
function loose<S extends z.ZodType>(
  model: ChatOpenAI,
  schema: S,
  name: string,
  method: Method = "jsonSchema",
) {
  return model
    .withStructuredOutput(z.toJSONSchema(schema) as Record<string, unknown>, { name, method, strict: false })
    .pipe((value) => schema.parse(value));
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
  it.each(METHODS)("satisfies the real plan schemas, sent portable and strict, via %s", async (method) => {
    const schemas = { complexityAssessment, subtaskPlan, projectContext, eventModelPlan } as const;
    for (const [name, schema] of Object.entries(schemas)) {
      const result = await strict(chat(), schema, name, method).invoke(prompt(1));
      expect(() => schema.parse(result)).not.toThrow();
      const req = fake.requests.at(-1)!;
      expect(req.method).toBe(method === "jsonSchema" ? "json_schema" : "tools");
      expect(req.strict).toBe(true);
      expect(req.schemaName).toBe(name);
      expect(req.model).toBe("gpt-4o-mini");
    }
    expect(fake.requests).toHaveLength(4);
  });

  it.each(METHODS)("satisfies an inline zod schema with a literal union via %s", async (method) => {
    // Loose: the literal union stays an anyOf of consts (the portable schema turns it into an enum).
    const plan = await loose(chat(), inlinePlan, "plan", method).invoke(prompt(1));
    expect(fake.requests.at(-1)!.schema).toMatchObject({
      properties: { subtasks: { items: { properties: { story_points: { anyOf: expect.any(Array) } } } } },
    });
    expect(plan.subtasks).toHaveLength(3);
    const descriptions = plan.subtasks.map((s) => s.description);
    expect(new Set(descriptions).size).toBe(3);
    expect(descriptions[1]).toMatch(/^Subtask 2 at depth 1: [a-z]+ the [a-z]+ [a-z]+$/);
    for (const s of plan.subtasks) expect([1, 2, 3, 5, 8, 13]).toContain(s.story_points);
  });

  it("keeps references consistent in the composer outputs", async () => {
    const ctx = await strict(chat(), projectContext, "ctx").invoke(prompt(0));
    const epicIds = ctx.epics.map((e) => e.id);
    for (const story of ctx.user_stories) expect(epicIds).toContain(story.epic_id);
    expect(ctx.user_stories[0]!.priority).toBe("must_have");

    const em = await strict(chat(), eventModelPlan, "em").invoke(prompt(0));
    const eventNames = em.events.map((e) => e.name);
    for (const lane of em.swimlanes) for (const e of lane.events) expect(eventNames).toContain(e);
  });

  it("honours setPlanShape, the 'at most N subtasks' phrase and maxItems", async () => {
    const planner = loose(chat(), subtaskPlan, "plan");
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
    const planner = loose(chat(), subtaskPlan, "plan");
    const scores = async (depth: number) =>
      (await planner.invoke(prompt(depth))).subtasks.map((s) => s.complexity_score);
    expect(await scores(0)).toEqual([9, 8, 9]);
    expect(await scores(2)).toEqual([5, 4, 5]);
    expect(await scores(4)).toEqual([1, 1, 1]);
    fake.setPlanShape({ complexity: (depth, index) => 10 - depth - index });
    expect(await scores(1)).toEqual([9, 8, 7]);
    fake.setPlanShape({ complexity: () => 99 });
    expect(await scores(1)).toEqual([10, 10, 10]); // clamped to the schema's maximum
    const assessment = await loose(chat(), complexityAssessment, "score").invoke(prompt(3));
    expect(assessment.complexity_score).toBe(10);
  });

  it("uses the responder when it returns a value, the generator otherwise", async () => {
    const custom = {
      subtasks: [
        {
          description: "Custom",
          complexity_score: 2,
          story_points: 2,
          implementation_details: "Do it",
          acceptance_criteria: ["It is done", "It is tested"],
          requirement_ids: ["R1"],
          estimated_hours: 3,
        },
      ],
    };
    fake.setResponder((req) => (req.schemaName === "custom" ? custom : undefined));
    expect(await strict(chat(), subtaskPlan, "custom").invoke(prompt(1))).toEqual(custom);
    const generated = await strict(chat(), subtaskPlan, "plan").invoke(prompt(1));
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
    const planner = chat().withStructuredOutput(portableFormat(subtaskPlan).schema, {
      name: "plan",
      strict: true,
      includeRaw: true,
    });
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
    const planner = strict(chat(), subtaskPlan, "plan");
    const [, ms] = await timed(Promise.all([0, 1, 2, 3].map((d) => planner.invoke(prompt(d)))));
    expect(fake.maxInFlight).toBeGreaterThanOrEqual(3);
    expect(ms).toBeLessThan(380);
    expect(fake.inFlight()).toBe(0);
  });
});

describe("failure modes as seen through ChatOpenAI", () => {
  it("retries a 429 after Retry-After and succeeds (maxRetries: 2)", async () => {
    fake.setMode("rate_limit", { times: 1 });
    const [plan, ms] = await timed(strict(chat({ maxRetries: 2 }), subtaskPlan, "plan").invoke(prompt(1)));
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
      strict(chat({ maxRetries, apiKey }), subtaskPlan, "plan");

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
      rejection(strict(chat({ timeout: 500 }), subtaskPlan, "plan").invoke(prompt(1))),
    );
    expect(err.name).toBe("TimeoutError");
    expect(err.message).toBe("Request timed out.");
    expect(ms).toBeGreaterThanOrEqual(450);
    expect(ms).toBeLessThan(1_000);
    await vi.waitFor(() => expect(fake.inFlight()).toBe(0));
  });

  it("fails malformed and truncated answers inside the SDK call (jsonSchema), a schema violation in zod", async () => {
    // The SDK's parse() (which LangChain uses for json_schema) JSON.parses the content and refuses a
    // length stop itself: the reason the planner reads raw answers instead.
    const planner = strict(chat(), subtaskPlan, "plan", "jsonSchema");
    fake.setMode("malformed_json");
    const malformed = await rejection(planner.invoke(prompt(1)));
    expect(malformed).toBeInstanceOf(SyntaxError);
    fake.setMode("truncated");
    const truncated = await rejection(planner.invoke(prompt(1)));
    expect(truncated.constructor.name).toBe("LengthFinishReasonError");
    fake.setMode("fenced_json");
    const fenced = await rejection(planner.invoke(prompt(1)));
    expect(fenced).toBeInstanceOf(SyntaxError);
    fake.setMode("schema_violation");
    const violation = await rejection(planner.invoke(prompt(1)));
    expect(violation.name).toBe("ZodError");
    expect(violation.issues[0].path).toEqual(["subtasks"]);
    for (const e of [malformed, truncated, fenced, violation])
      expect(e).not.toBeInstanceOf(OutputParserException);
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
    fake.setMode("malformed_json", { times: 1 });
    const plan = await strict(chat({ maxRetries: 1 }), subtaskPlan, "plan", "jsonSchema").invoke(prompt(1));
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

describe("strict structured outputs, judged as OpenAI judges them", () => {
  const PLAN_SCHEMAS = {
    complexity_assessment: complexityAssessment,
    subtask: plannedSubtask,
    subtask_plan: subtaskPlan,
    project_context: projectContext,
    event_model: eventModelPlan,
  } as const;

  /** A chat request with a strict json_schema response format. */
  const strictBody = (schema: unknown, extra: Record<string, unknown> = {}) =>
    JSON.stringify({
      model: "gpt-4o-mini",
      messages: [{ role: "user", content: "x" }],
      response_format: { type: "json_schema", json_schema: { name: "probe", schema, strict: true } },
      ...extra,
    });
  const post = (body: string) => http("/chat/completions", { method: "POST", body });
  const obj = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    type: "object",
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
    ...extra,
  });

  it("refuses the zod-derived schema LangChain sends for plan.ts, with OpenAI's 400 (one request, no answer)", async () => {
    const e = await rejection(
      chat({ maxRetries: 2 }).withStructuredOutput(subtaskPlan, { name: "subtask_plan" }).invoke(prompt(1)),
    );
    expect(e.constructor.name).toBe("BadRequestError");
    expect(e.status).toBe(400);
    expect(e.error).toEqual({
      message:
        "Invalid schema for response_format 'subtask_plan': In context=('properties', 'subtasks'), 'minItems' is not permitted.",
      type: "invalid_request_error",
      param: "response_format",
      code: null,
    });
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]!.strict).toBe(true);
    expect(fake.usage.requests).toBe(0);

    // Every plan.ts schema as LangChain derives it is refused; its portable form is not.
    for (const [name, schema] of Object.entries(PLAN_SCHEMAS)) {
      const err = await rejection(chat().withStructuredOutput(schema, { name }).invoke(prompt(1)));
      expect(err.status, name).toBe(400);
      // A keyword strict mode refuses, or (for a subtask, whose range and dependencies are optional) a
      // property missing from `required`.
      expect(err.error.message, name).toMatch(
        new RegExp(
          `^Invalid schema for response_format '${name}': In context=\\(.*\\), ('\\w+' is not permitted|'required' is required to be supplied and to be an array including every key in properties\\. Missing '\\w+')\\.$`,
        ),
      );
      expect(strictSchemaProblem(portableFormat(schema).schema)).toBeNull();
      expect(strictSchemaProblem(portableFormat(schema).schema, "base-model")).toBeNull();
    }
  });

  it("under today's base-model rules bounds pass but string lengths are still refused", async () => {
    const baseModel = await startFakeOpenAI({ strictSchemaRules: "base-model" });
    try {
      const model = new ChatOpenAI({
        model: "gpt-4o-mini",
        apiKey: baseModel.apiKey,
        configuration: { baseURL: baseModel.url },
        maxRetries: 0,
      });
      const e = await rejection(
        model.withStructuredOutput(subtaskPlan, { name: "subtask_plan" }).invoke(prompt(1)),
      );
      expect(e.error.message).toBe(
        "Invalid schema for response_format 'subtask_plan': In context=('properties', 'subtasks', 'items'), 'required' is required to be supplied and to be an array including every key in properties. Missing 'estimate_low_hours'.",
      );
      const ctx = await rejection(
        model.withStructuredOutput(projectContext, { name: "project_context" }).invoke(prompt(1)),
      );
      expect(ctx.error.message).toBe(
        "Invalid schema for response_format 'project_context': In context=('properties', 'tech_stack', 'properties', 'frontend'), 'maxLength' is not permitted.",
      );
    } finally {
      await baseModel.close();
    }
  });

  it("refuses a strict function tool the same way, naming the function and the tool's place", async () => {
    const e = await rejection(
      chat()
        .withStructuredOutput(subtaskPlan, { name: "subtask_plan", method: "functionCalling", strict: true })
        .invoke(prompt(1)),
    );
    expect(e.status).toBe(400);
    expect(e.error).toEqual({
      message:
        "Invalid schema for function 'subtask_plan': In context=('properties', 'subtasks'), 'minItems' is not permitted.",
      type: "invalid_request_error",
      param: "tools[0].function.parameters",
      code: "invalid_function_parameters",
    });
    // Without strict the same schema is only a hint, as on OpenAI.
    const loosePlan = await chat()
      .withStructuredOutput(subtaskPlan, { name: "subtask_plan", method: "functionCalling" })
      .invoke(prompt(1));
    expect(loosePlan.subtasks).toHaveLength(3);
    expect(fake.requests.map((r) => r.strict)).toEqual([true, false]);
  });

  it.each([
    [
      "a root that is not an object",
      { type: "array", items: { type: "string" } },
      `schema must be a JSON Schema of 'type: "object"', got 'type: "array"'.`,
    ],
    [
      "a root union",
      { anyOf: [obj({ a: { type: "string" } })] },
      `schema must be a JSON Schema of 'type: "object"', got 'type: "None"'.`,
    ],
    [
      "a nested object without additionalProperties: false",
      obj({
        tags: {
          type: "array",
          items: { type: "object", properties: { t: { type: "string" } }, required: ["t"] },
        },
      }),
      "In context=('properties', 'tags', 'items'), 'additionalProperties' is required to be supplied and to be false.",
    ],
    [
      "additionalProperties: true at the root",
      obj({ a: { type: "string" } }, { additionalProperties: true }),
      "In context=(), 'additionalProperties' is required to be supplied and to be false.",
    ],
    [
      "a property missing from required",
      obj({ a: { type: "string" }, b: { type: "string" } }, { required: ["a"] }),
      "In context=(), 'required' is required to be supplied and to be an array including every key in properties. Missing 'b'.",
    ],
    [
      "no required at all",
      obj({ a: { type: "string" } }, { required: undefined }),
      "In context=(), 'required' is required to be supplied and to be an array including every key in properties. Missing 'a'.",
    ],
    [
      "a required key that is no property",
      obj({ a: { type: "string" } }, { required: ["a", "c"] }),
      "In context=(), 'required' is required to be supplied and to be an array including every key in properties. Extra required key 'c' supplied.",
    ],
    [
      "an enum without type",
      obj({ unit: { enum: ["F", "C"] } }),
      "In context=('properties', 'unit'), schema must have a 'type' key.",
    ],
    [
      "allOf",
      obj({ a: { allOf: [{ type: "string" }] } }),
      "In context=('properties', 'a'), 'allOf' is not permitted.",
    ],
    [
      "not",
      obj({ a: { type: "string", not: { const: "x" } } }),
      "In context=('properties', 'a'), 'not' is not permitted.",
    ],
    [
      "oneOf",
      obj({ a: { oneOf: [{ type: "string" }] } }),
      "In context=('properties', 'a'), 'oneOf' is not permitted.",
    ],
    [
      "default",
      obj({ a: { type: "string", default: "x" } }),
      "In context=('properties', 'a'), 'default' is not permitted.",
    ],
    [
      "minLength",
      obj({ a: { type: "string", minLength: 1 } }),
      "In context=('properties', 'a'), 'minLength' is not permitted.",
    ],
    [
      "maxLength",
      obj({ a: { type: "string", maxLength: 9 } }),
      "In context=('properties', 'a'), 'maxLength' is not permitted.",
    ],
    [
      "uniqueItems",
      obj({ tags: { type: "array", items: { type: "string" }, uniqueItems: true } }),
      "In context=('properties', 'tags'), 'uniqueItems' is not permitted.",
    ],
    [
      "a bound inside a union branch",
      obj({ n: { anyOf: [{ type: "integer", minimum: 1 }, { type: "null" }] } }),
      "In context=('properties', 'n', 'anyOf', '0'), 'minimum' is not permitted.",
    ],
    [
      "a nested $schema",
      obj({ a: { $schema: "https://json-schema.org/draft/2020-12/schema", type: "string" } }),
      "In context=('properties', 'a'), '$schema' is not permitted.",
    ],
  ])("refuses %s", async (_what, schema, problem) => {
    expect(strictSchemaProblem(schema)).toBe(problem);
    const res = await post(strictBody(schema));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: {
        message: `Invalid schema for response_format 'probe': ${problem}`,
        type: "invalid_request_error",
        param: "response_format",
        code: null,
      },
    });
    // The same schema without strict is answered.
    const lenient = await post(
      JSON.stringify({
        model: "gpt-4o-mini",
        messages: [{ role: "user", content: "x" }],
        response_format: { type: "json_schema", json_schema: { name: "probe", schema } },
      }),
    );
    expect(lenient.status).toBe(200);
  });

  it("accepts what the guide supports: unions with null, enums, const, $defs with $ref, titles, a root $schema", async () => {
    const schema = {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      title: "probe",
      ...obj({
        unit: { type: ["string", "null"], enum: ["F", "C", null], description: "The unit" },
        kind: { type: "string", const: "weather" },
        place: { anyOf: [{ $ref: "#/$defs/place" }, { type: "null" }] },
        readings: { type: "array", items: { type: "number" } },
      }),
      $defs: { place: obj({ name: { type: "string" }, lat: { type: "number" } }) },
    };
    expect(strictSchemaProblem(schema)).toBeNull();
    const res = await post(strictBody(schema));
    expect(res.status).toBe(200);
    const answer = JSON.parse((await res.json()).choices[0].message.content);
    expect(answer).toMatchObject({ unit: "F", kind: "weather", place: { name: expect.any(String) } });
  });

  it("applies the documented bounds list per rule set: refused for fine-tuned models, allowed for base models", () => {
    const bounded = obj({
      n: { type: "integer", minimum: 1, maximum: 10, multipleOf: 1 },
      x: { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 1 },
      s: { type: "string", pattern: "^[a-z]+$", format: "email" },
      list: { type: "array", items: { type: "string" }, minItems: 1, maxItems: 3 },
    });
    expect(strictSchemaProblem(bounded)).toBe("In context=('properties', 'n'), 'minimum' is not permitted.");
    expect(strictSchemaProblem(bounded, "base-model")).toBeNull();
  });

  it("enforces the documented size limits", async () => {
    const nested = (levels: number): Record<string, unknown> =>
      levels === 1 ? { type: "string" } : obj({ next: nested(levels - 1) });
    expect(strictSchemaProblem(nested(STRICT_LIMITS.nestingLevels))).toBeNull();
    expect(strictSchemaProblem(nested(11))).toBe("11 levels of nesting exceeds limit of 10.");
    // Arrays count as levels, union branches do not.
    expect(strictSchemaProblem(obj({ a: { type: "array", items: nested(9) } }))).toBe(
      "11 levels of nesting exceeds limit of 10.",
    );
    expect(strictSchemaProblem(obj({ a: { anyOf: [nested(9), { type: "null" }] } }))).toBeNull();

    const props = (n: number, width = 1) =>
      Object.fromEntries(
        Array.from({ length: n }, (_, i) => [`p${String(i).padStart(width, "0")}`, { type: "string" }]),
      );
    // Every property counts, the two holding the others included.
    expect(strictSchemaProblem(obj({ a: obj(props(2499)), b: obj(props(2499)) }))).toBeNull();
    expect(
      strictSchemaProblem(obj({ a: obj(props(2499)), b: obj(props(2499)), c: { type: "string" } })),
    ).toBe("5001 parameters exceeds limit of 5000.");

    const values = (n: number, chars = 3) =>
      Array.from({ length: n }, (_, i) => String(i).padStart(chars, "0"));
    expect(strictSchemaProblem(obj({ e: { type: "string", enum: values(1000) } }))).toBeNull();
    expect(
      strictSchemaProblem(
        obj({ e: { type: "string", enum: values(600) }, f: { type: "string", enum: values(401) } }),
      ),
    ).toBe("1001 enum values exceeds limit of 1000.");
    expect(strictSchemaProblem(obj({ e: { type: "string", enum: values(251, 59) } }))).toBeNull();
    expect(strictSchemaProblem(obj({ e: { type: "string", enum: values(251, 60) } }))).toBe(
      "In context=('properties', 'e'), 251 enum values with a total string length of 15060 exceeds limit of 15000.",
    );
    const longNames = obj(props(1000, 121));
    expect(strictSchemaProblem(longNames)).toBe(
      "Total string length of property names, definition names, enum values and const values (122000) exceeds limit of 120000.",
    );

    const res = await post(strictBody(nested(11)));
    expect(res.status).toBe(400);
    expect((await res.json()).error.message).toBe(
      "Invalid schema for response_format 'probe': 11 levels of nesting exceeds limit of 10.",
    );
  });

  it("refuses max_tokens and a custom temperature for reasoning models, like OpenAI", async () => {
    const body = (model: string, extra: Record<string, unknown>) =>
      JSON.stringify({ model, messages: [{ role: "user", content: "x" }], ...extra });
    const maxTokens = await post(body("gpt-5-mini", { max_tokens: 100 }));
    expect(maxTokens.status).toBe(400);
    expect((await maxTokens.json()).error).toEqual({
      message:
        "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
      type: "invalid_request_error",
      param: "max_tokens",
      code: "unsupported_parameter",
    });
    const temperature = await post(body("o3-mini", { max_completion_tokens: 100, temperature: 0.2 }));
    expect(temperature.status).toBe(400);
    expect((await temperature.json()).error).toMatchObject({
      message:
        "Unsupported value: 'temperature' does not support 0.2 with this model. Only the default (1) value is supported.",
      param: "temperature",
      code: "unsupported_value",
    });
    expect((await post(body("gpt-5-mini", { max_completion_tokens: 100 }))).status).toBe(200);
    expect((await post(body("gpt-4o-mini", { max_tokens: 100, temperature: 0.2 }))).status).toBe(200);
    expect(fake.requests.map((r) => r.maxTokens)).toEqual([100, 100, 100, 100]);
  });
});

describe("answers dressed like a local model's, and refusals", () => {
  const schema = portableFormat(subtaskPlan).schema;
  const ask = async (method: "json_schema" | "tools") => {
    const body =
      method === "json_schema"
        ? { response_format: { type: "json_schema", json_schema: { name: "plan", schema, strict: true } } }
        : {
            tools: [{ type: "function", function: { name: "plan", parameters: schema, strict: true } }],
            tool_choice: { type: "function", function: { name: "plan" } },
          };
    const res = await http("/chat/completions", {
      method: "POST",
      body: JSON.stringify({
        model: "m",
        messages: [{ role: "user", content: "Task: x\nDepth: 1 of at most 3" }],
        ...body,
      }),
    });
    expect(res.status).toBe(200);
    const message = (await res.json()).choices[0].message;
    return method === "json_schema"
      ? (message.content as string)
      : (message.tool_calls[0].function.arguments as string);
  };

  it.each(["json_schema", "tools"] as const)(
    "wraps the same valid JSON in fences, <think> and prose (%s)",
    async (method) => {
      const plain = await ask(method);
      expect(subtaskPlan.parse(JSON.parse(plain)).subtasks).toHaveLength(3);
      fake.setMode("fenced_json", { times: 1 });
      expect(await ask(method)).toBe(`\`\`\`json\n${plain}\n\`\`\``);
      fake.setMode("fenced", { times: 1 });
      expect(await ask(method)).toBe(`\`\`\`\n${plain}\n\`\`\``);
      fake.setMode("think", { times: 1 });
      const think = await ask(method);
      expect(think).toMatch(/^<think>\n[\s\S]*\{"draft": true\}[\s\S]*\n<\/think>\n\n/);
      expect(think.endsWith(plain)).toBe(true);
      fake.setMode("prose", { times: 1 });
      const prose = await ask(method);
      expect(prose).toMatch(/^Sure! Here is the plan you asked for \(as \{JSON\}\):\n\n/);
      expect(prose).toContain(`\n\n${plain}\n\n`);
      expect(() => JSON.parse(prose)).toThrow();
    },
  );

  it("refuses with OpenAI's bodies for an over-long prompt (400) and an unknown model (404)", async () => {
    const body = JSON.stringify({ model: "gpt-9", messages: [{ role: "user", content: "x" }] });
    fake.setMode("context_length_exceeded", { times: 1 });
    const long = await http("/chat/completions", { method: "POST", body });
    expect(long.status).toBe(400);
    expect((await long.json()).error).toEqual({
      message:
        "This model's maximum context length is 128000 tokens. However, your messages resulted in 131072 tokens. Please reduce the length of the messages.",
      type: "invalid_request_error",
      param: "messages",
      code: "context_length_exceeded",
    });
    fake.setMode("model_not_found", { times: 1 });
    const unknown = await http("/chat/completions", { method: "POST", body });
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error).toEqual({
      message: "The model `gpt-9` does not exist or you do not have access to it.",
      type: "invalid_request_error",
      param: null,
      code: "model_not_found",
    });
  });
});
