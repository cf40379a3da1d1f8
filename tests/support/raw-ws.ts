import { randomBytes } from "node:crypto";
import { connect, type Socket } from "node:net";

/**
 * A WebSocket client at the byte level, for sending what no well-behaved client library would: invalid
 * UTF-8, reserved opcodes, unmasked frames, oversized frames, and for not reading at all.
 */
export type RawSocket = {
  socket: Socket;
  /** The HTTP status line of the handshake answer, e.g. "HTTP/1.1 101 Switching Protocols". */
  status: string;
  /** Server frames received so far (text payloads and close frames). */
  frames: Array<{ opcode: number; payload: Buffer }>;
  /** Resolves with the close frame's code (or null when the connection ended without one). */
  closed: Promise<{ code: number | null; reason: string }>;
  send(bytes: Buffer): void;
  /** Resolves when a text frame whose payload matches arrives. */
  waitForText(pattern: RegExp, timeoutMs?: number): Promise<string>;
};

export function frame(
  opcode: number,
  payload: Buffer | string,
  opts: { mask?: boolean; fin?: boolean } = {},
): Buffer {
  const data = typeof payload === "string" ? Buffer.from(payload) : payload;
  const mask = opts.mask ?? true;
  const head: number[] = [((opts.fin ?? true) ? 0x80 : 0) | opcode];
  const maskBit = mask ? 0x80 : 0;
  if (data.length < 126) head.push(maskBit | data.length);
  else if (data.length < 65536) head.push(maskBit | 126, data.length >> 8, data.length & 0xff);
  else {
    const len = Buffer.alloc(8);
    len.writeBigUInt64BE(BigInt(data.length));
    head.push(maskBit | 127, ...len);
  }
  if (!mask) return Buffer.concat([Buffer.from(head), data]);
  const key = randomBytes(4);
  const masked = Buffer.from(data);
  for (let i = 0; i < masked.length; i++) masked[i]! ^= key[i % 4]!;
  return Buffer.concat([Buffer.from(head), key, masked]);
}

/** Opens a TCP connection and sends an upgrade request with the given target and headers. */
export function rawUpgrade(
  port: number,
  target: string,
  headers: Record<string, string> = {},
): Promise<RawSocket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    const frames: RawSocket["frames"] = [];
    let buffer = Buffer.alloc(0);
    let status: string | null = null;
    let closeFrame: { code: number | null; reason: string } | null = null;
    let resolveClosed!: (v: { code: number | null; reason: string }) => void;
    const closed = new Promise<{ code: number | null; reason: string }>((r) => {
      resolveClosed = r;
    });
    const waiters: Array<() => void> = [];
    socket.on("error", () => {});
    socket.on("close", () => {
      resolveClosed(closeFrame ?? { code: null, reason: "" });
      if (status === null) reject(new Error("connection closed before the handshake answer"));
    });
    const parseFrames = () => {
      while (buffer.length >= 2) {
        const opcode = buffer[0]! & 0x0f;
        let len = buffer[1]! & 0x7f;
        let offset = 2;
        if (len === 126) {
          if (buffer.length < 4) return;
          len = buffer.readUInt16BE(2);
          offset = 4;
        } else if (len === 127) {
          if (buffer.length < 10) return;
          len = Number(buffer.readBigUInt64BE(2));
          offset = 10;
        }
        if (buffer.length < offset + len) return;
        const payload = buffer.subarray(offset, offset + len);
        buffer = buffer.subarray(offset + len);
        frames.push({ opcode, payload });
        if (opcode === 0x8) {
          closeFrame = {
            code: payload.length >= 2 ? payload.readUInt16BE(0) : null,
            reason: payload.subarray(2).toString(),
          };
        }
        for (const w of waiters.splice(0)) w();
      }
    };
    socket.on("data", (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (status === null) {
        const end = buffer.indexOf("\r\n\r\n");
        if (end < 0) return;
        status = buffer.subarray(0, buffer.indexOf("\r\n")).toString();
        buffer = buffer.subarray(end + 4);
        resolve({
          socket,
          status,
          frames,
          closed,
          send: (bytes) => {
            if (!socket.destroyed) socket.write(bytes);
          },
          waitForText: (pattern, timeoutMs = 10_000) =>
            new Promise((res, rej) => {
              const timer = setTimeout(() => rej(new Error(`no frame matching ${pattern}`)), timeoutMs);
              const check = () => {
                const hit = frames.find((f) => f.opcode === 0x1 && pattern.test(f.payload.toString()));
                if (hit) {
                  clearTimeout(timer);
                  res(hit.payload.toString());
                } else waiters.push(check);
              };
              check();
            }),
        });
      }
      parseFrames();
    });
    const lines = [
      `GET ${target} HTTP/1.1`,
      "Host: 127.0.0.1",
      "Connection: Upgrade",
      `Upgrade: ${headers.Upgrade ?? "websocket"}`,
      "Sec-WebSocket-Version: 13",
      `Sec-WebSocket-Key: ${randomBytes(16).toString("base64")}`,
      ...Object.entries(headers)
        .filter(([k]) => k !== "Upgrade")
        .map(([k, v]) => `${k}: ${v}`),
      "",
      "",
    ];
    socket.write(lines.join("\r\n"));
  });
}
