import type { IncomingMessage } from "node:http";
import { type WebSocket, WebSocketServer } from "ws";
import { clientChannelMessage, REALTIME_CLOSE } from "../../shared/schemas/realtime";
import { authenticate } from "../auth/http-session";
import type { Deps } from "../deps";
import { reportUnexpected } from "../errors";
import { getOwnedRow } from "../services/tasks/tasks";
import type { SessionSockets } from "./session-sockets";
import { guardSocket, keepSocketsAlive, type SocketLimits } from "./socket-guard";
import { taskEventStream, toClient } from "./task-events";

const HISTORY_LIMIT = 100;
const TASK_PATH = /^\/ws\/tasks\/([^/]+)$/;

/** A malformed escape (`%E0%A4%A`) is an id that matches nothing, not an exception. */
export function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * The raw WebSocket channels: `/ws/global` (every event of the caller's tasks) and
 * `/ws/tasks/{taskId}` (one task tree). Authentication: `Authorization: Bearer` or `?token=` (API
 * clients) or the session cookie (the SPA). A bad token or another user's task closes the socket with
 * a 44xx code and a reason.
 */
export function createRealtimeChannels(
  deps: Deps,
  opts: { limits: SocketLimits; sessionSockets: SessionSockets },
) {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 16 * 1024 });
  keepSocketsAlive(wss, deps.config.WS_PING_MS);
  /** Open sockets, closed with "restarting" at shutdown. */
  const sockets = new Set<WebSocket>();

  wss.on("connection", (ws: WebSocket, req: IncomingMessage, url: URL) => {
    guardSocket(ws, opts.limits, deps.log, "realtime");
    void accept(ws, req, url).catch((err) => {
      // An AppError closes with its own code; anything else is logged once and closes with 1011.
      const failure = reportUnexpected(deps.log, err, { channel: "realtime" });
      ws.close(
        failure.wsCloseCode,
        failure.code === "INTERNAL_SERVER_ERROR" ? "Internal error" : failure.message.slice(0, 60),
      );
    });
  });

  async function accept(ws: WebSocket, req: IncomingMessage, url: URL) {
    const auth = await authenticate(
      deps,
      req.headers.authorization,
      req.headers.cookie,
      url.searchParams.get("token"),
    );
    if (!auth.session) {
      ws.close(REALTIME_CLOSE.unauthorized.code, REALTIME_CLOSE.unauthorized.reason);
      return;
    }
    const userId = auth.session.user.id;
    opts.sessionSockets.track(auth.session.sessionId, ws);
    let rootTaskId: string | null = null;
    let channel = "global";
    const m = url.pathname.match(TASK_PATH);
    if (m) {
      try {
        const row = await getOwnedRow(deps, userId, safeDecode(m[1]!));
        rootTaskId = row.rootTaskId ?? row.id;
        channel = `tasks/${row.id}`;
      } catch {
        ws.close(REALTIME_CLOSE.notFound.code, REALTIME_CLOSE.notFound.reason);
        return;
      }
    }
    if (ws.readyState !== ws.OPEN) return; // closed while we were authenticating
    sockets.add(ws);
    const closed = new AbortController();
    ws.on("close", () => closed.abort());
    ws.send(
      JSON.stringify({
        type: "connection_established",
        channel,
        task_id: rootTaskId,
        timestamp: new Date().toISOString(),
      }),
    );
    // History first, then live events, from the one task-event source the tRPC subscriptions use too.
    void (async () => {
      const filter = { userId, rootTaskId: rootTaskId ?? undefined };
      for await (const item of taskEventStream(
        deps,
        filter,
        { historyLimit: HISTORY_LIMIT },
        closed.signal,
      )) {
        if (ws.readyState !== ws.OPEN) break;
        if ("history" in item) {
          const events = item.history.map((e) => ({ channel, data: toClient(e), timestamp: e.timestamp }));
          ws.send(JSON.stringify({ type: "event_history", events }));
        } else ws.send(JSON.stringify(toClient(item.live)));
      }
    })().catch((err) => {
      const failure = reportUnexpected(deps.log, err, { channel: "realtime" });
      if (ws.readyState === ws.OPEN) ws.close(failure.wsCloseCode, "Internal error");
    });

    ws.on("message", (raw) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw.toString());
      } catch {
        parsed = null;
      }
      // An application heartbeat a client sends is answered (part of the channel's contract); liveness
      // itself is the protocol ping of keepSocketsAlive.
      const msg = clientChannelMessage.safeParse(parsed);
      if (!msg.success) {
        ws.send(JSON.stringify({ type: "error", message: 'Unknown message: send {"type":"heartbeat"}' }));
        return;
      }
      ws.send(JSON.stringify({ type: msg.data.type, timestamp: new Date().toISOString() }));
    });
    ws.on("close", () => {
      sockets.delete(ws);
    });
  }

  return {
    matches: (pathname: string) => pathname === "/ws/global" || TASK_PATH.test(pathname),
    handleUpgrade: (req: IncomingMessage, socket: import("node:stream").Duplex, head: Buffer, url: URL) =>
      wss.handleUpgrade(req, socket, head, (ws) => wss.emit("connection", ws, req, url)),
    async close() {
      for (const ws of sockets) ws.close(REALTIME_CLOSE.restarting.code, REALTIME_CLOSE.restarting.reason);
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
