import { createHash } from "node:crypto";
import type { PlannerSource } from "../../../shared/schemas/model-providers";
import type { Config } from "../../config";
import type { Db } from "../../db/client";
import type { Vault } from "../../integrations/vault";
import type { Logger } from "../../lib/logger";
import { outboundFetch } from "../../lib/outbound/fetch";
import type { Chooser } from "../../lib/outbound/policy";
import type { Planner } from "./contract";
import { PlannerError } from "./errors";
import { callLimit } from "./model/call-limit";
import { createLangChainPlanner, type ModelProvider, providerFromConfig } from "./model/model-planner";
import { limitedProviderFetch } from "./model/provider-fetch";
import { createOfflinePlanner } from "./offline/offline-planner";
import { type ProvidersFor, readProvidersFor, type StoredProvider } from "./provider-store";

export type PlannerChoice = {
  planner: Planner;
  source: PlannerSource;
  /** Why the chosen provider cannot plan (its saved key cannot be opened); its planner then fails. */
  problem: string | null;
};

/** Which planner runs for whom (docs/decisions/012-model-settings.md). */
export type Planners = {
  /**
   * The planner a job of this user's decomposition runs with, resolved when the job runs. `read`: the
   * user's settings as the job already read them (`providersJson`), so they are not read again.
   */
  forUser(userId: string, read?: ProvidersFor): Promise<Planner>;
  /** The same choice and where its settings come from, for "which planner will run for me". */
  choiceFor(userId: string): Promise<PlannerChoice>;
  /** The offline planner: it composes a plan a coding agent split (engine/agent.ts). */
  offline: Planner;
};

/** Planners kept built (one per distinct provider settings); the least recently used goes first. */
const CACHE_SIZE = 100;

/**
 * Precedence: the user's own provider > the environment (OPENAI_BASE_URL / OPENAI_API_KEY) > the
 * instance provider an admin saved > the offline planner. Reads the settings on every call (one small
 * query, or as part of the job's own read), so a change in Settings applies to the next job in every
 * process; the planners built from them are cached by a hash of the settings, each with its provider's
 * concurrency limit.
 */
export function createPlanners(deps: { config: Config; db: Db; vault: Vault; log: Logger }): Planners {
  const { config, log } = deps;
  const offline = createOfflinePlanner();
  // Through the outbound guard: a user's own base URL reaches public addresses (and what the operator
  // opened); the instance's, which an admin chose, may also be on this machine (docs/decisions/007).
  const providerFetch: Record<Chooser, typeof fetch> = {
    user: limitedProviderFetch(outboundFetch(config, "user")),
    admin: limitedProviderFetch(outboundFetch(config, "admin")),
  };
  // The environment's planner is built once, with LLM_CONCURRENCY calls in flight at most (the job queue
  // runs more jobs than that, so their database work overlaps the calls: decision 026).
  const environment = config.llmEnabled
    ? createLangChainPlanner(
        { ...providerFromConfig(config), fetch: providerFetch.admin },
        log.child({ component: "planner" }),
        callLimit(config.LLM_CONCURRENCY),
      )
    : null;
  const cache = new Map<string, Planner>();

  function fromSettings(stored: StoredProvider): Planner {
    if (stored.keyUnreadable) return unusable(stored.model, unreadableKeyMessage(stored.owner));
    const provider: ModelProvider = {
      baseUrl: stored.baseUrl,
      apiKey: stored.apiKey ?? "",
      model: stored.model,
      timeoutMs: config.LLM_TIMEOUT_MS,
      maxRetries: config.LLM_MAX_RETRIES,
      structuredOutput: config.LLM_STRUCTURED_OUTPUT,
      configuredIn: "settings",
      fetch: providerFetch[stored.owner === "user" ? "user" : "admin"],
    };
    const { fetch: _fetch, ...settings } = provider;
    const key = createHash("sha256")
      .update(JSON.stringify({ ...settings, owner: stored.owner, concurrency: stored.concurrency }))
      .digest("hex");
    const cached = cache.get(key);
    if (cached) {
      cache.delete(key);
      cache.set(key, cached);
      return cached;
    }
    const planner = createLangChainPlanner(
      provider,
      log.child({ component: "planner" }),
      callLimit(stored.concurrency),
    );
    cache.set(key, planner);
    if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
    return planner;
  }

  const fromStored = (stored: StoredProvider, source: PlannerSource): PlannerChoice => ({
    planner: fromSettings(stored),
    source,
    problem: stored.keyUnreadable ? unreadableKeyMessage(stored.owner) : null,
  });

  async function choiceFor(userId: string, read?: ProvidersFor): Promise<PlannerChoice> {
    const { own, instance } = read ?? (await readProvidersFor(deps, userId));
    if (own) return fromStored(own, "your settings");
    if (environment) return { planner: environment, source: "environment", problem: null };
    if (instance) return fromStored(instance, "instance settings");
    return { planner: offline, source: "none", problem: null };
  }

  return {
    choiceFor,
    forUser: async (userId, read) => (await choiceFor(userId, read)).planner,
    offline,
  };
}

function unreadableKeyMessage(owner: StoredProvider["owner"]): string {
  return owner === "user"
    ? "The API key saved in your AI model settings can no longer be read (the server's credentials key changed). Enter it again in Settings → AI model."
    : "The API key saved for this instance's AI model can no longer be read (the server's credentials key changed). An admin must enter it again in Settings → AI model.";
}

/**
 * A provider that cannot be used: it fails the decomposition at its first call with the reason, rather
 * than quietly planning with another provider than the one chosen.
 */
function unusable(model: string, message: string): Planner {
  const fail = async (): Promise<never> => {
    throw new PlannerError(message, true);
  };
  return {
    name: "langchain",
    model,
    assessComplexity: fail,
    splitTask: fail,
    composeContext: fail,
    composeEventModel: fail,
  };
}
