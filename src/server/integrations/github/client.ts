import { createHash } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { retry } from "@octokit/plugin-retry";
import { throttling } from "@octokit/plugin-throttling";
import { Octokit } from "@octokit/rest";
import Bottleneck from "bottleneck";
import type { Config } from "../../config";
import type { DbOrTx } from "../../db/client";
import type { Logger } from "../../lib/logger";
import { outboundFetch } from "../../lib/outbound/fetch";
import { budgetKey, waitForBudgets } from "../../lib/rate-budget";
import { type Described, IntegrationError } from "../errors";

/**
 * The one way Atomize reaches GitHub (connect and status, repository grounding, the Issues export):
 * GitHub's own client (@octokit/rest) with GitHub's recommended pacing (@octokit/plugin-throttling) and
 * retries (@octokit/plugin-retry), configured once here.
 *
 * - Every request: `Authorization: Bearer`, `X-GitHub-Api-Version: 2022-11-28`, a User-Agent, a deadline
 *   (GITHUB_TIMEOUT_MS). Redirects (a renamed repository) are followed within the API's origin only, so a
 *   token never travels to a host a redirect names.
 * - Content-creating requests of one token go one at a time, GITHUB_WRITE_INTERVAL_MS apart (for the
 *   whole process: every client of that token shares the pause).
 * - A rate limit (403/429 secondary limits with or without Retry-After, or an exhausted primary limit
 *   until x-ratelimit-reset) is waited out, never hammered: one wait of what GitHub asks, at most
 *   MAX_LIMIT_RETRIES times per request, and only when the wait fits the caller's cap; otherwise the
 *   request fails at once. 5xx, timeouts and network errors are retried `retries` times (default none).
 * - Failures are IntegrationError (an AppError) worded by `describe`, or by the defaults below.
 */

export const GITHUB_API_VERSION = "2022-11-28";
const USER_AGENT = "Atomize";
const MAX_REDIRECTS = 3;
const MAX_LIMIT_RETRIES = 3;
/** What a person waits on (connect, status, grounding) waits at most this long for a rate limit. */
export const INTERACTIVE_RATE_LIMIT_WAIT_MS = 5_000;

type GithubConfig = Pick<Config, "GITHUB_API_URL"> &
  Partial<
    Pick<
      Config,
      | "GITHUB_TIMEOUT_MS"
      | "GITHUB_WRITE_INTERVAL_MS"
      | "GITHUB_RATE_LIMIT_MAX_WAIT_MS"
      | "GITHUB_WRITES_PER_HOUR"
      | "GITHUB_WRITE_WINDOW_MS"
      | "GITHUB_SECONDARY_LIMIT_WAIT_MS"
    >
  >;

/** Why a GitHub request failed, for callers that word it their own way. */
export type GithubFailure = {
  /** GitHub's HTTP status; null when it did not answer (network error or timeout). */
  status: number | null;
  timedOut: boolean;
  /** A 429, or a 403 that is a secondary limit or an exhausted primary limit. */
  rateLimited: boolean;
  /** GitHub's own `message`, when it sent one. */
  message: string | null;
  /** What a fine-grained token lacked, from `x-accepted-github-permissions` (e.g. "issues=write"). */
  acceptedPermissions: string | null;
};

export type GithubClientOptions = {
  /** Cancels requests and any wait for a rate limit. */
  signal?: AbortSignal;
  /** Retries of a request that failed on a 5xx, a timeout or the network. Default 0. */
  retries?: number;
  /** Longest wait for a rate limit to lift (never more than GITHUB_RATE_LIMIT_MAX_WAIT_MS). */
  maxRateLimitWaitMs?: number;
  /** Words a failure for this caller; undefined falls back to `describeGithubFailure`. */
  describe?: (failure: GithubFailure) => Described | undefined;
};

export const RATE_LIMITED_MESSAGE = "GitHub's rate limit was reached. Please try again in a few minutes.";

/** The default words, those of the Settings page (connect and status). */
export function describeGithubFailure(f: GithubFailure): Described {
  if (f.status === null) return "GitHub could not be reached. Please try again later.";
  if (f.rateLimited) return RATE_LIMITED_MESSAGE;
  if (f.status === 401) return "GitHub rejected the token (Bad credentials). Check it and try again.";
  return `GitHub answered ${f.status}. Please try again later.`;
}

const GithubOctokit = Octokit.plugin(throttling, retry);
export type GithubClient = InstanceType<typeof GithubOctokit>;

/**
 * The pause between one token's content-creating requests, for the process: the plugin's `write` group,
 * and its `notifications` group (issues, comments), which the plugin paces at 3 s by default. GitHub now
 * states its limit as about 80 content-creating requests a minute, so both take the one interval.
 */
const pacings = new Map<number, { write: Bottleneck.Group; notifications: Bottleneck.Group }>();
function pacing(minTime: number) {
  let groups = pacings.get(minTime);
  if (!groups) {
    groups = {
      write: new Bottleneck.Group({ maxConcurrent: 1, minTime }),
      notifications: new Bottleneck.Group({ maxConcurrent: 1, minTime }),
    };
    pacings.set(minTime, groups);
  }
  return groups;
}

/**
 * Waits until one more content-creating request of this token fits GitHub's hourly budget (at most
 * GITHUB_WRITES_PER_HOUR in GITHUB_WRITE_WINDOW_MS, for every export of the token in every process of the
 * instance: a budget in the database, lib/rate-budget.ts), then counts it. `onWait` hears how long the
 * pause is, so an export can show when it resumes.
 */
export async function takeWriteBudget(
  deps: { db: DbOrTx; config: Pick<Config, "GITHUB_WRITES_PER_HOUR" | "GITHUB_WRITE_WINDOW_MS"> },
  token: string,
  signal: AbortSignal | undefined,
  onWait: (ms: number) => Promise<void> | void,
): Promise<void> {
  await waitForBudgets(
    deps.db,
    [
      {
        key: budgetKey("github:writes", token),
        limit: deps.config.GITHUB_WRITES_PER_HOUR,
        windowMs: deps.config.GITHUB_WRITE_WINDOW_MS,
      },
    ],
    signal,
    onWait,
  );
}

type RequestErrorLike = Error & {
  status: number;
  response?: { headers: Record<string, string | undefined>; data?: unknown };
};
const isRequestError = (err: unknown): err is RequestErrorLike =>
  err instanceof Error && err.name === "HttpError" && typeof (err as RequestErrorLike).status === "number";

/** What went wrong, or null when `err` is not a failed GitHub request (an abort, a bug). */
export function githubFailureOf(err: unknown): GithubFailure | null {
  if (!isRequestError(err)) return null;
  const response = err.response;
  if (!response) {
    // No answer: @octokit/request reports network errors and timeouts as a 500 without a response.
    const timedOut = (err.cause as Error | undefined)?.name === "TimeoutError";
    return { status: null, timedOut, rateLimited: false, message: null, acceptedPermissions: null };
  }
  const data = response.data as { message?: unknown } | string | null | undefined;
  const message =
    typeof data === "object" && data !== null && typeof data.message === "string" ? data.message : null;
  const rateLimited =
    err.status === 429 ||
    (err.status === 403 &&
      (response.headers["x-ratelimit-remaining"] === "0" || /\bsecondary rate\b/i.test(message ?? "")));
  return {
    status: err.status,
    timedOut: false,
    rateLimited,
    message,
    acceptedPermissions: response.headers["x-accepted-github-permissions"] ?? null,
  };
}

/**
 * fetch for Octokit, through the outbound guard (`through`): one deadline per request, and redirects
 * followed by hand within the API's origin (a write only on 307/308, which keep the method and body).
 */
function githubFetch(apiOrigin: string, timeoutMs: number, through: typeof fetch): typeof fetch {
  return async (input, init = {}) => {
    const caller = init.signal ?? undefined;
    const signal = AbortSignal.any([AbortSignal.timeout(timeoutMs), ...(caller ? [caller] : [])]);
    const method = (init.method ?? "GET").toUpperCase();
    let url = new URL(input instanceof Request ? input.url : String(input));
    for (let hop = 0; ; hop++) {
      let res: Response;
      try {
        res = await through(url, { ...init, redirect: "manual", signal });
      } catch (err) {
        // The caller's abort stays an abort, which neither the retry plugin nor a caller takes for an outage.
        if (caller?.aborted) throw new DOMException("The GitHub request was aborted.", "AbortError");
        throw err;
      }
      const location = res.headers.get("location");
      if (res.status < 300 || res.status >= 400 || !location || hop >= MAX_REDIRECTS) return res;
      const next = new URL(location, url);
      if (next.origin !== apiOrigin) return res;
      if (method !== "GET" && method !== "HEAD" && res.status !== 307 && res.status !== 308) return res;
      await res.body?.cancel();
      url = next;
    }
  };
}

/**
 * A GitHub client for one token (null: anonymous, for public repositories). Cheap to make: the pacing of
 * a token's writes is shared by every client of that token in the process.
 */
export function githubClient(
  deps: { config: GithubConfig; log: Logger },
  token: string | null,
  opts: GithubClientOptions = {},
): GithubClient {
  const { config } = deps;
  const baseUrl = config.GITHUB_API_URL.replace(/\/$/, "");
  const configuredWaitMs = config.GITHUB_RATE_LIMIT_MAX_WAIT_MS ?? 900_000;
  const maxWaitMs = Math.min(opts.maxRateLimitWaitMs ?? configuredWaitMs, configuredWaitMs);
  const log = deps.log.child({ component: "github" });
  const signal = opts.signal;

  // Waits here (abortably) rather than in the plugin's own timer, so a shutdown is not held up.
  const onLimit =
    (kind: "primary" | "secondary") =>
    async (
      retryAfterSeconds: number,
      options: { method: string; url: string },
      _o: unknown,
      retryCount: number,
    ) => {
      const waitMs = Math.max(0, retryAfterSeconds * 1000);
      const giveUp = retryCount >= MAX_LIMIT_RETRIES || waitMs > maxWaitMs || Boolean(signal?.aborted);
      log.warn("GitHub rate limit", {
        kind,
        request: `${options.method} ${options.url}`,
        retryAfterSeconds,
        retryCount,
        giveUp,
      });
      if (giveUp) return false;
      return sleep(waitMs, undefined, { signal }).then(
        () => true,
        () => false,
      );
    };

  const octokit = new GithubOctokit({
    baseUrl,
    userAgent: USER_AGENT,
    request: {
      fetch: githubFetch(
        new URL(baseUrl).origin,
        config.GITHUB_TIMEOUT_MS ?? 10_000,
        outboundFetch(config, "user"),
      ),
      ...(signal ? { signal } : {}),
    },
    // Octokit's request log carries the request options (headers included): only its one-line summaries
    // are kept, at debug level; an expected 404 (a repository without README) is no error to us.
    log: {
      debug: () => {},
      info: (msg: string) => log.debug(msg),
      warn: (msg: string, err?: unknown) => log.warn(msg, { err: (err as Error | undefined)?.message }),
      error: (msg: string) => log.debug(msg),
    },
    throttle: {
      id: token ? createHash("sha256").update(token).digest("hex").slice(0, 16) : "anonymous",
      ...pacing(config.GITHUB_WRITE_INTERVAL_MS ?? 1000),
      // The handlers above have already waited.
      retryAfterBaseValue: 0,
      // A secondary limit without retry-after: GitHub asks for at least a minute.
      fallbackSecondaryRateRetryAfter: Math.ceil((config.GITHUB_SECONDARY_LIMIT_WAIT_MS ?? 60_000) / 1000),
      onRateLimit: onLimit("primary"),
      onSecondaryRateLimit: onLimit("secondary"),
    },
    retry: {
      retries: opts.retries ?? 0,
      // Rate limits belong to the throttling plugin, which waits for them.
      doNotRetry: [400, 401, 403, 404, 410, 422, 429, 451],
    },
  });
  octokit.hook.before("request", (options) => {
    options.headers["x-github-api-version"] = GITHUB_API_VERSION;
    if (token) options.headers.authorization = `Bearer ${token}`;
  });
  octokit.hook.error("request", (err) => {
    const failure = signal?.aborted ? null : githubFailureOf(err);
    if (!failure) throw err;
    const described = opts.describe?.(failure) ?? describeGithubFailure(failure);
    const retryable = failure.status === null || failure.status >= 500 || failure.rateLimited;
    const body = isRequestError(err) ? (err.response?.data ?? null) : null;
    throw new IntegrationError(described, failure.status, body, retryable);
  });
  return octokit;
}
