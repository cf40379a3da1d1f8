import { z } from "zod";
import {
  OLLAMA_OPENAI_PATH,
  type OllamaDetection,
  type OllamaModel,
} from "../../../shared/schemas/model-providers";
import type { Config } from "../../config";
import { limitedProviderFetch } from "../../engine/planners/model/provider-fetch";
import type { Logger } from "../../lib/logger";
import { outboundFetch } from "../../lib/outbound/fetch";

/**
 * Finds a local Ollama and the models it has pulled, so Settings can offer them: `GET {OLLAMA_URL}/api/tags`,
 * Ollama's "List models" endpoint (https://docs.ollama.com/api/tags, formerly
 * https://github.com/ollama/ollama/blob/main/docs/api.md#list-local-models), which answers
 * `{ "models": [{ "name": "gemma3", "model": "gemma3", "modified_at": "...", "size": 3338801804,
 * "digest": "...", "details": { "format": "gguf", "family": "gemma", "parameter_size": "4.3B",
 * "quantization_level": "Q4_K_M" } }] }`. Its OpenAI-compatible API is served below `/v1`
 * (https://docs.ollama.com/api/openai-compatibility), which is what a picked model is saved with.
 * Nothing is ever enabled by this: a person picks a model and saves it.
 */

/** The answer is a short list; anything bigger is not an Ollama we want to read. */
const TAGS_RESPONSE_BYTES = 1024 * 1024;
const MAX_MODELS = 200;
/** "Look again" within this long answers with the probe just made. */
const MIN_PROBE_INTERVAL_MS = 2_000;

const tagsResponse = z.object({ models: z.array(z.unknown()) });
/** One entry; entries that do not match are skipped, not the whole answer. */
const tagsModel = z.object({
  name: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .regex(/^[A-Za-z0-9][A-Za-z0-9._:/@+-]*$/),
  size: z.number().int().nonnegative().optional().catch(undefined),
  details: z
    .object({ parameter_size: z.string().trim().max(40).optional().catch(undefined) })
    .optional()
    .catch(undefined),
});

export type OllamaDetector = {
  /** The last probe's result, or the probe under way (at start, or after "look again"). */
  latest(): Promise<OllamaDetection>;
  /** Probes now (shares a probe already under way or made in the last two seconds). */
  detect(): Promise<OllamaDetection>;
};

export function parseOllamaTags(body: unknown): OllamaModel[] | null {
  const parsed = tagsResponse.safeParse(body);
  if (!parsed.success) return null;
  const seen = new Set<string>();
  const models: OllamaModel[] = [];
  for (const entry of parsed.data.models) {
    const m = tagsModel.safeParse(entry);
    if (!m.success || seen.has(m.data.name)) continue;
    seen.add(m.data.name);
    models.push({
      name: m.data.name,
      size: m.data.size ?? null,
      parameter_size: m.data.details?.parameter_size || null,
    });
    if (models.length >= MAX_MODELS) break;
  }
  return models.sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * One probe of `url` (never throws): what was found there, in the shape Settings shows. `through` is the
 * outbound guard's fetch (OLLAMA_URL is the operator's own address, allowed at its host and port).
 */
export async function probeOllama(
  url: string,
  timeoutMs: number,
  through: typeof fetch,
): Promise<OllamaDetection> {
  const base = url.replace(/\/+$/, "");
  const result = (
    status: OllamaDetection["status"],
    models: OllamaModel[],
    message: string | null,
  ): OllamaDetection => ({
    status,
    url: base,
    base_url: `${base}${OLLAMA_OPENAI_PATH}`,
    models,
    message,
    checked_at: new Date().toISOString(),
  });
  let body: unknown;
  try {
    const res = await limitedProviderFetch(through, TAGS_RESPONSE_BYTES)(`${base}/api/tags`, {
      headers: { accept: "application/json" },
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (res.status !== 200)
      return result(
        "not_found",
        [],
        `${base}/api/tags answered HTTP ${res.status}, not Ollama's list of models.`,
      );
    const text = await res.text();
    try {
      body = JSON.parse(text);
    } catch {
      return result("invalid", [], `${base}/api/tags did not answer with JSON, so it is not Ollama.`);
    }
  } catch (err) {
    const e = err as { name?: string; message?: string };
    if (e.name === "TimeoutError" || e.name === "AbortError")
      return result("not_found", [], `Nothing answered at ${base} within ${timeoutMs} ms.`);
    if (e.name === "ProviderResponseTooLarge")
      return result("invalid", [], `${base}/api/tags answered with more than we read, so it is not Ollama.`);
    return result("not_found", [], `No Ollama is running at ${base}.`);
  }
  const models = parseOllamaTags(body);
  if (models === null)
    return result("invalid", [], `${base}/api/tags answered, but not with Ollama's list of models.`);
  return result(
    "found",
    models,
    models.length === 0 ? "Ollama is running but has no models yet: pull one (ollama pull llama3.2)." : null,
  );
}

export function createOllamaDetector(config: Config, log: Logger): OllamaDetector {
  const url = config.ollamaUrl;
  const timeoutMs = config.OLLAMA_DETECT_TIMEOUT_MS;
  const disabled: OllamaDetection = {
    status: "disabled",
    url: null,
    base_url: null,
    models: [],
    message: "Looking for a local Ollama is turned off (OLLAMA_URL is empty).",
    checked_at: null,
  };
  let current: Promise<OllamaDetection> | null = null;
  let finishedAt = 0;
  let running = false;

  function detect(): Promise<OllamaDetection> {
    if (!url) return Promise.resolve(disabled);
    if (current && (running || Date.now() - finishedAt < MIN_PROBE_INTERVAL_MS)) return current;
    running = true;
    // The server probes its own loopback for the default address, as it would for the instance's model.
    const chooser = config.ollamaUrlSet ? "user" : "admin";
    current = probeOllama(url, timeoutMs, outboundFetch(config, chooser)).then((found) => {
      running = false;
      finishedAt = Date.now();
      log.info("ollama detection", { url, status: found.status, models: found.models.length });
      return found;
    });
    return current;
  }

  return { detect, latest: () => current ?? detect() };
}
