import { createTRPCClient, createWSClient, httpBatchLink, TRPCClientError, wsLink } from "@trpc/client";
import superjson from "superjson";
import WebSocket from "ws";
import type { AppRouter } from "../../src/server/trpc/router";
import type { TestClient } from "./http-client";

/** A typed tRPC client over HTTP batching that shares a TestClient's cookies, Origin and bearer token. */
export function trpcHttp(client: TestClient) {
  return createTRPCClient<AppRouter>({
    links: [
      httpBatchLink({
        url: `${client.baseUrl}/trpc`,
        transformer: superjson,
        headers: () => {
          const h: Record<string, string> = {};
          if (client.cookies.size) h.cookie = client.cookieHeader();
          if (client.origin) h.origin = client.origin;
          if (client.bearer) h.authorization = `Bearer ${client.bearer}`;
          return h;
        },
        fetch: async (url, init) => {
          const res = await fetch(url, init as RequestInit);
          for (const c of res.headers.getSetCookie()) {
            const [pair] = c.split(";");
            const i = pair!.indexOf("=");
            const value = pair!.slice(i + 1);
            if (/max-age=0/i.test(c) || value === "") client.cookies.delete(pair!.slice(0, i));
            else client.cookies.set(pair!.slice(0, i), value);
          }
          return res;
        },
      }),
    ],
  });
}

/** A typed tRPC client over the WebSocket endpoint; authenticates with connectionParams or headers. */
export function trpcWs(baseUrl: string, opts: { token?: string; headers?: Record<string, string> } = {}) {
  const wsUrl = `${baseUrl.replace(/^http/, "ws")}/trpc`;
  class HeaderWebSocket extends WebSocket {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols, { headers: opts.headers });
    }
  }
  const errors: unknown[] = [];
  const wsClient = createWSClient({
    url: wsUrl,
    WebSocket: HeaderWebSocket as unknown as typeof globalThis.WebSocket,
    connectionParams: opts.token ? { token: opts.token } : undefined,
    retryDelayMs: () => 60_000,
    onError: (e) => errors.push(e),
  });
  const client = createTRPCClient<AppRouter>({
    links: [wsLink({ client: wsClient, transformer: superjson })],
  });
  return { client, wsClient, errors, close: () => wsClient.close() };
}

/** The TRPCClientError a call rejects with (fails the test if it resolves or throws anything else). */
export async function trpcError(p: Promise<unknown>) {
  try {
    await p;
  } catch (e) {
    if (e instanceof TRPCClientError)
      return e as Error & { data: Record<string, any>; meta?: Record<string, unknown> };
    throw e;
  }
  throw new Error("expected a TRPCClientError");
}
