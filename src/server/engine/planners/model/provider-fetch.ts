/**
 * The fetch used for model providers (docs/decisions/012-model-settings.md): the person who saves a base
 * URL chooses where the server connects, within what the outbound guard allows (`through`, from
 * lib/outbound/fetch.ts); a provider's answer is never followed to another address (0 redirects) and
 * never read past a size cap, so one endpoint cannot make the process hold an unbounded body. Deadlines
 * come from the caller (the SDK's timeout).
 */

/** Largest answer read from a provider: planning answers are tens of kilobytes. */
export const PROVIDER_RESPONSE_BYTES = 2 * 1024 * 1024;

export class ProviderResponseTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`The provider's answer was larger than ${Math.round(limit / 1024)} KB, so it was not read.`);
    this.name = "ProviderResponseTooLarge";
  }
}

async function readCapped(body: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      throw new ProviderResponseTooLarge(limit);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(new ArrayBuffer(total));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

export function limitedProviderFetch(through: typeof fetch, limit = PROVIDER_RESPONSE_BYTES): typeof fetch {
  return async (input, init) => {
    const res = await through(input, { ...init, redirect: "manual" });
    if (res.status >= 300 && res.status < 400) {
      await res.body?.cancel().catch(() => undefined);
      // Shaped like an OpenAI error, so the SDK reports it as the provider's own words.
      return Response.json(
        {
          error: {
            message: `The provider answered with a redirect (HTTP ${res.status}), which Atomize does not follow. Enter the final address as the base URL.`,
          },
        },
        { status: res.status },
      );
    }
    const bytes = res.body ? await readCapped(res.body, limit) : new Uint8Array();
    const headers = new Headers(res.headers);
    // The body is already decoded and complete.
    headers.delete("content-encoding");
    headers.delete("content-length");
    return new Response(res.status === 204 || res.status === 304 ? null : bytes, {
      status: res.status,
      statusText: res.statusText,
      headers,
    });
  };
}
