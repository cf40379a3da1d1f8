import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { applyWSSHandler } from "@trpc/server/adapters/ws";
import { WebSocketServer } from "ws";
import { authenticate, isSameOriginRequest, REFRESH_COOKIE, readCookies } from "../auth/http-session";
import type { Deps } from "../deps";
import { appRouter } from "../trpc/router";
import { createRealtimeChannels } from "./channels";
import { createExportChannels } from "./export-channel";

const connectionParamsToken = (params: Record<string, string | undefined> | null | undefined) =>
  typeof params?.token === "string" ? params.token : null;

/**
 * One upgrade handler for the shared HTTP port: `/trpc` carries tRPC subscriptions; later issues add
 * the raw `/ws/...` channels here. Browsers authenticate with the session cookie (same-origin checked,
 * against cross-site WebSocket hijacking); API clients pass `connectionParams: { token }`.
 */
export function createWebSockets(deps: Deps) {
  const trpcWss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });
  const trpcHandler = applyWSSHandler({
    wss: trpcWss,
    router: appRouter,
    keepAlive: { enabled: true, pingMs: 30_000, pongWaitMs: 5_000 },
    createContext: async ({ req, info }) => {
      const token = connectionParamsToken(info.connectionParams);
      const auth = await authenticate(deps, token ? `Bearer ${token}` : null, req.headers.cookie);
      return {
        deps,
        user: auth.session?.user ?? null,
        sessionId: auth.session?.sessionId ?? null,
        authVia: auth.via,
        meta: { ip: req.socket.remoteAddress ?? null, userAgent: req.headers["user-agent"] ?? null },
        refreshCookie: null,
        setCookies: null,
        requestId: `ws-${Date.now().toString(36)}`,
      };
    },
  });

  const channels = createRealtimeChannels(deps);
  const exportChannels = createExportChannels(deps);

  function handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer) {
    const url = new URL(req.url ?? "/", "http://localhost");
    const reject = (status: number, text: string) => {
      socket.write(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      socket.destroy();
    };
    const cookies = readCookies(req.headers.cookie);
    if (cookies[REFRESH_COOKIE] || Object.keys(cookies).some((k) => k.startsWith("atomize_"))) {
      const ok = isSameOriginRequest(deps, {
        origin: req.headers.origin ?? null,
        secFetchSite: (req.headers["sec-fetch-site"] as string | undefined) ?? null,
        host: req.headers.host ?? null,
        proto: null,
      });
      if (!ok) return reject(403, "Forbidden");
    }
    if (url.pathname === "/trpc") {
      trpcWss.handleUpgrade(req, socket, head, (ws) => trpcWss.emit("connection", ws, req));
      return;
    }
    if (exportChannels.matches(url.pathname)) {
      exportChannels.handleUpgrade(req, socket, head);
      return;
    }
    if (channels.matches(url.pathname)) {
      channels.handleUpgrade(req, socket, head);
      return;
    }
    reject(404, "Not Found");
  }

  return {
    handleUpgrade,
    /** Tells subscribed clients to reconnect elsewhere, then closes every socket. */
    async close() {
      await channels.close();
      await exportChannels.close();
      trpcHandler.broadcastReconnectNotification();
      for (const client of trpcWss.clients) client.close(1012, "Server restarting");
      await new Promise<void>((resolve) => trpcWss.close(() => resolve()));
      for (const client of trpcWss.clients) client.terminate();
    },
  };
}
