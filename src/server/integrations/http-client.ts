import { setTimeout as sleep } from "node:timers/promises";
import { type Described, IntegrationError, TIMED_OUT, UNREACHABLE } from "./errors";

const WINDOW_MARGIN_MS = 100;

export type HttpResponse<T = unknown> = { status: number; body: T; headers: Headers };

export type HttpClientOptions = {
  baseUrl: string;
  /**
   * The outbound guard's fetch (lib/outbound/fetch.ts `outboundFetch`): every site these clients call was
   * typed by a person or set by the operator, and is reached only as the guard allows.
   */
  fetch: typeof fetch;
  headers?: Record<string, string>;
  /** Requests in flight at once. */
  concurrency: number;
  /** At most `limit` requests in any `windowMs` (a sliding window, so a fixed-window server never sees more). */
  rateLimit?: { limit: number; windowMs: number };
  /**
   * Waits for a place in the budgets every job and process shares (lib/rate-budget.ts) before each request
   * to `path`: the service's limits hold per token, not per client.
   */
  shared?: (path: string) => Promise<void>;
  retries?: number;
  timeoutMs?: number;
  /** Back-off when a 429 carries no Retry-After (Trello sends none). */
  defaultRetryAfterMs?: number;
  /**
   * How long this client may wait in all for rate limits (Retry-After is honoured in full: JIRA penalises
   * early retries). A wait beyond what is left ends the request with a retryable error carrying the wait,
   * so the export job comes back when the service asked, instead of holding a worker.
   */
  retryBudgetMs?: number;
  signal?: AbortSignal;
  /** Words an answer that is an error (a 4xx, or a 429/5xx once the retries are spent). */
  describe: (status: number, body: unknown) => Described;
  /** What to say when the service gave no answer (network error, or no answer within `timeoutMs`). */
  unreachable?: string;
  timedOut?: string;
};

/**
 * The one HTTP client for JIRA, Confluence and Trello (GitHub has its own, github/client.ts): JSON in
 * and out, bounded concurrency, a client-side rate limit, Retry-After honoured on 429/503, exponential
 * back-off on 5xx, timeouts and network errors, and failures as IntegrationError (an AppError). It logs
 * nothing, so neither the credentials in its headers nor a key in a query string can reach a log.
 */
export function createHttpClient(opts: HttpClientOptions) {
  let active = 0;
  const waiting: Array<() => void> = [];
  const sent: number[] = [];
  let requests = 0;
  let waited = 0;
  const budget = opts.retryBudgetMs ?? 600_000;

  async function acquire() {
    if (active >= opts.concurrency) await new Promise<void>((resolve) => waiting.push(resolve));
    active += 1;
    if (opts.rateLimit) {
      const { limit, windowMs } = opts.rateLimit;
      for (;;) {
        const now = Date.now();
        while (sent.length && sent[0]! <= now - windowMs - WINDOW_MARGIN_MS) sent.shift();
        if (sent.length < limit) break;
        // A little past the window, so a server counting by arrival time never sees one too many.
        await sleep(sent[0]! + windowMs - now + WINDOW_MARGIN_MS, undefined, { signal: opts.signal });
      }
      sent.push(Date.now());
    }
  }
  function release() {
    active -= 1;
    waiting.shift()?.();
  }

  async function request<T = unknown>(
    method: string,
    path: string,
    init: {
      json?: unknown;
      query?: Record<string, string | number | boolean | undefined>;
      expect?: number[];
      /**
       * A write that must not be sent twice (it creates something). After a timeout, a lost connection or
       * a 5xx it is not re-sent: the answer may have been lost after the write succeeded. It fails with a
       * retryable IntegrationError marked `unconfirmed`, and the exporter first looks for what it made.
       */
      create?: boolean;
    } = {},
  ): Promise<HttpResponse<T>> {
    const url = new URL(path.startsWith("http") ? path : `${opts.baseUrl.replace(/\/$/, "")}${path}`);
    for (const [k, v] of Object.entries(init.query ?? {}))
      if (v !== undefined) url.searchParams.set(k, String(v));
    const retries = opts.retries ?? 5;
    for (let attempt = 0; ; attempt++) {
      opts.signal?.throwIfAborted();
      await opts.shared?.(url.pathname);
      await acquire();
      let res: Response;
      try {
        requests += 1;
        res = await opts.fetch(url, {
          method,
          headers: {
            accept: "application/json",
            ...(init.json !== undefined ? { "content-type": "application/json" } : {}),
            ...opts.headers,
          },
          body: init.json !== undefined ? JSON.stringify(init.json) : undefined,
          signal: AbortSignal.any([
            AbortSignal.timeout(opts.timeoutMs ?? 20_000),
            ...(opts.signal ? [opts.signal] : []),
          ]),
          redirect: "error",
        });
      } catch (err) {
        release();
        opts.signal?.throwIfAborted();
        if (attempt >= retries || init.create) {
          const timedOut = (err as Error).name === "TimeoutError";
          throw new IntegrationError(
            timedOut ? (opts.timedOut ?? TIMED_OUT) : (opts.unreachable ?? UNREACHABLE),
            null,
            null,
            true,
            { unconfirmed: Boolean(init.create) },
          );
        }
        await sleep(backoff(attempt), undefined, { signal: opts.signal });
        continue;
      }
      const text = await res.text().catch(() => "");
      release();
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        // plain-text bodies (Trello) stay strings
      }
      if (res.ok || init.expect?.includes(res.status))
        return { status: res.status, body: body as T, headers: res.headers };
      const retryable = res.status === 429 || res.status >= 500;
      // A 429 was refused before any work; a 5xx may have come after the write succeeded.
      const unconfirmed = Boolean(init.create) && res.status >= 500;
      if (retryable && attempt < retries && !unconfirmed) {
        const wait =
          retryAfterMs(res.headers) ??
          (res.status === 429 ? (opts.defaultRetryAfterMs ?? 1000) * 2 ** attempt : backoff(attempt));
        if (waited + wait > budget) {
          throw new IntegrationError(opts.describe(res.status, body), res.status, body, true, {
            retryAfterMs: wait,
          });
        }
        waited += wait;
        await sleep(wait, undefined, { signal: opts.signal });
        continue;
      }
      throw new IntegrationError(opts.describe(res.status, body), res.status, body, retryable, {
        unconfirmed,
        retryAfterMs: retryAfterMs(res.headers) ?? undefined,
      });
    }
  }

  return { request, requestCount: () => requests };
}

export type HttpClient = ReturnType<typeof createHttpClient>;

function backoff(attempt: number) {
  return Math.min(8000, 250 * 2 ** attempt) + Math.floor(Math.random() * 100);
}

function retryAfterMs(headers: Headers): number | null {
  const v = headers.get("retry-after");
  if (!v) return null;
  const seconds = Number(v);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(v);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : null;
}
