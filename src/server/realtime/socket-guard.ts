import type { WebSocket, WebSocketServer } from "ws";
import type { Logger } from "../lib/logger";

export type SocketLimits = { maxBufferedBytes: number };

/**
 * Call synchronously as soon as a socket exists, before any await: a frame can arrive (and be refused)
 * at once. `ws` answers a protocol error itself by closing that socket with the matching code (1002 for
 * a reserved opcode or an unmasked frame, 1007 for invalid UTF-8, 1009 for a frame over maxPayload) and
 * then emits `error`; without a listener that `error` would end the whole process.
 *
 * Sends also stop at `maxBufferedBytes` waiting for the client: a client that does not read is
 * disconnected instead of growing the server's memory.
 */
export function guardSocket(ws: WebSocket, limits: SocketLimits, log: Logger, channel: string): void {
  ws.on("error", (err: Error & { code?: string }) => {
    log.debug("websocket closed on a protocol error", { channel, code: err.code, reason: err.message });
  });
  const send = ws.send.bind(ws) as (...args: unknown[]) => void;
  ws.send = ((...args: unknown[]) => {
    if (ws.readyState !== ws.OPEN) return;
    if (ws.bufferedAmount > limits.maxBufferedBytes) {
      log.warn("websocket client is not reading; disconnected", { channel, buffered: ws.bufferedAmount });
      ws.terminate();
      return;
    }
    send(...args);
  }) as WebSocket["send"];
}

/**
 * The raw /ws channels' one liveness mechanism: every `intervalMs`, each open socket of `wss` gets a
 * protocol ping, and one that has not answered the previous ping by then is dropped (a vanished client
 * leaves no half-open socket behind). Browsers and `ws` answer pings by themselves, so clients need no
 * timers of their own; a `{"type":"heartbeat"}` message a client sends is still answered (channels.ts).
 * One timer per server, not per socket; it stops when the server closes.
 */
export function keepSocketsAlive(wss: WebSocketServer, intervalMs: number): void {
  const answered = new WeakSet<WebSocket>();
  wss.on("connection", (ws: WebSocket) => {
    answered.add(ws);
    ws.on("pong", () => answered.add(ws));
  });
  const timer = setInterval(() => {
    for (const ws of wss.clients) {
      if (!answered.has(ws)) {
        ws.terminate();
        continue;
      }
      answered.delete(ws);
      if (ws.readyState === ws.OPEN) ws.ping();
    }
  }, intervalMs);
  timer.unref();
  wss.once("close", () => clearInterval(timer));
}
