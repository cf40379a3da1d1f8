import type { ConnectionTestResult } from "../../../shared/schemas/model-providers";
import { isReasoningModel, isSdkTimeout, loadSdk, providerMessage } from "../planning/langchain-planner";
import { limitedProviderFetch, ProviderResponseTooLarge } from "../planning/provider-fetch";

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

/** Why a request got no answer, from the SDK error and its causes (connection refused, unknown host...). */
function connectionProblem(err: unknown, timeoutMs: number): string {
  if (isSdkTimeout(err)) return `The provider did not answer within ${Math.round(timeoutMs / 1000)} seconds.`;
  for (let e: unknown = err, i = 0; e && i < 6; e = (e as { cause?: unknown }).cause, i++) {
    if (e instanceof ProviderResponseTooLarge) return e.message;
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && /^E[A-Z_]+$/.test(code)) {
      const what =
        code === "ECONNREFUSED"
          ? "nothing is listening there"
          : code === "ENOTFOUND" || code === "EAI_AGAIN"
            ? "the host name is unknown"
            : code;
      return `Could not connect to the provider: ${what} (${code}).`;
    }
  }
  return `Could not connect to the provider: ${String((err as Error).message ?? err).replace(/\.+$/, "")}.`;
}

/**
 * One real, tiny chat completion through the same OpenAI client the planner uses: no retries, a short
 * deadline, an output cap of a few tokens, no redirects followed and a bounded answer. Returns what the
 * provider answered, or its error in its own words (HTTP status and message, at most 500 characters),
 * never the key.
 */
export async function testConnection(
  provider: { baseUrl: string; apiKey: string; model: string },
  timeoutMs = TEST_TIMEOUT_MS,
): Promise<ConnectionTestResult> {
  const apiKey = provider.apiKey || "not-needed";
  const { OpenAIClient } = await loadSdk();
  const client = new OpenAIClient({
    apiKey,
    baseURL: provider.baseUrl,
    timeout: timeoutMs,
    maxRetries: 0,
    fetch: limitedProviderFetch(TEST_RESPONSE_BYTES),
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
    const choice = completion.choices?.[0];
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
      return { ok: false, status, message: providerMessage(err, apiKey), ms: ms() };
    return {
      ok: false,
      status: null,
      message: clip(redact(connectionProblem(err, timeoutMs), apiKey)),
      ms: ms(),
    };
  }
}
