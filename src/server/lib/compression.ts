/**
 * Response compression for every surface of the app: brotli for browsers, gzip for older clients.
 * Hono's own `compress` speaks only gzip and deflate (CompressionStream has no brotli on Node 20), so this
 * one runs node:zlib. Dynamic answers are compressed as a stream at a fast setting; the built client is
 * compressed once at build time at the strongest one (scripts/precompress.mjs) and served as it is.
 * See docs/decisions/022-compression.md.
 */
import { Readable } from "node:stream";
import zlib from "node:zlib";
import type { MiddlewareHandler } from "hono";
import { COMPRESSIBLE_CONTENT_TYPE_REGEX } from "hono/utils/compress";

export type Encoding = "br" | "gzip";

/** Below this, the encoding's framing and the CPU cost more than the bytes saved. */
export const COMPRESSION_THRESHOLD = 1024;
/**
 * On the fly: brotli 5 makes the 2,801-node tree's JSON a fifth smaller than 4 does (3.3% of its size
 * against 3.9%, gzip 6 4.3%) for about 1.3-1.5 times the CPU; from 6 up it costs more and gains little
 * (bench/compression.ts prints every setting).
 */
export const DYNAMIC_BROTLI_QUALITY = 5;
export const DYNAMIC_GZIP_LEVEL = 6;
const CHUNK_BYTES = 64 * 1024;

const NO_TRANSFORM = /(?:^|,)\s*no-transform\s*(?:,|$)/i;
const VARY_ACCEPT_ENCODING = /(?:^|,)\s*(?:accept-encoding|\*)\s*(?:,|$)/i;

/**
 * The encoding to answer with for an Accept-Encoding header: brotli when the client takes it at least as
 * willingly as gzip, gzip when only that, none otherwise (no header, `identity`, or both refused by q=0).
 */
export function chooseEncoding(acceptEncoding: string | undefined | null): Encoding | null {
  if (!acceptEncoding) return null;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(",")) {
    const [name, ...params] = part.split(";");
    const coding = name?.trim().toLowerCase();
    if (!coding) continue;
    let q = 1;
    for (const param of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(param);
      if (m) q = Number(m[1]);
    }
    weights.set(coding, Number.isFinite(q) ? Math.min(Math.max(q, 0), 1) : 0);
  }
  const wildcard = weights.get("*") ?? 0;
  const br = weights.get("br") ?? wildcard;
  const gzip = weights.get("gzip") ?? weights.get("x-gzip") ?? wildcard;
  if (br <= 0 && gzip <= 0) return null;
  return br >= gzip ? "br" : "gzip";
}

/** A node:zlib compressor for a dynamic answer (brotli in text mode, with the size when it is known). */
export function createCompressor(encoding: Encoding, sizeHint?: number): zlib.BrotliCompress | zlib.Gzip {
  if (encoding === "gzip") return zlib.createGzip({ level: DYNAMIC_GZIP_LEVEL, chunkSize: CHUNK_BYTES });
  return zlib.createBrotliCompress({
    chunkSize: CHUNK_BYTES,
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: DYNAMIC_BROTLI_QUALITY,
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      ...(sizeHint ? { [zlib.constants.BROTLI_PARAM_SIZE_HINT]: sizeHint } : {}),
    },
  });
}

type ReadResult = ReadableStreamReadResult<Uint8Array>;
const PAUSED = Symbol("paused");
const nextTurn = () => new Promise<typeof PAUSED>((resolve) => setImmediate(resolve, PAUSED));

/**
 * Reads until `limit` bytes or the end, whichever comes first; stops early, with the read still `pending`,
 * when a source that has sent something pauses (a page streamed in parts must not wait for its rest).
 */
async function readStart(reader: ReadableStreamDefaultReader<Uint8Array>, limit: number) {
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  while (bytes < limit) {
    const next = reader.read();
    const result = chunks.length === 0 ? await next : await Promise.race([next, nextTurn()]);
    if (result === PAUSED) return { chunks, bytes, ended: false, pending: next };
    if (result.done) return { chunks, bytes, ended: true };
    chunks.push(result.value);
    bytes += result.value.byteLength;
  }
  return { chunks, bytes, ended: false };
}

/**
 * The body already read (`source`: its chunks and maybe a read under way) and the rest of `reader`, through
 * a compressor, as a web stream with back-pressure both ways. When the source pauses (a page streamed in
 * parts), what is compressed so far is flushed, so the browser can start on it. A consumer that goes away
 * cancels the source.
 */
function compressStream(
  source: { chunks: Uint8Array[]; pending?: Promise<ReadResult> },
  reader: ReadableStreamDefaultReader<Uint8Array>,
  encoding: Encoding,
  sizeHint?: number,
): ReadableStream<Uint8Array> {
  const compressor = createCompressor(encoding, sizeHint);
  let flushSoon: NodeJS.Immediate | undefined;
  const drained = () =>
    new Promise<void>((resolve, reject) => {
      const onDrain = () => {
        compressor.off("close", onClose);
        resolve();
      };
      const onClose = () => {
        compressor.off("drain", onDrain);
        reject(new Error("the compressed stream was closed"));
      };
      compressor.once("drain", onDrain);
      compressor.once("close", onClose);
    });
  const write = async (chunk: Uint8Array) => {
    if (!compressor.write(chunk)) await drained();
  };
  // Runs only if the next part is not there by the next turn of the event loop.
  const flushIfPaused = () => {
    flushSoon = setImmediate(() => {
      if (!compressor.writableEnded && !compressor.destroyed) compressor.flush();
    });
  };
  const pump = async () => {
    for (const chunk of source.chunks) await write(chunk);
    let next = source.pending ?? reader.read();
    for (;;) {
      flushIfPaused();
      const { done, value } = await next;
      clearImmediate(flushSoon);
      if (done) break;
      await write(value);
      next = reader.read();
    }
    compressor.end();
  };
  compressor.once("close", () => {
    clearImmediate(flushSoon);
    reader.cancel().catch(() => {});
  });
  pump().catch((err: unknown) => compressor.destroy(err instanceof Error ? err : new Error(String(err))));
  return Readable.toWeb(compressor) as unknown as ReadableStream<Uint8Array>;
}

function concat(chunks: Uint8Array[], bytes: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(bytes);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

/** Headers of an answer whose body is now `encoding`: its length is unknown and a strong ETag no longer holds. */
function markEncoded(headers: Headers, encoding: Encoding) {
  headers.set("Content-Encoding", encoding);
  headers.delete("Content-Length");
  headers.delete("Accept-Ranges");
  const etag = headers.get("ETag");
  if (etag && !etag.startsWith("W/")) headers.set("ETag", `W/${etag}`);
}

/**
 * Compresses answers of a compressible type (HTML, JS, CSS, JSON, SVG, XML, text; not event streams) of at
 * least COMPRESSION_THRESHOLD bytes, by the request's Accept-Encoding. Leaves alone what is already
 * encoded (precompressed static files), partial and empty answers, WebSocket upgrades and answers marked
 * `Cache-Control: no-transform`; every compressible answer says `Vary: Accept-Encoding`. A HEAD request
 * gets the headers its GET would.
 */
export function compression(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const res = c.res;
    const status = res.status;
    if (status < 200 || status === 204 || status === 206 || status === 304) return;
    if (c.req.header("upgrade")) return;
    const type = res.headers.get("Content-Type");
    if (!type || !COMPRESSIBLE_CONTENT_TYPE_REGEX.test(type)) return;
    if (NO_TRANSFORM.test(res.headers.get("Cache-Control") ?? "")) return;
    const vary = res.headers.get("Vary");
    if (!vary) res.headers.set("Vary", "Accept-Encoding");
    else if (!VARY_ACCEPT_ENCODING.test(vary)) res.headers.set("Vary", `${vary}, Accept-Encoding`);
    if (res.headers.has("Content-Encoding")) return;
    const declared = res.headers.get("Content-Length");
    const length = declared === null ? undefined : Number(declared);
    if (length !== undefined && length < COMPRESSION_THRESHOLD) return;
    const encoding = chooseEncoding(c.req.header("accept-encoding"));
    if (!encoding) return;

    const head = c.req.method === "HEAD";
    if (!res.body) {
      // A HEAD answer that still says how long its GET would be (a static file): announce the encoding.
      if (head && length !== undefined) markEncoded(res.headers, encoding);
      return;
    }
    const reader = res.body.getReader();
    const start = await readStart(reader, COMPRESSION_THRESHOLD);
    if (start.ended && start.bytes < COMPRESSION_THRESHOLD) {
      c.res = new Response(concat(start.chunks, start.bytes), res);
      c.res.headers.set("Content-Length", String(start.bytes));
      return;
    }
    if (head) {
      reader.cancel().catch(() => {});
      c.res = new Response(null, res);
    } else {
      c.res = new Response(compressStream(start, reader, encoding, length), res);
    }
    markEncoded(c.res.headers, encoding);
  };
}
