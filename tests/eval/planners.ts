/** The planners the evaluation scores. Construction lives here only, so signature changes touch one place. */
import { loadConfig } from "../../src/server/config";
import type { Planner } from "../../src/server/engine/planners/contract";
import {
  createLangChainPlanner,
  providerFromConfig,
} from "../../src/server/engine/planners/model/model-planner";
import { createOfflinePlanner } from "../../src/server/engine/planners/offline/offline-planner";
import { createLogger } from "../../src/server/lib/logger";

export function offlinePlanner(): Planner {
  return createOfflinePlanner();
}

/** The model endpoint named by EVAL_OPENAI_BASE_URL / EVAL_OPENAI_API_KEY / EVAL_MODEL, or null when unset. */
export function modelSettingsFromEnv(env: Record<string, string | undefined> = process.env) {
  if (!env.EVAL_OPENAI_BASE_URL || !env.EVAL_MODEL) return null;
  return { baseUrl: env.EVAL_OPENAI_BASE_URL, apiKey: env.EVAL_OPENAI_API_KEY ?? "", model: env.EVAL_MODEL };
}

/**
 * The LangChain planner pointed at an OpenAI-compatible endpoint (a hosted API, a local Ollama, or the fake
 * of tests/fakes/openai.ts). The one place the harness builds it: adapt here when its constructor changes.
 * EVAL_LLM_TIMEOUT_MS raises the per-call timeout for slow local models.
 */
export function modelPlannerFromEnv(env: Record<string, string | undefined> = process.env): Planner {
  const settings = modelSettingsFromEnv(env);
  if (!settings)
    throw new Error("Set EVAL_OPENAI_BASE_URL and EVAL_MODEL (and EVAL_OPENAI_API_KEY if needed)");
  const config = loadConfig({
    OPENAI_BASE_URL: settings.baseUrl,
    OPENAI_API_KEY: settings.apiKey,
    LLM_MODEL: settings.model,
    LLM_TIMEOUT_MS: env.EVAL_LLM_TIMEOUT_MS,
    LOG_LEVEL: "silent",
  });
  return createLangChainPlanner(providerFromConfig(config), createLogger("silent"));
}
