import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { getWSConnectionHandler } from "@trpc/server/adapters/ws";
import type { WebSocket, WebSocketServer } from "ws";
import { TRPC_KEEPALIVE } from "../../shared/realtime-keepalive";
import type { Deps } from "../deps";
import { authenticate } from "../http/session-cookies";
import { callerContext } from "../operations/context";
import { appRouter } from "./router";
import type { Context } from "./trpc-context";

const connectionParamsToken = (params: Record<string, string | undefined> | null | undefined) =>
  typeof params?.token === "string" ? params.token : null;

/** What the shared upgrade handler (realtime/websocket.ts) calls for each socket on `/trpc`. */
export type TrpcConnection = (ws: WebSocket, req: IncomingMessage) => void;

/**
 * tRPC over WebSocket: subscriptions, with tRPC's keepAlive. A socket authenticates with
 * `connectionParams: { token }`, an `Authorization` header or the session cookie; `track` is told which
 * session it belongs to, so it is closed when that session ends. server.ts hands this to the realtime
 * adapter, which owns the port's upgrades and never imports tRPC itself.
 */
export function trpcConnection(
  deps: Deps,
  wss: WebSocketServer,
  track: (sessionId: string, ws: WebSocket) => void,
): TrpcConnection {
  return getWSConnectionHandler({
    wss, // required by the type; the connection listener is the realtime adapter's, not tRPC's
    router: appRouter,
    keepAlive: {
      enabled: true,
      pingMs: TRPC_KEEPALIVE.serverPingMs,
      pongWaitMs: TRPC_KEEPALIVE.pongTimeoutMs,
    },
    createContext: async ({ req, res, info }): Promise<Context> => {
      const token = connectionParamsToken(info.connectionParams);
      const authorization = token ? `Bearer ${token}` : req.headers.authorization;
      const auth = await authenticate(deps, authorization, req.headers.cookie);
      if (auth.session) track(auth.session.sessionId, res as WebSocket);
      const requestId = `ws-${randomUUID()}`;
      return {
        ...callerContext({
          deps,
          session: auth.session,
          meta: { ip: req.socket.remoteAddress ?? null, userAgent: req.headers["user-agent"] ?? null },
          log: deps.log.child({ requestId }),
          persistent: true,
        }),
        authVia: auth.via,
        requestId,
        connection: { subscriptions: 0 },
      };
    },
  });
}
