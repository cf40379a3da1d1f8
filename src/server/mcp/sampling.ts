import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { PlanningNext } from "../../shared/schemas/agent-planning";
import { AppError } from "../errors";
import { DATA_RULE } from "../lib/data-block";
import { readJsonAnswer } from "../lib/json-answer";
import { agentOperations, samplingOperations } from "../operations/agent";
import type { OperationContext } from "../operations/define";
import { invoke } from "../operations/invoke";
import { fieldLine } from "../operations/validation";
import { streamReady } from "./sampling-sessions";

/**
 * Planning a project with the client's own model, through MCP sampling (decision 029): the same steps a
 * coding agent takes with the planning tools (next step, answer, next step), but the server asks the
 * client's model for each answer with `sampling/createMessage`, in the model path's words (its system
 * prompt, the step's brief and the answer's schema), and a refused answer is asked for again with the
 * problems named, as the model path retries an unusable answer. If it stops (the client refuses, goes
 * away, or its answers stay unusable), the plan stays the agent's to finish with next_planning_step.
 */

/** Answers asked for per step, as the model path asks a model (OUTPUT_ATTEMPTS). */
const ATTEMPTS = 3;
/** How long the composition waits for the offline planner's composer to complete the plan. */
const COMPLETION_WAIT_MS = 30_000;
/** The step's brief carries the planning rules; the system prompt only says how to answer. */
const SAMPLING_SYSTEM = `You plan software projects for Atomize: break the work into concrete, independently testable engineering tasks, exactly as the request describes. Answer with one JSON object that matches the requested JSON Schema and nothing else: no prose, no code fences. ${DATA_RULE}`;
const MODEL_PREFERENCES = { intelligencePriority: 0.8, speedPriority: 0.4, costPriority: 0.3 };

type Step = Extract<PlanningNext, { done: false }>;

/**
 * How long one sampling request may take: a start, then the tokens asked for at a slow model's pace
 * (20 a second). 4,000 tokens wait up to 230 s and 8,000 up to 430 s, where the SDK's default of 60 s cut
 * a long answer off midway (issue 39).
 */
export const samplingTimeoutMs = (maxTokens: number) => 30_000 + maxTokens * 50;

/** How long a request waits for the client's stream to open before it is sent anyway. */
const STREAM_WAIT_MS = 10_000;

async function ask(mcp: McpServer, prompt: string, maxTokens: number): Promise<unknown> {
  await streamReady(mcp, STREAM_WAIT_MS);
  const result = await mcp.server.createMessage(
    {
      systemPrompt: SAMPLING_SYSTEM,
      messages: [{ role: "user", content: { type: "text", text: prompt } }],
      maxTokens,
      modelPreferences: MODEL_PREFERENCES,
    },
    { timeout: samplingTimeoutMs(maxTokens) },
  );
  const text = result.content.type === "text" ? result.content.text : "";
  const answer = readJsonAnswer(text);
  if (!answer.ok)
    throw new AppError("UNPROCESSABLE_CONTENT", `The answer is not usable JSON: ${answer.problem}`);
  return answer.value;
}

/** A refusal's words, to send back with the next request for the same answer. */
function problemsOf(err: unknown): string | null {
  if (!(err instanceof AppError) || err.status !== 422) return null;
  return [err.message, ...(err.fieldErrors ?? []).map(fieldLine)].join("\n");
}

async function answerStep(ctx: OperationContext, mcp: McpServer, step: Step): Promise<PlanningNext> {
  let refused = "";
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const prompt = `${step.brief}\n\nAnswer with one JSON object matching this JSON Schema:\n${JSON.stringify(step.schema)}${
      refused ? `\n\nYour previous answer was refused:\n${refused}` : ""
    }`;
    try {
      const value = (await ask(mcp, prompt, 4000)) as Record<string, unknown>;
      const done = (await invoke(agentOperations.submitSubtasks, ctx, {
        ...value,
        node_id: step.node_id,
      })) as {
        next: PlanningNext;
      };
      return done.next;
    } catch (err) {
      const problems = problemsOf(err);
      if (problems === null) throw err;
      refused = problems;
    }
  }
  throw new Error(`its answers for one task stayed unusable ${ATTEMPTS} times (${refused.split("\n")[0]})`);
}

/** Plans the project to the end with the client's model; on a stop, the plan stays open for the tools. */
export async function planWithSampling(ctx: OperationContext, mcp: McpServer, projectId: string) {
  try {
    let next = (await invoke(agentOperations.planningStep, ctx, { id: projectId })) as PlanningNext;
    while (!next.done) next = await answerStep(ctx, mcp, next);
    // The outline's composer completes the plan first; the client's model's composition then replaces it.
    const started = Date.now();
    while (next.done && next.status !== "completed" && Date.now() - started < COMPLETION_WAIT_MS) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      next = (await invoke(agentOperations.planningStep, ctx, { id: projectId })) as PlanningNext;
    }
    if (!next.done || next.status !== "completed") return;
    const prompt = `${next.composition.brief}\n\nAnswer with one JSON object matching this JSON Schema:\n${JSON.stringify(next.composition.schema)}`;
    const composition = (await ask(mcp, prompt, 8000)) as Record<string, unknown>;
    await invoke(agentOperations.submitComposition, ctx, { ...composition, id: projectId }).catch((err) => {
      // The outline's composition stays: a plan without the model's epics is still a complete plan.
      ctx.log.info("composition by the client's model not used", { projectId, reason: problemsOf(err) });
    });
  } catch (err) {
    const reason = (err instanceof Error ? err.message : String(err)).slice(0, 300);
    ctx.log.warn("planning with the client's model stopped", { projectId, reason });
    await invoke(samplingOperations.stopped, ctx, { id: projectId, reason }).catch(() => {});
  }
}
