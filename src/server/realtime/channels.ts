import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { type WebSocket, WebSocketServer } from "ws";
import { EXPORT_KINDS } from "../../shared/schemas/integrations";
import {
  clientChannelMessage,
  type PlanViewer,
  type PresenceMessage,
  REALTIME_CLOSE,
} from "../../shared/schemas/realtime";
import type { Deps } from "../deps";
import { reportUnexpected } from "../errors";
import { authenticate } from "../http/session-cookies";
import type { SessionSockets } from "../http/session-sockets";
import { callerContext } from "../operations/context";
import type { OperationContext } from "../operations/define";
import { openStream, streams, type TaskEventsStream } from "../operations/streams";
import { guardSocket, keepSocketsAlive, type SocketLimits } from "./socket-guard";

/**
 * The raw WebSocket channels of the product's contract, each serving a stream declared once in
 * operations/streams.ts (the tRPC subscriptions serve the same streams):
 *   - `/ws/global`: every event of the caller's tasks; `/ws/tasks/{taskId}`: one task tree. First
 *     `connection_established`, then the recent history as one `event_history` message, then each event;
 *     a client's `{"type":"heartbeat"}` is answered. A plan's channel also sends `{"type":"presence",
 *     viewers}` whenever who has the plan open changes (its own client counts while it is open).
 *   - `/ws/{jira|trello|github}-export/{exportId}`: the export's state now, then its progress.
 * Authentication: `Authorization: Bearer` or `?token=` (API clients) or the session cookie (the SPA). A
 * bad token closes the socket with 4401; another user's task or export (or none) with 4404.
 */

const TASK_PATH = /^\/ws\/tasks\/([^/]+)$/;
const EXPORT_PATH = new RegExp(`^/ws/(${EXPORT_KINDS.join("|")})-export/([^/]+)$`);

/** A malformed escape (`%E0%A4%A`) is an id that matches nothing, not an exception. */
export function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** What one open channel does: open its stream for the caller, then send its messages. */
type Channel = {
  /** The reason a 4404 close gives. */
  notFound: string;
  serve(ws: WebSocket, ctx: OperationContext, signal: AbortSignal): Promise<(() => Promise<void>) | null>;
};

function taskChannel(taskId: string | null): Channel {
  return {
    notFound: REALTIME_CLOSE.notFound.reason,
    async serve(ws, ctx, signal) {
      const opened: TaskEventsStream = taskId
        ? await openStream(streams.taskEvents, ctx, { taskId }, signal)
        : await openStream(streams.userEvents, ctx, undefined, signal);
      // A plan's channel also says who has the plan open, its client among them (issue 41).
      const presence = taskId ? await openStream(streams.planPresence, ctx, { taskId }, signal) : null;
      const channel = opened.taskId ? `tasks/${opened.taskId}` : "global";
      return async () => {
        ws.send(
          JSON.stringify({
            type: "connection_established",
            channel,
            task_id: opened.rootTaskId,
            timestamp: new Date().toISOString(),
          }),
        );
        ws.on("message", (raw) => answerHeartbeat(ws, raw));
        if (presence) void sendPresence(ws, presence);
        for await (const item of opened.events) {
          if (ws.readyState !== ws.OPEN) break;
          if ("history" in item) {
            const events = item.history.map((e) => ({ channel, data: e, timestamp: e.timestamp }));
            ws.send(JSON.stringify({ type: "event_history", events }));
          } else ws.send(JSON.stringify(item.live));
        }
      };
    },
  };
}

function exportChannel(kind: string, id: string): Channel {
  return {
    notFound: "Export not found",
    async serve(ws, ctx, signal) {
      const messages = await openStream(streams.exportEvents, ctx, { id, kind }, signal);
      return async () => {
        ws.on("message", () => {}); // heartbeats are welcome, nothing to answer
        for await (const message of messages) {
          if (ws.readyState !== ws.OPEN) break;
          ws.send(JSON.stringify(message));
        }
      };
    },
  };
}

async function sendPresence(ws: WebSocket, viewers: AsyncIterable<PlanViewer[]>) {
  for await (const list of viewers) {
    if (ws.readyState !== ws.OPEN) break;
    const message: PresenceMessage = { type: "presence", viewers: list, timestamp: new Date().toISOString() };
    ws.send(JSON.stringify(message));
  }
}

/** An application heartbeat a client sends is answered (liveness itself is the protocol ping). */
function answerHeartbeat(ws: WebSocket, raw: unknown) {
  let parsed: unknown;
  try {
    parsed = JSON.parse(String(raw));
  } catch {
    parsed = null;
  }
  const msg = clientChannelMessage.safeParse(parsed);
  if (!msg.success) {
    ws.send(JSON.stringify({ type: "error", message: 'Unknown message: send {"type":"heartbeat"}' }));
    return;
  }
  ws.send(JSON.stringify({ type: msg.data.type, timestamp: new Date().toISOString() }));
}

/** The channel a path names, with its socket server's label and message limit; null for any other path. */
function route(pathname: string): { label: "realtime" | "export"; channel: Channel } | null {
  if (pathname === "/ws/global") return { label: "realtime", channel: taskChannel(null) };
  const task = pathname.match(TASK_PATH);
  if (task) return { label: "realtime", channel: taskChannel(safeDecode(task[1]!)) };
  const exp = pathname.match(EXPORT_PATH);
  if (exp) return { label: "export", channel: exportChannel(exp[1]!, safeDecode(exp[2]!)) };
  return null;
}

export function createRealtimeChannels(
  deps: Deps,
  opts: { limits: SocketLimits; sessionSockets: SessionSockets },
) {
  // Clients only send heartbeats: task channels take small messages, export channels smaller ones.
  const servers = {
    realtime: new WebSocketServer({ noServer: true, maxPayload: 16 * 1024 }),
    export: new WebSocketServer({ noServer: true, maxPayload: 4096 }),
  };
  /** Open sockets, closed with "restarting" at shutdown. */
  const sockets = new Set<WebSocket>();

  for (const [label, wss] of Object.entries(servers)) {
    keepSocketsAlive(wss, deps.config.WS_PING_MS);
    wss.on("connection", (ws: WebSocket, req: IncomingMessage, url: URL, channel: Channel) => {
      guardSocket(ws, opts.limits, deps.log, label);
      void accept(ws, req, url, channel).catch((err) => {
        // An AppError closes with its own code; anything else is logged once and closes with 1011.
        const failure = reportUnexpected(deps.log, err, { channel: label });
        if (ws.readyState === ws.OPEN || ws.readyState === ws.CONNECTING)
          ws.close(
            failure.wsCloseCode,
            failure.code === "INTERNAL_SERVER_ERROR" ? "Internal error" : failure.message.slice(0, 60),
          );
      });
    });
  }

  async function accept(ws: WebSocket, req: IncomingMessage, url: URL, channel: Channel) {
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
    opts.sessionSockets.track(auth.session.sessionId, ws);
    const ctx = callerContext({
      deps,
      session: auth.session,
      meta: { ip: req.socket.remoteAddress ?? null, userAgent: req.headers["user-agent"] ?? null },
      log: deps.log,
    });
    const closed = new AbortController();
    ws.on("close", () => {
      closed.abort();
      sockets.delete(ws);
    });
    let send: (() => Promise<void>) | null;
    try {
      send = await channel.serve(ws, ctx, closed.signal);
    } catch {
      // Not the caller's (or not there, or not a valid id): all read alike.
      ws.close(REALTIME_CLOSE.notFound.code, channel.notFound);
      return;
    }
    if (!send || ws.readyState !== ws.OPEN) return; // closed while we were authenticating
    sockets.add(ws);
    await send();
  }

  return {
    matches: (pathname: string) => route(pathname) !== null,
    handleUpgrade: (req: IncomingMessage, socket: Duplex, head: Buffer, url: URL) => {
      const found = route(url.pathname)!;
      const wss = servers[found.label];
      wss.handleUpgrade(req, socket, head, (ws) => wss.emit("connection", ws, req, url, found.channel));
    },
    async close() {
      for (const ws of sockets) ws.close(REALTIME_CLOSE.restarting.code, REALTIME_CLOSE.restarting.reason);
      await Promise.all(
        Object.values(servers).map((wss) => new Promise<void>((resolve) => wss.close(() => resolve()))),
      );
    },
  };
}
