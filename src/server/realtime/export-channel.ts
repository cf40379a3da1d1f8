import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { type WebSocket, WebSocketServer } from "ws";
import type { ExportKind, ExportMessage } from "../../shared/schemas/integrations";
import { REALTIME_CLOSE } from "../../shared/schemas/realtime";
import { authenticate } from "../auth/http-session";
import type { Deps } from "../deps";
import { reportUnexpected } from "../errors";
import { type ExportRow, getOwnedExport, toExportView } from "../services/exports/exports";
import { safeDecode } from "./channels";
import type { BusEvent } from "./event-bus";
import type { SessionSockets } from "./session-sockets";
import { guardSocket, keepSocketsAlive, type SocketLimits } from "./socket-guard";

const PATH = /^\/ws\/(jira|trello|github)-export\/([^/]+)$/;

function toMessage(kind: ExportKind, e: BusEvent): ExportMessage | null {
  const d = e.data as Record<string, unknown>;
  if (e.type === "export.progress") {
    return {
      type: `${kind}.export.progress`,
      step: String(d.step),
      progress: Number(d.progress),
      message: e.message ?? "",
    };
  }
  if (e.type === "export.success") {
    const { export_id: _id, kind: _k, ...result } = d;
    return { type: `${kind}.export.success`, ...result };
  }
  if (e.type === "export.error")
    return { type: `${kind}.export.error`, message: e.message ?? "Export failed" };
  return null;
}

/** The messages of one export: where it stands now (so a reload or a second tab can watch), then live ones. */
export async function* exportMessages(
  deps: Deps,
  row: ExportRow,
  signal?: AbortSignal,
): AsyncGenerator<ExportMessage> {
  const kind = row.kind as ExportKind;
  const queue: ExportMessage[] = [];
  let wake: (() => void) | null = null;
  let finished = false;
  const unsubscribe = deps.events.subscribe((e) => {
    if (e.user_id !== row.userId || (e.data as { export_id?: string }).export_id !== row.id) return;
    const m = toMessage(kind, e);
    if (m) {
      queue.push(m);
      wake?.();
    }
  });
  const onAbort = () => wake?.();
  signal?.addEventListener("abort", onAbort);
  try {
    yield { type: "connection_established", export_id: row.id };
    const now = toExportView(await getOwnedExport(deps, row.userId, row.id));
    yield {
      type: `${kind}.export.progress`,
      step: now.step ?? "queued",
      progress: now.progress,
      message: now.message ?? "",
    };
    if (now.status === "completed") {
      yield { type: `${kind}.export.success`, ...(now.result ?? {}) };
      return;
    }
    if (now.status === "failed") {
      yield { type: `${kind}.export.error`, message: now.error ?? "Export failed" };
      return;
    }
    let last = now.progress;
    while (!signal?.aborted && !finished) {
      const m = queue.shift();
      if (!m) {
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = null;
        continue;
      }
      if ("progress" in m && typeof m.progress === "number") {
        if (m.progress < last) continue; // never backwards, even if a stale event arrives late
        last = m.progress;
      }
      if (m.type.endsWith(".success") || m.type.endsWith(".error")) finished = true;
      yield m;
    }
  } finally {
    unsubscribe();
    signal?.removeEventListener("abort", onAbort);
  }
}

/** `/ws/jira-export/{id}` and `/ws/trello-export/{id}` (and github): the owner only; others get 4404. */
export function createExportChannels(
  deps: Deps,
  opts: { limits: SocketLimits; sessionSockets: SessionSockets },
) {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 4096 });
  keepSocketsAlive(wss, deps.config.WS_PING_MS);
  const open = new Set<WebSocket>();
  wss.on("connection", (ws: WebSocket, req: IncomingMessage, url: URL) => {
    guardSocket(ws, opts.limits, deps.log, "export");
    void (async () => {
      const m = url.pathname.match(PATH)!;
      const auth = await authenticate(deps, null, req.headers.cookie, url.searchParams.get("token"));
      if (!auth.session)
        return ws.close(REALTIME_CLOSE.unauthorized.code, REALTIME_CLOSE.unauthorized.reason);
      opts.sessionSockets.track(auth.session.sessionId, ws);
      let row: ExportRow;
      try {
        row = await getOwnedExport(deps, auth.session.user.id, safeDecode(m[2]!));
      } catch {
        return ws.close(REALTIME_CLOSE.notFound.code, "Export not found");
      }
      if (row.kind !== m[1]) return ws.close(REALTIME_CLOSE.notFound.code, "Export not found");
      if (ws.readyState !== ws.OPEN) return;
      open.add(ws);
      const abort = new AbortController();
      ws.on("close", () => {
        abort.abort();
        open.delete(ws);
      });
      ws.on("message", () => {}); // heartbeats are welcome, nothing to answer
      for await (const message of exportMessages(deps, row, abort.signal)) {
        if (ws.readyState !== ws.OPEN) break;
        ws.send(JSON.stringify(message));
      }
    })().catch((err) => {
      // An AppError closes with its own code; anything else is logged once and closes with 1011.
      const failure = reportUnexpected(deps.log, err, { channel: "export" });
      ws.close(
        failure.wsCloseCode,
        failure.code === "INTERNAL_SERVER_ERROR" ? "Internal error" : failure.message.slice(0, 60),
      );
    });
  });
  return {
    matches: (pathname: string) => PATH.test(pathname),
    handleUpgrade: (req: IncomingMessage, socket: Duplex, head: Buffer, url: URL) =>
      wss.handleUpgrade(req, socket, head, (ws) => wss.emit("connection", ws, req, url)),
    async close() {
      for (const ws of open) ws.close(REALTIME_CLOSE.restarting.code, REALTIME_CLOSE.restarting.reason);
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
