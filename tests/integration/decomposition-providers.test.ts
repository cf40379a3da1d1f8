/**
 * The model path against a provider's real rules: the fake OpenAI server judges strict schemas as
 * OpenAI does (tests/fakes/openai.ts), refuses requests with OpenAI's own error bodies, and dresses
 * answers the way local servers do.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { portableFormat } from "../../src/server/engine/planners/model/portable-schema";
import {
  complexityAssessment,
  eventModelStructure,
  projectContext,
  subtaskPlan,
} from "../../src/shared/schemas/plan";
import { type FakeChatRequest, type FakeOpenAI, startFakeOpenAI, strictSchemaProblem } from "../fakes/openai";
import { flatten, type TreeNode, waitForStatus } from "../support/decomposition";
import { registerUser, TestClient } from "../support/http-client";
import { waitForJobsIdle } from "../support/jobs";
import { startTestServer, type TestServer } from "../support/server";

const SCHEMAS = {
  complexity_assessment: complexityAssessment,
  subtask_plan: subtaskPlan,
  project_context: projectContext,
  event_model: eventModelStructure,
} as const;
type StageName = keyof typeof SCHEMAS;
/** The planner's output caps (engine/planners/model/model-planner.ts), plus 8,000 for OpenAI's reasoning models. */
const CAPS: Record<StageName, number> = {
  complexity_assessment: 2000,
  subtask_plan: 4000,
  project_context: 6000,
  event_model: 6000,
};

let llm: FakeOpenAI;
const servers: Record<"jsonSchema" | "functionCalling" | "reasoning", TestServer> = {} as never;

beforeAll(async () => {
  llm = await startFakeOpenAI();
  const env = (extra: Record<string, string>) => ({
    OPENAI_API_KEY: llm.apiKey,
    OPENAI_BASE_URL: llm.url,
    LLM_MODEL: "fake-gpt",
    LLM_MAX_RETRIES: "2",
    LLM_TIMEOUT_MS: "5000",
    ...extra,
  });
  servers.jsonSchema = await startTestServer(env({}));
  servers.functionCalling = await startTestServer(env({ LLM_STRUCTURED_OUTPUT: "functionCalling" }));
  servers.reasoning = await startTestServer(env({ LLM_MODEL: "gpt-5-mini" }));
});
afterAll(async () => {
  for (const server of Object.values(servers)) await server?.stop();
  await llm?.close();
});
beforeEach(() => {
  llm.reset();
  llm.setPlanShape({ subtasks: 2, complexity: (depth) => (depth === 0 ? 9 : 3) });
});

async function decompose(server: TestServer, description: string) {
  const client = new TestClient(server.url);
  await registerUser(client);
  const created = await client.post("/api/tasks", { description, max_depth: 2, max_subtasks: 2 });
  expect(created.status).toBe(201);
  const task = await waitForStatus(client, created.json.id, ["completed", "failed"]);
  const tree = (await client.get(`/api/tasks/${created.json.id}/tree`)).json as TreeNode;
  return { task, nodes: flatten(tree), client };
}

function expectCompletePlan(result: Awaited<ReturnType<typeof decompose>>) {
  expect(result.task).toMatchObject({ status: "completed", failure_reason: null, planner: "langchain" });
  // 2 first-level tasks scored 9 (split), 2 children each scored 3 (atomic).
  expect(result.nodes).toHaveLength(1 + 2 + 4);
  expect(result.task.context.epics.length).toBeGreaterThan(0);
  expect(result.task.metadata.event_model_markdown).toBeTruthy();
}

/** What the planner sent: the portable schema of the stage, strict, and the stage's output cap. */
function expectStrictPortable(req: FakeChatRequest, method: "json_schema" | "tools", cap = 0) {
  const name = req.schemaName as StageName;
  expect(Object.keys(SCHEMAS)).toContain(name);
  expect(req.method).toBe(method);
  expect(req.strict).toBe(true);
  expect(req.schema).toEqual(portableFormat(SCHEMAS[name]).schema);
  expect(strictSchemaProblem(req.schema)).toBeNull();
  expect(req.maxTokens).toBe(CAPS[name] + cap);
}

describe("against OpenAI's strict structured-output rules", () => {
  it("completes a decomposition with response_format json_schema, strict, portable, capped", async () => {
    const result = await decompose(servers.jsonSchema, "A recipe sharing site with search and favourites");
    expectCompletePlan(result);
    expect(llm.requests).toHaveLength(1 + 1 + 2 + 2);
    for (const req of llm.requests) {
      expectStrictPortable(req, "json_schema");
      expect(req.body.response_format).toEqual({
        type: "json_schema",
        json_schema: { name: req.schemaName, schema: req.schema, strict: true },
      });
      expect(req.body).toMatchObject({ max_tokens: CAPS[req.schemaName as StageName], temperature: 0.2 });
    }
    expect(result.task.predictions).toEqual({
      llm_calls: 6,
      prompt_tokens: llm.usage.promptTokens,
      completion_tokens: llm.usage.completionTokens,
    });
    // What the planner used to send (zod's JSON schema, every bound in it) is what OpenAI refuses.
    expect(strictSchemaProblem(z.toJSONSchema(complexityAssessment))).toBe(
      "In context=('properties', 'complexity_score'), 'minimum' is not permitted.",
    );
  });

  it("completes a decomposition with a strict function tool (LLM_STRUCTURED_OUTPUT=functionCalling)", async () => {
    const result = await decompose(servers.functionCalling, "A library loans tracker");
    expectCompletePlan(result);
    for (const req of llm.requests) {
      expectStrictPortable(req, "tools");
      expect(req.body.tools).toEqual([
        { type: "function", function: { name: req.schemaName, parameters: req.schema, strict: true } },
      ]);
      expect(req.body.tool_choice).toEqual({ type: "function", function: { name: req.schemaName } });
      expect(req.body.response_format).toBeUndefined();
    }
  });

  it("sends a reasoning model max_completion_tokens and no temperature (the fake refuses the others)", async () => {
    const result = await decompose(servers.reasoning, "A kanban board for small teams");
    expectCompletePlan(result);
    for (const req of llm.requests) {
      expectStrictPortable(req, "json_schema", 8000);
      expect(req.body.max_tokens).toBeUndefined();
      expect(req.body.temperature).toBeUndefined();
      expect(req.model).toBe("gpt-5-mini");
    }
  });
});

describe("a provider that refuses the request", () => {
  it("fails the task with the provider's own 400 message after exactly one call", async () => {
    llm.setMode("context_length_exceeded");
    const { task, client } = await decompose(servers.jsonSchema, "An enormous project");
    expect(task.status).toBe("failed");
    expect(task.failure_reason).toBe(
      "The AI provider refused the request: This model's maximum context length is 128000 tokens. However, your messages resulted in 131072 tokens. Please reduce the length of the messages. (HTTP 400, during complexity analysis).",
    );
    // No SDK retry (the task failed after the call), no job retry (nothing of it is queued again).
    await waitForJobsIdle(servers.jsonSchema, task.id);
    expect(llm.requests).toHaveLength(1);
    const me = (await client.get("/api/auth/me")).json;
    const events = await servers.jsonSchema.deps.events.history({ userId: me.id, rootTaskId: task.id });
    expect(events.find((e) => e.type === "decomposition.error")?.message).toBe(task.failure_reason);
  });

  it("names the model setting on a 404, after one call", async () => {
    llm.setMode("model_not_found");
    const { task } = await decompose(servers.functionCalling, "Model gone");
    expect(task.failure_reason).toBe(
      "The AI provider refused the request: The model `fake-gpt` does not exist or you do not have access to it. (HTTP 404, during complexity analysis). Check LLM_MODEL and OPENAI_BASE_URL.",
    );
    expect(llm.requests).toHaveLength(1);
  });

  it("still rides out an outage: a 500 is retried by the SDK and the plan completes", async () => {
    llm.setMode("server_error", { times: 2 });
    const result = await decompose(servers.jsonSchema, "Flaky provider");
    expectCompletePlan(result);
    expect(llm.requests).toHaveLength(2 + 6);
  });
});

describe("answers wrapped the way local models wrap them", () => {
  it.each(["fenced_json", "fenced", "think", "prose"] as const)(
    "%s: every stage is read and the plan completes",
    async (mode) => {
      llm.setMode(mode);
      const result = await decompose(servers.jsonSchema, `Wrapped answers: ${mode}`);
      expectCompletePlan(result);
      expect(llm.requests).toHaveLength(6); // no retries: each wrapped answer was read the first time
      expect(result.task.predictions).toMatchObject({
        llm_calls: 6,
        completion_tokens: llm.usage.completionTokens,
      });
    },
  );

  it("reads wrapped tool arguments too", async () => {
    llm.setMode("think");
    const result = await decompose(servers.functionCalling, "Wrapped tool calls");
    expectCompletePlan(result);
    expect(llm.requests).toHaveLength(6);
  });

  it("retries an answer cut off at the output cap, then fails with the cap in the reason", async () => {
    llm.setMode("truncated");
    const { task } = await decompose(servers.jsonSchema, "Too long an answer");
    expect(task.failure_reason).toBe(
      "The AI model returned invalid output for complexity analysis 3 times (the answer was cut off at the 2000-token output cap (finish_reason length)). Try again, or use a more capable model.",
    );
    expect(llm.requests).toHaveLength(3);
  });
});
