import type { InstanceModelProviderView } from "../../../shared/schemas/model-providers";
import type { Deps } from "../../deps";
import { readProvider } from "../../engine/planners/provider-store";
import type { UserRow } from "../auth/sessions";
import { INSTANCE, requireAdmin, viewOf } from "./model-providers";

/** The environment sets the instance's provider (and wins over the instance settings). */
function environmentProvider(deps: Deps): InstanceModelProviderView["environment"] {
  const c = deps.config;
  if (!c.llmEnabled) return null;
  return {
    base_url: c.OPENAI_BASE_URL || "https://api.openai.com/v1",
    model: c.LLM_MODEL,
    api_key_saved: Boolean(c.OPENAI_API_KEY),
    concurrency: c.LLM_CONCURRENCY,
  };
}

// ---- the instance's provider (admins) -------------------------------------------------------------

export async function getInstanceProvider(deps: Deps, user: UserRow): Promise<InstanceModelProviderView> {
  requireAdmin(user);
  return { ...viewOf(await readProvider(deps, INSTANCE)), environment: environmentProvider(deps) };
}
