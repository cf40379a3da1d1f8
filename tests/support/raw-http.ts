import http from "node:http";
import zlib from "node:zlib";

/** An answer as it came over the wire: fetch() would decode the body and hide its encoded size. */
export type RawAnswer = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };

/**
 * One request through node:http, which leaves Content-Encoding to the caller. A connection of its own
 * (no keep-alive): in a process that also runs the server, a long PGlite write can hold the event loop
 * past the server's keep-alive timeout, and a pooled socket would then be reset under the next request.
 */
export function rawRequest(
  url: string,
  opts: { method?: string; headers?: Record<string, string> } = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: opts.method ?? "GET", headers: opts.headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end();
  });
}

/** The body as the client reads it, decoded by its Content-Encoding (br, gzip or none). */
export function decodedBody(answer: RawAnswer): Buffer {
  const encoding = answer.headers["content-encoding"];
  if (encoding === "br") return zlib.brotliDecompressSync(answer.body);
  if (encoding === "gzip") return zlib.gunzipSync(answer.body);
  if (encoding) throw new Error(`unexpected Content-Encoding: ${encoding}`);
  return answer.body;
}
