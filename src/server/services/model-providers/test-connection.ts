import type { ConnectionTestResult } from "../../../shared/schemas/model-providers";
import {
  isReasoningModel,
  isSdkTimeout,
  loadSdk,
  providerMessage,
  unreachableReason,
} from "../../engine/planners/model/model-planner";
import { limitedProviderFetch } from "../../engine/planners/model/provider-fetch";

/** A test waits at most this long for the provider (a local model may first have to load). */
export const TEST_TIMEOUT_MS = 20_000;
/** Enough for "ok" and a little more; reasoning models spend hidden tokens from the same cap. */
const TEST_OUTPUT_TOKENS = 5;
const REASONING_TEST_TOKENS = 64;
/** A short answer is all a test needs; more is not read. */
const TEST_RESPONSE_BYTES = 64 * 1024;
const QUOTE_CHARS = 500;

const redact = (text: string, apiKey: string) =>
  apiKey.length >= 4 ? text.split(apiKey).join("[redacted]") : text;
const clip = (text: string) => (text.length > QUOTE_CHARS ? `${text.slice(0, QUOTE_CHARS)}...` : text);

/**
 * Why a request got no answer, in words that do not tell a refused port from an unknown name or an
 * address the guard does not allow: those would let a base URL map the server's network
 * (docs/decisions/007, "Outbound requests"). The log says which it was.
 */
function connectionProblem(err: unknown, timeoutMs: number): string {
  if (isSdkTimeout(err)) return `The provider did not answer within ${Math.round(timeoutMs / 1000)} seconds.`;
  return unreachableReason(err) ?? "Could not connect to the provider.";
}

/**
 * One real, tiny chat completion through the same OpenAI client the planner uses: no retries, a short
 * deadline, an output cap of a few tokens, no redirects followed and a bounded answer, through `through`
 * (the outbound guard's fetch for whoever chose the address). Returns what the provider answered, or its
 * HTTP status with the message of an answer in OpenAI's error shape (at most 500 characters), never the
 * key and never any other part of an error's body.
 */
export async function testConnection(
  provider: { baseUrl: string; apiKey: string; model: string },
  through: typeof fetch,
  timeoutMs = TEST_TIMEOUT_MS,
): Promise<ConnectionTestResult & { cause?: unknown }> {
  const apiKey = provider.apiKey || "not-needed";
  const { OpenAIClient } = await loadSdk();
  const client = new OpenAIClient({
    apiKey,
    baseURL: provider.baseUrl,
    timeout: timeoutMs,
    maxRetries: 0,
    fetch: limitedProviderFetch(through, TEST_RESPONSE_BYTES),
  });
  const reasoning = isReasoningModel(provider.model);
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  try {
    const completion = await client.chat.completions.create({
      model: provider.model,
      messages: [{ role: "user", content: "Reply with the single word: ok" }],
      ...(reasoning ? { max_completion_tokens: REASONING_TEST_TOKENS } : { max_tokens: TEST_OUTPUT_TOKENS }),
    });
    // Something answered 200, but not an OpenAI-compatible API: say so, and quote none of it.
    if (!completion || typeof completion !== "object" || !Array.isArray(completion.choices))
      return {
        ok: false,
        status: 200,
        message: "The provider answered, but not with a chat completion: check the base URL.",
        ms: ms(),
      };
    const choice = completion.choices[0];
    const text = (choice?.message?.content ?? "").replace(/\s+/g, " ").trim();
    const answer = text
      ? clip(redact(text, apiKey))
      : `(an empty answer; finish_reason ${choice?.finish_reason ?? "unknown"})`;
    return {
      ok: true,
      answer,
      model: typeof completion.model === "string" ? clip(completion.model) : null,
      ms: ms(),
    };
  } catch (err) {
    const status = (err as { status?: unknown }).status;
    if (typeof status === "number")
      return {
        ok: false,
        status,
        message:
          providerMessage(err, apiKey) ?? `The provider answered HTTP ${status} without an error message.`,
        ms: ms(),
        cause: err,
      };
    return { ok: false, status: null, message: connectionProblem(err, timeoutMs), ms: ms(), cause: err };
  }
}
