/**
 * `npm run eval -- --agent`: plans the corpus the way a coding agent does (decision 029), through the MCP
 * server's planning tools on a real test server with no model configured, and scores the plans like any
 * other planner's. The agent's model is an OpenAI-compatible endpoint: the strict fake by default
 * (tests/fakes/openai.ts), or EVAL_OPENAI_BASE_URL / EVAL_OPENAI_API_KEY / EVAL_MODEL. For each step the
 * model is sent the step's brief (what the agent sees) with the model path's system prompt and
 * structured-output schemas; an answer the server refuses is asked for again with the problems named.
 * It also measures what the loop costs an agent: tokens per step and steps per plan.
 */
import { performance } from "node:perf_hooks";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { eq } from "drizzle-orm";
import { getEncoding } from "js-tiktoken";
import type { z } from "zod";
import { users } from "../../src/server/db/schema/index";
import { portableFormat } from "../../src/server/engine/planners/model/portable-schema";
import { SYSTEM_PROMPT } from "../../src/server/engine/planners/model/prompts";
import { readJsonAnswer } from "../../src/server/lib/json-answer";
import { complexityAssessment, subtaskPlan } from "../../src/shared/schemas/plan";
import type { TaskTreeNode } from "../../src/shared/schemas/tasks";
import { waitForStatus } from "../support/decomposition";
import { registerUser, TestClient } from "../support/http-client";
import { callTool, connectMcp } from "../support/mcp-client";
import { startTestServer } from "../support/server";
import type { EvalCase } from "./case";
import { DEFAULT_DRIVER_OPTIONS, type PlanNode, type PlanRecord } from "./driver";
import type { Evaluation } from "./harness";
import { gateFailures, scorePlan, totals } from "./metrics";

export type AgentModel = { baseUrl: string; apiKey: string; model: string };

/** What planning through the tools cost: the size of each step an agent reads, and steps per plan. */
export type AgentLoopStats = { stepTokens: number[]; stepsPerPlan: number[]; refusals: number };

type Step = {
  done: boolean;
  node_id: string;
  depth: number;
  brief: string;
  schema: Record<string, unknown>;
};

const ATTEMPTS = 3;
const FORMATS = { split: portableFormat(subtaskPlan), assessment: portableFormat(complexityAssessment) };

/** One structured answer from the agent's model, in the model path's request shape. */
async function ask<S extends z.ZodType>(
  model: AgentModel,
  name: "subtask_plan" | "complexity_assessment",
  schema: S,
  prompt: string,
  usage: { calls: number; promptTokens: number; completionTokens: number },
): Promise<z.output<S>> {
  const format = name === "subtask_plan" ? FORMATS.split : FORMATS.assessment;
  const res = await fetch(`${model.baseUrl.replace(/\/$/, "")}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${model.apiKey}` },
    body: JSON.stringify({
      model: model.model,
      messages: [
        { role: "system", content: SYSTEM_PROMPT },
        { role: "user", content: prompt },
      ],
      max_tokens: 4000,
      temperature: 0.2,
      response_format: { type: "json_schema", json_schema: { name, schema: format.schema, strict: true } },
    }),
  });
  const body = (await res.json()) as {
    choices?: { message?: { content?: string } }[];
    usage?: { prompt_tokens?: number; completion_tokens?: number };
    error?: { message?: string };
  };
  usage.calls++;
  usage.promptTokens += body.usage?.prompt_tokens ?? 0;
  usage.completionTokens += body.usage?.completion_tokens ?? 0;
  if (!res.ok) throw new Error(`the model answered ${res.status}: ${body.error?.message ?? ""}`);
  const answer = readJsonAnswer(body.choices?.[0]?.message?.content ?? "");
  if (!answer.ok) throw new Error(`the model's answer is not JSON: ${answer.problem}`);
  const checked = schema.safeParse(format.toZodInput(answer.value));
  if (!checked.success) throw new Error(`the model's answer does not match ${name}`);
  return checked.data;
}

/** The tree as the API answers it, as the metrics read a plan. */
function recordOf(
  evalCase: EvalCase,
  tree: TaskTreeNode,
  wallMs: number,
  usage: PlanRecord["usage"],
): PlanRecord {
  const nodes: PlanNode[] = [];
  const visit = (n: TaskTreeNode) => {
    nodes.push({
      id: n.id,
      parentId: n.parent_id,
      depth: n.depth,
      position: n.position,
      description: n.description,
      title: (n.description.split("\n")[0] ?? "").trim(),
      implementation_details: n.implementation_details,
      complexity_score: n.complexity_score,
      story_points: n.story_points,
      isAtomic: n.is_atomic,
      acceptance_criteria: n.acceptance_criteria,
      requirement_ids: n.requirement_ids,
      estimated_hours: n.estimated_hours,
      depends_on: n.depends_on,
    });
    for (const c of n.children) visit(c);
  };
  visit(tree);
  const c = tree.context;
  const ts = c?.tech_stack as Record<string, string | undefined> | null | undefined;
  const context: PlanRecord["context"] = c
    ? ({
        tech_stack: {
          frontend: ts?.frontend ?? "",
          backend: ts?.backend ?? "",
          database: ts?.database ?? "",
          deployment: ts?.deployment ?? "",
          description: ts?.description ?? "",
        },
        best_practices: c.best_practices,
        epics: c.epics,
        user_stories: c.user_stories,
      } as unknown as PlanRecord["context"])
    : null;
  const m = tree.metadata;
  const metadata: PlanRecord["eventModel"] = m
    ? ({
        event_model_markdown: m.event_model_markdown,
        events: m.extracted_events,
        commands: m.commands,
        read_models: m.read_models,
        user_interactions: m.user_interactions,
        automations: m.automations,
        swimlanes: m.swimlanes,
        chapters: m.chapters,
      } as unknown as PlanRecord["eventModel"])
    : null;
  return {
    caseId: evalCase.id,
    planner: "agent",
    model: null,
    wallMs,
    usage,
    nodes,
    context,
    eventModel: metadata,
    error: null,
    workKind: tree.stated_scope?.planned_as.kind ?? null,
    nonGoals: tree.stated_scope?.non_goals ?? [],
  };
}

/** Plans one case to the end through the tools; the model answers every step. */
async function planCase(
  agent: Client,
  web: TestClient,
  model: AgentModel,
  evalCase: EvalCase,
  stats: AgentLoopStats,
  o200k: ReturnType<typeof getEncoding>,
): Promise<PlanRecord> {
  const started = performance.now();
  const usage = { calls: 0, promptTokens: 0, completionTokens: 0 };
  const made = await callTool<{ id: string; step: Step }>(agent, "create_project", {
    description: evalCase.description,
    planner: "agent",
    max_depth: DEFAULT_DRIVER_OPTIONS.maxDepth,
    ...(evalCase.additional_requirements
      ? { additional_requirements: evalCase.additional_requirements }
      : {}),
  });
  let step = made.step;
  let steps = 0;
  try {
    while (!step.done) {
      stats.stepTokens.push(o200k.encode(JSON.stringify(step)).length);
      steps++;
      let refused = "";
      for (let attempt = 1; ; attempt++) {
        const prompt = refused
          ? `${step.brief}\n\nYour previous answer was refused:\n${refused}`
          : step.brief;
        const split = await ask(model, "subtask_plan", subtaskPlan, prompt, usage);
        const assessment =
          step.depth === 0
            ? await ask(
                model,
                "complexity_assessment",
                complexityAssessment,
                `${step.brief}\n\nAssess the complexity of the whole project.`,
                usage,
              )
            : undefined;
        const res = (await agent.callTool({
          name: "submit_subtasks",
          arguments: {
            node_id: step.node_id,
            subtasks: split.subtasks,
            ...(assessment ? { assessment } : {}),
          },
        })) as { isError?: boolean; content: { text?: string }[] };
        const text = res.content.map((c) => c.text ?? "").join("");
        if (!res.isError) {
          step = (JSON.parse(text) as { next: Step }).next;
          break;
        }
        stats.refusals++;
        if (attempt >= ATTEMPTS) throw new Error(`refused ${ATTEMPTS} times: ${text.slice(0, 600)}`);
        refused = text;
      }
    }
    await waitForStatus(web, made.id, ["completed"], 60_000);
  } catch (err) {
    stats.stepsPerPlan.push(steps);
    const tree = (await web.get(`/api/tasks/${made.id}/tree`)).json as TaskTreeNode;
    return {
      ...recordOf(evalCase, tree, performance.now() - started, usage),
      error: `planning failed: ${err instanceof Error ? err.message : String(err)}`,
    };
  }
  stats.stepsPerPlan.push(steps);
  const tree = (await web.get(`/api/tasks/${made.id}/tree`)).json as TaskTreeNode;
  return recordOf(evalCase, tree, performance.now() - started, usage);
}

/** Plans every case through the planning tools on a fresh test server and scores the plans. */
export async function evaluateAgent(
  model: AgentModel,
  cases: readonly EvalCase[],
  options: { onCase?: (score: ReturnType<typeof scorePlan>) => void } = {},
): Promise<Evaluation & { agent: AgentLoopStats }> {
  const o200k = getEncoding("o200k_base");
  const server = await startTestServer({
    LOG_LEVEL: "silent",
    API_TOKEN_REQUESTS_PER_MINUTE: "100000",
    CHECK_OPERATION_OUTPUTS: "false",
  });
  const stats: AgentLoopStats = { stepTokens: [], stepsPerPlan: [], refusals: 0 };
  try {
    const web = new TestClient(server.url);
    const account = await registerUser(web);
    // Every case is a project of this one account.
    await server.deps.db
      .update(users)
      .set({ monthlyTaskLimit: 100_000 })
      .where(eq(users.id, account.user.id));
    const made = await web.post("/api/tokens", { name: "eval-agent", scope: "write", expires_in_days: 30 });
    if (made.status !== 201) throw new Error(`token: ${made.status} ${JSON.stringify(made.json)}`);
    const agent = await connectMcp(server.url, made.json.token as string);
    const records: PlanRecord[] = [];
    const scores: ReturnType<typeof scorePlan>[] = [];
    try {
      for (const evalCase of cases) {
        const record = await planCase(agent, web, model, evalCase, stats, o200k);
        const score = scorePlan(evalCase, record);
        records.push(record);
        scores.push(score);
        options.onCase?.(score);
      }
    } finally {
      await agent.close();
    }
    return {
      planner: "agent",
      model: model.model,
      records,
      scores,
      totals: totals(scores),
      failures: gateFailures(scores),
      agent: stats,
    };
  } finally {
    await server.stop();
  }
}

/** "tokens per step: median 1,150, max 1,740; steps per plan: median 9, max 23; 0 refusals" */
export function formatAgentStats(stats: AgentLoopStats): string {
  const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
  const median = (xs: number[]) => sorted(xs)[Math.floor(xs.length / 2)] ?? 0;
  const max = (xs: number[]) => sorted(xs).at(-1) ?? 0;
  const n = (v: number) => v.toLocaleString("en");
  return `Agent loop: tokens per step (o200k) median ${n(median(stats.stepTokens))}, max ${n(max(stats.stepTokens))}; steps per plan median ${n(median(stats.stepsPerPlan))}, max ${n(max(stats.stepsPerPlan))}; ${n(stats.refusals)} refused answers`;
}
