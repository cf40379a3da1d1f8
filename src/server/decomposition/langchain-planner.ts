import { ChatOpenAI } from "@langchain/openai";
import type { z } from "zod";
import { complexityAssessment, eventModelPlan, projectContext, subtaskPlan } from "../../shared/schemas/plan";
import type { Config } from "../config";
import type { Logger } from "../lib/logger";
import type { Planned, Planner, Usage } from "./planner";
import { PlannerError } from "./planner-error";
import { complexityPrompt, contextPrompt, eventModelPrompt, SYSTEM_PROMPT, splitPrompt } from "./prompts";

/** Attempts for a stage whose output is invalid or truncated before the task fails. */
const OUTPUT_ATTEMPTS = 3;

type Stage = { name: string; label: string };

/**
 * Output that could not be read as the stage's schema. With `jsonSchema` the SDK throws SyntaxError,
 * $ZodError or openai's LengthFinishReasonError (whose `.name` is plain "Error"); with
 * `functionCalling` LangChain throws an OutputParserException. All of them are worth another attempt.
 */
function isOutputError(err: unknown): boolean {
  const e = err as { name?: string; lc_error_code?: string; constructor?: { name?: string } };
  const kind = e?.constructor?.name;
  return (
    e?.lc_error_code === "OUTPUT_PARSING_FAILURE" ||
    ["OutputParserException", "ZodError", "$ZodError", "SyntaxError"].includes(e?.name ?? "") ||
    [
      "OutputParserException",
      "LengthFinishReasonError",
      "ContentFilterFinishReasonError",
      "SyntaxError",
    ].includes(kind ?? "")
  );
}

function providerError(err: unknown, stage: Stage): PlannerError {
  const e = err as { status?: number; name?: string; message?: string };
  if (e?.status === 401 || e?.status === 403) {
    return new PlannerError(
      `The AI provider refused our credentials (${e.status}) during ${stage.label}. Check OPENAI_API_KEY.`,
      true,
      { cause: err },
    );
  }
  if (e?.status === 404) {
    return new PlannerError(
      `The AI provider does not know the configured model during ${stage.label}. Check LLM_MODEL.`,
      true,
      { cause: err },
    );
  }
  if (e?.status === 429)
    return new PlannerError(`The AI provider is rate limiting us during ${stage.label}.`, false, {
      cause: err,
    });
  if ((e?.status ?? 0) >= 500)
    return new PlannerError(`The AI provider failed (${e.status}) during ${stage.label}.`, false, {
      cause: err,
    });
  if (e?.name?.includes("Timeout") || /timed? ?out/i.test(e?.message ?? "")) {
    return new PlannerError(`The AI provider did not answer in time during ${stage.label}.`, false, {
      cause: err,
    });
  }
  return new PlannerError(
    `The AI provider could not be reached during ${stage.label}: ${e?.message ?? "unknown error"}.`,
    false,
    { cause: err },
  );
}

/** Any OpenAI-compatible endpoint (OpenAI, Ollama, vLLM, LM Studio...) through @langchain/openai. */
export function createLangChainPlanner(config: Config, log: Logger): Planner {
  const model = new ChatOpenAI({
    model: config.LLM_MODEL,
    apiKey: config.OPENAI_API_KEY || "not-needed",
    configuration: config.OPENAI_BASE_URL ? { baseURL: config.OPENAI_BASE_URL } : undefined,
    timeout: config.LLM_TIMEOUT_MS,
    maxRetries: config.LLM_MAX_RETRIES,
    temperature: 0.2,
  });

  async function call<S extends z.ZodType>(
    stage: Stage,
    schema: S,
    prompt: string,
    signal?: AbortSignal,
  ): Promise<Planned<z.output<S>>> {
    const structured = model.withStructuredOutput(schema, {
      name: stage.name,
      method: config.LLM_STRUCTURED_OUTPUT,
      includeRaw: true,
    });
    const usage: Usage = { calls: 0, promptTokens: 0, completionTokens: 0 };
    let lastProblem = "";
    for (let attempt = 1; attempt <= OUTPUT_ATTEMPTS; attempt++) {
      usage.calls += 1;
      let result: {
        raw: {
          usage_metadata?: { input_tokens?: number; output_tokens?: number };
          response_metadata?: { finish_reason?: string };
        };
        parsed: unknown;
      };
      try {
        result = (await structured.invoke(
          [
            { role: "system", content: SYSTEM_PROMPT },
            { role: "user", content: prompt },
          ],
          { signal },
        )) as typeof result;
      } catch (err) {
        if (signal?.aborted) throw err;
        if (isOutputError(err)) {
          lastProblem = (err as Error).message.slice(0, 200);
          log.warn("model output invalid; retrying", { stage: stage.name, attempt });
          continue;
        }
        throw providerError(err, stage);
      }
      usage.promptTokens += result.raw.usage_metadata?.input_tokens ?? 0;
      usage.completionTokens += result.raw.usage_metadata?.output_tokens ?? 0;
      if (result.raw.response_metadata?.finish_reason === "length") {
        lastProblem = "the answer was cut off (finish_reason length)";
        log.warn("model output truncated; retrying", { stage: stage.name, attempt });
        continue;
      }
      const checked = schema.safeParse(result.parsed);
      if (checked.success) return { value: checked.data, usage };
      lastProblem = checked.error.issues[0]?.message ?? "schema mismatch";
      log.warn("model output failed validation; retrying", {
        stage: stage.name,
        attempt,
        problem: lastProblem,
      });
    }
    throw new PlannerError(
      `The AI model returned invalid output for ${stage.label} ${OUTPUT_ATTEMPTS} times (${lastProblem}). Try again, or use a more capable model.`,
      true,
    );
  }

  return {
    name: "langchain",
    model: config.LLM_MODEL,
    assessComplexity: (brief, signal) =>
      call(
        { name: "complexity_assessment", label: "complexity analysis" },
        complexityAssessment,
        complexityPrompt(brief),
        signal,
      ),
    async splitTask(request, signal) {
      const planned = await call(
        { name: "subtask_plan", label: request.depth === 0 ? "technical planning" : "task decomposition" },
        subtaskPlan,
        splitPrompt(request),
        signal,
      );
      return { value: planned.value.subtasks.slice(0, request.maxSubtasks), usage: planned.usage };
    },
    composeContext: (request, signal) =>
      call(
        { name: "project_context", label: "final composition (context)" },
        projectContext,
        contextPrompt(request),
        signal,
      ),
    composeEventModel: (request, signal) =>
      call(
        { name: "event_model", label: "final composition (event model)" },
        eventModelPlan,
        eventModelPrompt(request),
        signal,
      ),
  };
}
