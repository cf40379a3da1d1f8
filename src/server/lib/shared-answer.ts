/**
 * An answer built once and served to many callers as it is (issue 39: whole-plan reads). It carries its
 * entity tag under a symbol, never serialised (as HTTP_STATUS), and its JSON text made once, so the REST
 * facade answers If-None-Match with 304 and otherwise sends the text it already has. Such an answer is
 * shared between requests: nothing may change it.
 */
const ETAG = Symbol("entity tag");
const texts = new WeakMap<object, string>();

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
