import type { WebSocket } from "ws";
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
