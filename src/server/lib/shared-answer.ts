import { promisify } from "node:util";
import zlib from "node:zlib";
import { DYNAMIC_BROTLI_QUALITY, DYNAMIC_GZIP_LEVEL, type Encoding } from "./compression";

/**
 * An answer built once and served to many callers as it is (issue 39: whole-plan reads). It carries its
 * entity tag under a symbol, never serialised (as HTTP_STATUS), its JSON text made once, and that text
 * compressed once per encoding asked for, so the REST facade answers If-None-Match with 304 and otherwise
 * sends bytes it already has: a repeated read of a 10,000-node plan costs no CPU to speak of. Such an
 * answer is shared between requests: nothing may change it.
 */
const ETAG = Symbol("entity tag");
const texts = new WeakMap<object, string>();
const encoded = new WeakMap<object, Map<Encoding, Promise<Uint8Array<ArrayBuffer>>>>();
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

export function shareAnswer<T extends object>(value: T, etag: string, text: string): T {
  Object.defineProperty(value, ETAG, { value: etag, enumerable: false });
  texts.set(value, text);
  return value;
}

/** The entity tag of a shared answer, quoted as HTTP writes it; undefined for any other value. */
export function etagOf(value: unknown): string | undefined {
  return typeof value === "object" && value !== null
    ? ((value as { [ETAG]?: string })[ETAG] ?? undefined)
    : undefined;
}

/**
 * A shared answer's text in an encoding, compressed once (on libuv's threads, at the settings the
 * compression middleware uses for dynamic answers) and kept with the answer.
 */
export function encodedAnswer(value: object, encoding: Encoding): Promise<Uint8Array<ArrayBuffer>> {
  let byEncoding = encoded.get(value);
  if (!byEncoding) {
    byEncoding = new Map();
    encoded.set(value, byEncoding);
  }
  let bytes = byEncoding.get(encoding);
  if (!bytes) {
    const text = jsonTextOf(value);
    const made =
      encoding === "br"
        ? brotli(text, {
            params: {
              [zlib.constants.BROTLI_PARAM_QUALITY]: DYNAMIC_BROTLI_QUALITY,
              [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
              [zlib.constants.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(text),
            },
          })
        : gzip(text, { level: DYNAMIC_GZIP_LEVEL });
    bytes = made.then((b) => new Uint8Array(b.buffer as ArrayBuffer, b.byteOffset, b.byteLength));
    byEncoding.set(encoding, bytes);
    // A failure is not kept: the next read tries again.
    bytes.catch(() => byEncoding?.delete(encoding));
  }
  return bytes;
}

/** The JSON text of an answer: a shared answer's own, made once; any other value's, made now. */
export function jsonTextOf(value: unknown): string {
  return (typeof value === "object" && value !== null && texts.get(value)) || JSON.stringify(value);
}

/**
 * Whether a request's If-None-Match names this entity tag (RFC 9110, 13.1.2: a list of tags or "*", weak
 * comparison, so a W/ prefix a proxy added still matches).
 */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, "");
  return header.split(",").some((tag) => tag.trim() === "*" || bare(tag) === bare(etag));
}
