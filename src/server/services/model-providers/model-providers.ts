import type { z } from "zod";
import {
  type ConnectionTestResult,
  type ModelProviderView,
  type modelProviderInput,
  type OllamaDetection,
  PROVIDER_CONCURRENCY,
} from "../../../shared/schemas/model-providers";
import type { Deps } from "../../deps";
import {
  type ProviderOwner,
  readProvider,
  type StoredProvider,
  writeProvider,
} from "../../engine/planners/provider-store";
import { AppError } from "../../errors";
import { literalRefusal, outboundFetch, outboundRefusal } from "../../lib/outbound/fetch";
import type { Chooser } from "../../lib/outbound/policy";
import { consumeRateLimit } from "../auth/rate-limit";
import type { UserRow } from "../auth/sessions";
import { testConnection } from "./test-connection";

/** The system error code under an SDK error (ECONNREFUSED, ENOTFOUND...), for the log only. */
function connectionCode(err: unknown): string | undefined {
  for (let e: unknown = err, i = 0; e && i < 6; e = (e as { cause?: unknown }).cause, i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && /^E[A-Z_]+$/.test(code)) return code;
  }
  return undefined;
}

/**
 * The language model that plans: a user's own, or the instance's (admins), saved in Settings → AI model.
 * Keys are sealed with the credentials vault and never leave the server (docs/decisions/012-model-settings.md).
 */

/** Connection tests one user may start per window: each is a real, possibly billed, call. */
export const CONNECTION_TESTS = { max: 10, windowMs: 10 * 60_000 } as const;

/** Only a long key shows its last four characters; a short one would give too much of itself away. */
const HINT_MIN_KEY_LENGTH = 16;

export const own = (user: UserRow): ProviderOwner => ({ userId: user.id });

export const INSTANCE: ProviderOwner = { instance: true };

export function requireAdmin(user: UserRow) {
  if (user.role !== "admin")
    throw new AppError("FORBIDDEN", "You don't have permission to perform this action.");
}

export function refuseWhenEnvironmentSets(deps: Deps) {
  if (deps.config.llmEnabled)
    throw new AppError(
      "CONFLICT",
      "Environment variables (OPENAI_BASE_URL / OPENAI_API_KEY) set this instance's AI model; change them there.",
    );
}

export function viewOf(stored: StoredProvider | null): ModelProviderView {
  if (!stored)
    return {
      configured: false,
      base_url: null,
      model: null,
      concurrency: PROVIDER_CONCURRENCY.default,
      api_key_saved: false,
      api_key_hint: null,
      api_key_unreadable: false,
      updated_at: null,
    };
  const key = stored.apiKey;
  return {
    configured: true,
    base_url: stored.baseUrl,
    model: stored.model,
    concurrency: stored.concurrency,
    api_key_saved: Boolean(key) || stored.keyUnreadable,
    api_key_hint: key && key.length >= HINT_MIN_KEY_LENGTH ? `••••${key.slice(-4)}` : null,
    api_key_unreadable: stored.keyUnreadable,
    updated_at: stored.updatedAt.toISOString(),
  };
}

export type ProviderSettings = z.output<typeof modelProviderInput>;

/** Who chose a provider's address, for the outbound guard: a user, or an admin for the instance. */
const chooserOf = (owner: ProviderOwner): Chooser => ("userId" in owner ? "user" : "admin");

const sameAddress = (a: string, b: string) => {
  const canonical = (u: string) => new URL(u).href.replace(/\/+$/, "");
  return canonical(a) === canonical(b);
};

/** Refuses, before any request, a base URL the outbound guard would never connect to. */
function refuseUnreachableAddress(deps: Deps, owner: ProviderOwner, baseUrl: string) {
  const refusal = literalRefusal(deps.config, chooserOf(owner), baseUrl);
  if (refusal)
    throw new AppError("UNPROCESSABLE_CONTENT", refusal, {
      fieldErrors: [{ field: "base_url", message: refusal }],
    });
}

/**
 * A saved key goes only to the base URL it was saved with: settings that keep the saved key (an empty
 * key field) but name another address are refused, so the key cannot be sent somewhere new without
 * being typed again.
 */
function refuseKeyOnNewAddress(saved: StoredProvider | null, input: ProviderSettings) {
  if (input.api_key || input.remove_api_key || !saved) return;
  if (!saved.apiKey && !saved.keyUnreadable) return;
  if (sameAddress(saved.baseUrl, input.base_url)) return;
  const message =
    "Enter the API key again to use another base URL: a saved key is only sent to the address it was saved with (or remove the saved key).";
  throw new AppError("UNPROCESSABLE_CONTENT", message, { fieldErrors: [{ field: "api_key", message }] });
}

export async function save(deps: Deps, user: UserRow, owner: ProviderOwner, input: ProviderSettings) {
  refuseUnreachableAddress(deps, owner, input.base_url);
  const before = await readProvider(deps, owner);
  refuseKeyOnNewAddress(before, input);
  await writeProvider(
    deps,
    owner,
    {
      baseUrl: input.base_url,
      model: input.model,
      concurrency: input.concurrency ?? before?.concurrency ?? PROVIDER_CONCURRENCY.default,
      // A typed key replaces the saved one; "remove" clears it; an empty field keeps it.
      apiKey: input.api_key ? input.api_key : input.remove_api_key ? null : undefined,
    },
    user.id,
  );
  deps.log.info("model provider saved", {
    owner: "userId" in owner ? "user" : "instance",
    userId: user.id,
    origin: new URL(input.base_url).origin,
    model: input.model,
    keyChanged: Boolean(input.api_key) || Boolean(input.remove_api_key),
  });
  return viewOf(await readProvider(deps, owner));
}

export async function test(
  deps: Deps,
  user: UserRow,
  owner: ProviderOwner,
  input: ProviderSettings,
): Promise<ConnectionTestResult> {
  // An address that would never be called is refused first, without using up a test.
  refuseUnreachableAddress(deps, owner, input.base_url);
  await consumeRateLimit(
    deps,
    { key: `model-test:user:${user.id}`, ...CONNECTION_TESTS },
    "Too many connection tests. Please wait a few minutes and try again.",
  );
  // The form as it would be saved: an empty key field means the saved key, for its own address only.
  let apiKey = input.api_key ?? "";
  if (!apiKey && !input.remove_api_key) {
    const saved = await readProvider(deps, owner);
    refuseKeyOnNewAddress(saved, input);
    if (saved?.keyUnreadable)
      return {
        ok: false,
        status: null,
        message:
          "The saved API key can no longer be read (the server's credentials key changed). Enter it again.",
        ms: 0,
      };
    apiKey = saved?.apiKey ?? "";
  }
  const { cause, ...result } = await testConnection(
    { baseUrl: input.base_url, apiKey, model: input.model },
    outboundFetch(deps.config, chooserOf(owner)),
    Math.min(deps.config.LLM_TIMEOUT_MS, 20_000),
  );
  // The person sees "could not connect"; the operator's log says why (refused by the guard, no such host...).
  const refused = outboundRefusal(cause);
  deps.log.info("model provider connection test", {
    owner: "userId" in owner ? "user" : "instance",
    userId: user.id,
    origin: new URL(input.base_url).origin,
    ok: result.ok,
    status: result.ok ? 200 : result.status,
    ...(refused ? { refused: refused.verdict.kind } : cause ? { problem: connectionCode(cause) } : {}),
  });
  return result;
}

/**
 * Ollama at the default address is the instance's (decision 012, amended in issue 39): users' own
 * providers may reach a local Ollama only when the operator set OLLAMA_URL. Until then only an admin is
 * shown it, or may make the server look for it; anyone else is told whom to ask, and Settings offers
 * nothing they could not save.
 */
export function adminsOnly(deps: Deps, user: { role: string }): OllamaDetection | null {
  if (deps.config.ollamaUrlSet || user.role === "admin") return null;
  return {
    status: "disabled",
    url: null,
    base_url: null,
    models: [],
    message:
      "A local Ollama at the default address is for the administrator to use as the instance's model; the operator sets OLLAMA_URL to offer it to everyone.",
    checked_at: null,
  };
}
