import { z } from "zod";
import { isoTimestamp } from "./common";

/** Limits of a model provider's settings (issue 10, docs/decisions/012-model-settings.md). */
export const BASE_URL_MAX = 500;
export const MODEL_NAME_MAX = 200;
export const API_KEY_MAX = 500;
export const PROVIDER_CONCURRENCY = { min: 1, max: 16, default: 4 } as const;
export const CONCURRENCY_RANGE_MESSAGE = `Concurrency must be between ${PROVIDER_CONCURRENCY.min} and ${PROVIDER_CONCURRENCY.max}`;
/** Where Ollama serves its OpenAI-compatible API, below the address it listens on. */
export const OLLAMA_OPENAI_PATH = "/v1";

const baseUrl = z
  .string({ error: "Base URL is required" })
  .trim()
  .min(1, "Base URL is required")
  .max(BASE_URL_MAX, `Base URL must be at most ${BASE_URL_MAX} characters`)
  .pipe(z.url({ protocol: /^https?$/, error: "Base URL must be an http:// or https:// address" }))
  .refine((v) => {
    // Runs after a failed URL check too (zod reports every issue): only a parsed URL is judged here.
    try {
      const u = new URL(v);
      return !u.username && !u.password;
    } catch {
      return true;
    }
  }, "Put the API key in its own field, not in the URL")
  // The SDK appends paths such as /chat/completions: a query or a fragment would make it call another
  // path than the one shown (a trailing # swallows what follows).
  .refine((v) => !/[?#]/.test(v), "The base URL cannot contain ? or #")
  .transform((v) => v.replace(/\/+$/, ""));

/**
 * Saving a provider. An empty or missing `api_key` keeps the key saved before; `remove_api_key` clears
 * it (for servers that need none, such as a local Ollama).
 */
export const modelProviderInput = z
  .strictObject({
    base_url: baseUrl,
    model: z
      .string({ error: "Model name is required" })
      .trim()
      .min(1, "Model name is required")
      .max(MODEL_NAME_MAX, `Model name must be at most ${MODEL_NAME_MAX} characters`),
    api_key: z
      .string()
      .trim()
      .max(API_KEY_MAX, `API key must be at most ${API_KEY_MAX} characters`)
      .optional(),
    remove_api_key: z.boolean().optional(),
    concurrency: z
      .number()
      .int("Concurrency must be a whole number")
      .min(PROVIDER_CONCURRENCY.min, CONCURRENCY_RANGE_MESSAGE)
      .max(PROVIDER_CONCURRENCY.max, CONCURRENCY_RANGE_MESSAGE)
      .optional(),
  })
  .refine((v) => !(v.api_key && v.remove_api_key), {
    message: "Enter a new API key or remove the saved one, not both",
    path: ["api_key"],
  });
export type ModelProviderInput = z.input<typeof modelProviderInput>;

/** What a client may see of a saved provider: never the key, at most its last four characters. */
export const modelProviderView = z
  .object({
    configured: z.boolean(),
    base_url: z.string().nullable(),
    model: z.string().nullable(),
    concurrency: z.number().int(),
    api_key_saved: z.boolean(),
    /** "••••abcd" for a long key; null for a short one or none. */
    api_key_hint: z.string().nullable(),
    /** A key is saved but cannot be opened with this server's credentials key: enter it again. */
    api_key_unreadable: z.boolean(),
    updated_at: isoTimestamp.nullable(),
  })
  .meta({ id: "ModelProviderView" });
export type ModelProviderView = z.infer<typeof modelProviderView>;

export const instanceModelProviderView = modelProviderView
  .extend({
    /** Set when environment variables choose the instance's provider: they win, and the screen is read-only. */
    environment: z
      .object({
        base_url: z.string(),
        model: z.string(),
        api_key_saved: z.boolean(),
        concurrency: z.number().int(),
      })
      .nullable(),
  })
  .meta({ id: "InstanceModelProviderView" });
export type InstanceModelProviderView = z.infer<typeof instanceModelProviderView>;

export const PLANNER_SOURCES = ["your settings", "environment", "instance settings", "none"] as const;
export type PlannerSource = (typeof PLANNER_SOURCES)[number];

/** Which planner a decomposition started now would run with, and where its settings come from. */
export const plannerForMe = z.object({
  name: z.enum(["offline", "langchain"]),
  model: z.string().nullable(),
  source: z.enum(PLANNER_SOURCES),
  /** Why the chosen provider cannot plan now (its saved key cannot be read), or null. */
  problem: z.string().nullable(),
});
export type PlannerForMe = z.infer<typeof plannerForMe>;

export const connectionTestResult = z
  .discriminatedUnion("ok", [
    z.object({ ok: z.literal(true), answer: z.string(), model: z.string().nullable(), ms: z.number() }),
    z.object({
      ok: z.literal(false),
      status: z.number().int().nullable(),
      message: z.string(),
      ms: z.number(),
    }),
  ])
  .meta({ id: "ConnectionTestResult" });
export type ConnectionTestResult = z.infer<typeof connectionTestResult>;

export const ollamaModel = z.object({
  name: z.string(),
  size: z.number().nullable(),
  parameter_size: z.string().nullable(),
});
export type OllamaModel = z.infer<typeof ollamaModel>;

export const ollamaDetection = z
  .object({
    status: z.enum(["disabled", "found", "not_found", "invalid"]),
    /** The address probed (OLLAMA_URL). */
    url: z.string().nullable(),
    /** What to save as the base URL to use it: `${url}/v1`. */
    base_url: z.string().nullable(),
    models: z.array(ollamaModel),
    /** Why nothing was found, in a sentence. */
    message: z.string().nullable(),
    checked_at: isoTimestamp.nullable(),
  })
  .meta({ id: "OllamaDetection" });
export type OllamaDetection = z.infer<typeof ollamaDetection>;
