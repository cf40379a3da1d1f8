import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { type WebSocket, WebSocketServer } from "ws";
import type { Deps } from "../deps";
import { isSameOriginRequest, REFRESH_COOKIE, readCookies } from "../http/session-cookies";
import { createSessionSockets } from "../http/session-sockets";
import { createRealtimeChannels } from "./channels";
import { guardSocket } from "./socket-guard";

/** Parses an upgrade target; anything unparsable (`//[`, `http://a:99999/`) is null, never a throw. */
export function parseTarget(target: string | undefined): URL | null {
  if (!target?.startsWith("/") || target.startsWith("//")) return null;
  try {
    return new URL(target, "http://localhost");
  } catch {
    return null;
  }
}

/**
 * One upgrade handler for the shared HTTP port: `/trpc` carries tRPC subscriptions, `/ws/...` the raw
 * channels. Browsers authenticate with the session cookie (same-origin checked, against cross-site
 * WebSocket hijacking); API clients pass `connectionParams: { token }`, `?token=` or an
 * `Authorization: Bearer` header on the upgrade (a browser cannot set one, so it needs no origin check).
 * Every socket is guarded from its first byte (socket-guard.ts) and closed when its session ends, or
 * its API token is revoked or expires.
 * Liveness, one mechanism per transport: tRPC's keepAlive on /trpc (TRPC_KEEPALIVE), protocol pings on
 * the raw /ws channels (keepSocketsAlive).
 */
/** How the `/trpc` sockets are served: given by server.ts (trpc/websocket.ts), so this adapter imports no other. */
export type TrpcSockets = (
  wss: WebSocketServer,
  track: (sessionId: string, ws: WebSocket) => void,
) => (ws: WebSocket, req: IncomingMessage) => void;

export async function createWebSockets(deps: Deps, opts: { trpc: TrpcSockets }) {
  const limits = { maxBufferedBytes: deps.config.WS_MAX_BUFFERED_BYTES };
  const sessionSockets = await createSessionSockets(deps);
  const trpcWss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });
  const onTrpcConnection = opts.trpc(trpcWss, (sessionId, ws) => sessionSockets.track(sessionId, ws));
  trpcWss.on("connection", (ws: WebSocket, req: IncomingMessage) => {
    guardSocket(ws, limits, deps.log, "trpc");
    onTrpcConnection(ws, req);
  });

  const channels = createRealtimeChannels(deps, { limits, sessionSockets });

  function handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer) {
    // A reset or garbage on the raw socket before the handshake completes must not end the process.
    socket.on("error", (err) => deps.log.debug("upgrade socket error", { reason: err.message }));
    const reject = (status: number, text: string) => {
      if (socket.writable) {
        socket.write(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      }
      socket.destroy();
    };
    const url = parseTarget(req.url);
    if (!url) return reject(400, "Bad Request");
    if ((req.headers.upgrade ?? "").toLowerCase() !== "websocket") return reject(400, "Bad Request");
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
    if (channels.matches(url.pathname)) return channels.handleUpgrade(req, socket, head, url);
    reject(404, "Not Found");
  }

  return {
    handleUpgrade,
    /** Tells subscribed clients to reconnect elsewhere, then closes every socket. */
    async close() {
      await sessionSockets.close();
      await channels.close();
      // tRPC's reconnect notification (what applyWSSHandler's broadcastReconnectNotification sends).
      const reconnect = JSON.stringify({ id: null, method: "reconnect" });
      for (const client of trpcWss.clients) if (client.readyState === client.OPEN) client.send(reconnect);
      for (const client of trpcWss.clients) client.close(1012, "Server restarting");
      await new Promise<void>((resolve) => trpcWss.close(() => resolve()));
      for (const client of trpcWss.clients) client.terminate();
    },
  };
}
