import type { OpenAIClient } from "@langchain/openai";
import type { z } from "zod";
import {
  complexityAssessment,
  eventModelStructure,
  projectContext,
  subtaskPlan,
} from "../../../../shared/schemas/plan";
import type { Config } from "../../../config";
import { isRecord, type JsonAnswer, readJsonAnswer } from "../../../lib/json-answer";
import type { Logger } from "../../../lib/logger";
import { issueInWords } from "../../failure-reason";
import type { Planned, Planner, Usage } from "../contract";
import { PlannerError } from "../errors";
import { renderEventModelMarkdown } from "../event-model-markdown";
import { type CallGate, ungated } from "./call-limit";
import { type PortableFormat, portableFormat } from "./portable-schema";
import { complexityPrompt, contextPrompt, eventModelPrompt, SYSTEM_PROMPT, splitPrompt } from "./prompts";
import { ProviderResponseTooLarge } from "./provider-fetch";

/** Attempts for a stage whose output is invalid or truncated before the task fails. */
const OUTPUT_ATTEMPTS = 3;

/**
 * Output cap per stage, in tokens: enough for the largest answer the prompts ask for, small enough that a
 * model rambling (or a local model thinking aloud) stops at a bounded cost and fits small context windows.
 */
const OUTPUT_CAPS = {
  complexity_assessment: 2_000,
  subtask_plan: 4_000,
  project_context: 6_000,
  event_model: 6_000,
} as const;
/** OpenAI's reasoning models spend hidden reasoning tokens from the same cap before they answer. */
const REASONING_HEADROOM = 8_000;
/** How much of a provider's error message a failure reason quotes. */
const PROVIDER_MESSAGE_CHARS = 500;

type StageName = keyof typeof OUTPUT_CAPS;
type Stage = { name: StageName; label: string };

type ChatRequest = OpenAIClient.Chat.ChatCompletionCreateParamsNonStreaming;
type ChatCompletion = OpenAIClient.Chat.ChatCompletion;

/**
 * OpenAI's reasoning models (o-series, gpt-5 and later except the -chat ones) take `max_completion_tokens`
 * and refuse `max_tokens` and any temperature but the default; the same test as @langchain/openai's.
 */
export function isReasoningModel(model: string): boolean {
  const name = (model.split("/").pop() ?? model).toLowerCase();
  return /^o\d/.test(name) || (/^gpt-([5-9]|\d{2})/.test(name) && !/^gpt-[\d.]+-chat/.test(name));
}

// ---------------------------------------------------------------------------------------------
// Reading an answer
// ---------------------------------------------------------------------------------------------

/** The JSON of one completion, or why there is none worth validating. */
function readCompletion(completion: ChatCompletion, cap: number): JsonAnswer {
  const choice = completion.choices?.[0];
  if (!choice) return { ok: false, problem: "the answer had no choices" };
  if (choice.finish_reason === "length")
    return {
      ok: false,
      problem: `the answer was cut off at the ${cap}-token output cap (finish_reason length)`,
    };
  if (choice.finish_reason === "content_filter")
    return { ok: false, problem: "the provider's content filter stopped the answer" };
  const message = choice.message;
  if (message.refusal) return { ok: false, problem: `the model refused: ${message.refusal.slice(0, 200)}` };
  // A server that ignores tool_choice answers in `content`; read whichever holds the answer.
  const call = message.tool_calls?.find((t) => t.type === "function");
  return readJsonAnswer(call?.function.arguments || message.content || "");
}

// ---------------------------------------------------------------------------------------------
// Provider errors
// ---------------------------------------------------------------------------------------------

/**
 * The provider's own words from an SDK error: the `error.message` of a JSON answer in OpenAI's error shape
 * (`{"error": {"message": ...}}`), trimmed, on one line, without our key should it be echoed. Nothing else
 * of an answer is ever quoted (a base URL may point at a service that is not a model provider, and its
 * body is not ours to show: docs/decisions/007, "Outbound requests"); null when there is no such message.
 */
export function providerMessage(err: unknown, apiKey: string): string | null {
  const e = err as { error?: unknown };
  if (!isRecord(e.error) || typeof e.error.message !== "string") return null;
  let text = e.error.message.replace(/\s+/g, " ").trim();
  if (!text) return null;
  if (apiKey.length >= 8) text = text.split(apiKey).join("[redacted]");
  return text.length > PROVIDER_MESSAGE_CHARS ? `${text.slice(0, PROVIDER_MESSAGE_CHARS)}...` : text;
}

/** The short reason a request got no answer: its answer was too large, or nothing could be reached. */
export function unreachableReason(err: unknown): string | null {
  for (let e: unknown = err, i = 0; e && i < 6; e = (e as { cause?: unknown }).cause, i++)
    if (e instanceof ProviderResponseTooLarge) return e.message;
  return null;
}

/**
 * A failed call as the user should read it. The SDK has already retried what may pass on a second try
 * (429, 408/409, 5xx, timeouts and connection errors, up to LLM_MAX_RETRIES); those stay retryable for the
 * job queue. Any other 4xx is the provider refusing this request, which asking again will not change: it
 * fails the task at once, in the provider's words.
 */
export function providerError(
  err: unknown,
  stage: { label: string },
  apiKey = "",
  configuredIn: ModelProvider["configuredIn"] = "environment",
): PlannerError {
  const e = err as { status?: unknown; code?: unknown; message?: unknown };
  const status = typeof e.status === "number" ? e.status : undefined;
  if (isSdkTimeout(err) || status === 408)
    return new PlannerError(`The AI provider did not answer in time during ${stage.label}.`, false, {
      cause: err,
    });
  // The same words whatever stopped the connection (refused, unknown host, not allowed), so a base URL
  // cannot be used to learn which internal names and ports exist.
  if (status === undefined)
    return new PlannerError(
      unreachableReason(err)
        ? `The AI provider's answer could not be read during ${stage.label}: ${unreachableReason(err)}`
        : `The AI provider could not be reached during ${stage.label}.`,
      false,
      { cause: err },
    );
  if (status === 429 && e.code !== "insufficient_quota")
    return new PlannerError(`The AI provider is rate limiting us during ${stage.label}.`, false, {
      cause: err,
    });
  if (status >= 500 || status === 409)
    return new PlannerError(`The AI provider failed (${status}) during ${stage.label}.`, false, {
      cause: err,
    });
  const settings = configuredIn === "settings";
  const hint =
    status === 401 || status === 403
      ? settings
        ? " Check the API key in Settings → AI model."
        : " Check OPENAI_API_KEY."
      : status === 404
        ? settings
          ? " Check the model name and base URL in Settings → AI model."
          : " Check LLM_MODEL and OPENAI_BASE_URL."
        : "";
  const said = providerMessage(err, apiKey);
  return new PlannerError(
    `The AI provider refused the request${said ? `: ${said}` : ""} (HTTP ${status}, during ${stage.label}).${hint}`,
    true,
    { cause: err },
  );
}

// ---------------------------------------------------------------------------------------------
// The provider
// ---------------------------------------------------------------------------------------------

/** One OpenAI-compatible endpoint and how to call it: from the environment, or saved in Settings. */
export type ModelProvider = {
  /** e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1 */
  baseUrl: string;
  /** Empty for servers that need none (a local Ollama). */
  apiKey: string;
  model: string;
  timeoutMs: number;
  maxRetries: number;
  structuredOutput: Config["LLM_STRUCTURED_OUTPUT"];
  /** Where people fix a rejected key or model: named in the failure reason. */
  configuredIn: "environment" | "settings";
  /** A fetch with our limits (no redirects, a response size cap) for URLs typed into Settings. */
  fetch?: typeof fetch;
};

/** The provider the environment sets (OPENAI_BASE_URL / OPENAI_API_KEY / LLM_MODEL...). */
export function providerFromConfig(config: Config): ModelProvider {
  return {
    baseUrl: config.OPENAI_BASE_URL || "https://api.openai.com/v1",
    apiKey: config.OPENAI_API_KEY ?? "",
    model: config.LLM_MODEL,
    timeoutMs: config.LLM_TIMEOUT_MS,
    maxRetries: config.LLM_MAX_RETRIES,
    structuredOutput: config.LLM_STRUCTURED_OUTPUT,
    configuredIn: "environment",
  };
}

// ---------------------------------------------------------------------------------------------
// The planner
// ---------------------------------------------------------------------------------------------

/**
 * The SDK is about half a second of module loading, so it is loaded at the first model call rather than
 * at every start of a process that may never call a model (the offline planner, the CLI).
 */
let sdk: Promise<typeof import("@langchain/openai")> | undefined;

/** The SDK's own deadline error, told by class name: the SDK may not be loaded where this is asked. */
export function isSdkTimeout(err: unknown): boolean {
  return err instanceof Error && err.constructor.name === "APIConnectionTimeoutError";
}

export function loadSdk(): Promise<typeof import("@langchain/openai")> {
  sdk ??= import("@langchain/openai");
  return sdk;
}

/**
 * Any OpenAI-compatible endpoint (OpenAI, Azure OpenAI, Ollama, vLLM, LM Studio...). Requests go through
 * the official `openai` client that @langchain/openai wraps and re-exports: ChatOpenAI's structured output
 * derives the schema from zod with every length and count in it, which OpenAI's strict mode refuses, and
 * for json_schema it runs the SDK's parse(), which refuses fenced or wrapped JSON before we could read it.
 * So each call sends the portable schema strictly, and the answer is read here and validated with zod.
 * `gate` holds the HTTP calls alone to the provider's concurrency (call-limit.ts); none by default.
 */
export function createLangChainPlanner(
  provider: ModelProvider,
  log: Logger,
  gate: CallGate = ungated,
): Planner {
  const apiKey = provider.apiKey || "not-needed";
  let client: OpenAIClient | undefined;
  async function openClient(): Promise<OpenAIClient> {
    const { OpenAIClient } = await loadSdk();
    client ??= new OpenAIClient({
      apiKey,
      // Explicit, so the SDK never falls back to its own reading of the environment.
      baseURL: provider.baseUrl || "https://api.openai.com/v1",
      timeout: provider.timeoutMs,
      maxRetries: provider.maxRetries,
      ...(provider.fetch ? { fetch: provider.fetch } : {}),
    });
    return client;
  }
  const reasoning = isReasoningModel(provider.model);
  // Converted once: a schema that cannot be made portable fails at start-up, not at the first task.
  const formats = new Map<z.ZodType, PortableFormat>(
    [complexityAssessment, subtaskPlan, projectContext, eventModelStructure].map((s) => [
      s,
      portableFormat(s),
    ]),
  );

  function request(stage: Stage, format: PortableFormat, prompt: string): { body: ChatRequest; cap: number } {
    const cap = OUTPUT_CAPS[stage.name] + (reasoning ? REASONING_HEADROOM : 0);
    const body: ChatRequest = {
      model: provider.model,
      messages: [
        { role: "system", content: SYSTEM_PROMPT },
        { role: "user", content: prompt },
      ],
      ...(reasoning ? { max_completion_tokens: cap } : { max_tokens: cap, temperature: 0.2 }),
      ...(provider.structuredOutput === "functionCalling"
        ? {
            tools: [
              {
                type: "function" as const,
                function: { name: stage.name, parameters: format.schema, strict: true },
              },
            ],
            tool_choice: { type: "function" as const, function: { name: stage.name } },
          }
        : {
            response_format: {
              type: "json_schema" as const,
              json_schema: { name: stage.name, schema: format.schema, strict: true },
            },
          }),
    };
    return { body, cap };
  }

  async function call<S extends z.ZodType>(
    stage: Stage,
    schema: S,
    prompt: string,
    signal?: AbortSignal,
  ): Promise<Planned<z.output<S>>> {
    const format = formats.get(schema) ?? portableFormat(schema);
    const { body, cap } = request(stage, format, prompt);
    const usage: Usage = { calls: 0, promptTokens: 0, completionTokens: 0 };
    let lastProblem = "";
    let detail = "";
    for (let attempt = 1; attempt <= OUTPUT_ATTEMPTS; attempt++) {
      usage.calls += 1;
      let completion: ChatCompletion;
      try {
        const client = await openClient();
        completion = await gate(signal, () => client.chat.completions.create(body, { signal }));
      } catch (err) {
        if (signal?.aborted) throw err;
        throw providerError(err, stage, apiKey, provider.configuredIn);
      }
      usage.promptTokens += completion.usage?.prompt_tokens ?? 0;
      usage.completionTokens += completion.usage?.completion_tokens ?? 0;
      const answer = readCompletion(completion, cap);
      if (answer.ok) {
        const checked = schema.safeParse(format.toZodInput(answer.value));
        if (checked.success) return { value: checked.data, usage };
        const issue = checked.error.issues[0];
        // The person reads the rule in words; the log gets where and what.
        detail = issue
          ? `${issue.path.length > 0 ? `${issue.path.join(".")}: ` : ""}${issue.message}`
          : "schema mismatch";
        lastProblem = (issue && issueInWords(issue)) ?? "it did not fit the plan's rules";
      } else lastProblem = detail = answer.problem;
      log.warn("model output unusable; retrying", { stage: stage.name, attempt, problem: detail });
    }
    throw new PlannerError(
      `The AI model returned invalid output for ${stage.label} ${OUTPUT_ATTEMPTS} times (${lastProblem}). Try again, or use a more capable model.`,
      true,
    );
  }

  return {
    name: "langchain",
    model: provider.model,
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
      // Ids the model made up (or misspelled) would trace work to nothing: only stated ones are kept.
      const stated = new Set(request.brief.scope.requirements.map((r) => r.id));
      const subtasks = planned.value.subtasks.slice(0, request.maxSubtasks).map((s) => ({
        ...s,
        requirement_ids: [
          ...new Set(s.requirement_ids.map((id) => id.trim().toUpperCase()).filter((id) => stated.has(id))),
        ],
      }));
      return { value: subtasks, usage: planned.usage };
    },
    composeContext: (request, signal) =>
      call(
        { name: "project_context", label: "final composition (context)" },
        projectContext,
        contextPrompt(request),
        signal,
      ),
    async composeEventModel(request, signal) {
      // The model returns the structure only; the document is rendered from it.
      const planned = await call(
        { name: "event_model", label: "final composition (event model)" },
        eventModelStructure,
        eventModelPrompt(request),
        signal,
      );
      const title = request.brief.description.split("\n")[0]?.slice(0, 80);
      return {
        value: { ...planned.value, event_model_markdown: renderEventModelMarkdown(planned.value, title) },
        usage: planned.usage,
      };
    },
  };
}
