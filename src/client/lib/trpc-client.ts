import {
  createTRPCClient,
  createWSClient,
  httpBatchLink,
  httpLink,
  splitLink,
  type TRPCClient,
  wsLink,
} from "@trpc/client";
import superjson from "superjson";
import { HEAVY_PROCEDURES } from "../../shared/batch-cost";
import { TRPC_KEEPALIVE } from "../../shared/realtime-keepalive";
import { PublicApiError } from "./api-error";
import { authRefreshLink } from "./auth-refresh-link";
import { RECONNECT_ATTEMPTS, reconnectDelayMs, setRealtimeGaveUp } from "./realtime-connection";
import type { AppRouter } from "./trpc";

/** API time-out 30 s, refresh time-out 10 s. */
export const API_TIMEOUT_MS = 30_000;
export const REFRESH_TIMEOUT_MS = 10_000;
const TRPC_URL = "/trpc";

/** fetch with the session cookies and a time-out, still honouring React Query's own abort signal. */
function fetchWithCredentials(timeoutMs: number) {
  return (input: RequestInfo | URL | string, init?: RequestInit) => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal =
      init?.signal && typeof AbortSignal.any === "function"
        ? AbortSignal.any([init.signal, timeout])
        : timeout;
    return fetch(input, { ...init, credentials: "include", signal });
  };
}

function wsUrl(): string {
  const { protocol, host } = window.location;
  return `${protocol === "https:" ? "wss:" : "ws:"}//${host}${TRPC_URL}`;
}

// -- session refresh: one plain client (no refresh link, so no recursion), one shared promise ---------
const refreshClient = createTRPCClient<AppRouter>({
  links: [
    httpLink({ url: TRPC_URL, transformer: superjson, fetch: fetchWithCredentials(REFRESH_TIMEOUT_MS) }),
  ],
});

let refreshing: Promise<void> | null = null;

/** Rotates the session cookies with the refresh cookie; concurrent callers share one request. */
export function refreshSession(): Promise<void> {
  refreshing ??= refreshClient.auth.refresh
    .mutate({})
    .then(() => undefined)
    .finally(() => {
      refreshing = null;
    });
  return refreshing;
}

/**
 * A signed-in read of the REST API, made as the tRPC calls are (session cookies, time-out, one refresh and
 * retry on 401), and revalidated by the browser's HTTP cache: an answer with an entity tag (a whole plan's
 * tree) comes back as 304 while it has not changed, and the browser gives its kept copy.
 */
export async function getApiJson<T>(path: string, signal?: AbortSignal): Promise<T> {
  const get = () =>
    fetchWithCredentials(API_TIMEOUT_MS)(path, {
      cache: "no-cache",
      headers: { accept: "application/json" },
      signal,
    });
  let res = await get();
  if (res.status === 401) {
    await refreshSession();
    res = await get();
  }
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { detail?: unknown } | null;
    throw new PublicApiError(res.status, typeof body?.detail === "string" ? body.detail : undefined);
  }
  return (await res.json()) as T;
}

export type AppTRPCClient = TRPCClient<AppRouter>;

let realtime: ReturnType<typeof createWSClient> | null = null;

/**
 * The server resolves a WebSocket's user once, when it connects: after signing in or out, close the
 * socket so the next subscription reconnects with the new session cookies.
 */
export function resetRealtimeConnection(): void {
  void realtime?.close();
}

/** The app's client: 401 refresh-retry, then subscriptions over WebSocket and everything else batched. */
export function createAppTRPCClient(opts: { onSessionExpired: () => void }): AppTRPCClient {
  // One socket per page, however many clients are built (StrictMode runs state initialisers twice).
  realtime ??= createWSClient({
    url: wsUrl,
    lazy: { enabled: true, closeMs: 10_000 },
    // The socket's one liveness check: tRPC's PING after 30 s of silence; a socket that does not answer
    // within 5 s counts as dropped and reconnects (the server pings only clients silent for longer).
    keepAlive: {
      enabled: true,
      intervalMs: TRPC_KEEPALIVE.clientPingMs,
      pongTimeoutMs: TRPC_KEEPALIVE.pongTimeoutMs,
    },
    // Up to 5 attempts, 1 s doubling (capped at 30 s). Then the socket closes until something
    // asks again (the indicator's Reconnect, the browser coming back online, or a new subscription).
    retryDelayMs: (attemptIndex) => {
      if (attemptIndex >= RECONNECT_ATTEMPTS) {
        setRealtimeGaveUp(true);
        void realtime?.close();
        return 0;
      }
      return reconnectDelayMs(attemptIndex);
    },
    onOpen: () => setRealtimeGaveUp(false),
  });
  return createTRPCClient<AppRouter>({
    links: [
      authRefreshLink<AppRouter>({ refresh: refreshSession, onRefreshFailed: opts.onSessionExpired }),
      splitLink({
        condition: (op) => op.type === "subscription",
        true: wsLink<AppRouter>({
          client: realtime,
          transformer: superjson,
        }),
        // A whole-plan read goes on its own: the server bounds a batch by its cost (shared/batch-cost.ts).
        false: splitLink({
          condition: (op) => HEAVY_PROCEDURES.has(op.path),
          true: httpLink({
            url: TRPC_URL,
            transformer: superjson,
            fetch: fetchWithCredentials(API_TIMEOUT_MS),
          }),
          false: httpBatchLink({
            url: TRPC_URL,
            transformer: superjson,
            fetch: fetchWithCredentials(API_TIMEOUT_MS),
          }),
        }),
      }),
    ],
  });
}
