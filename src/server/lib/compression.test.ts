import zlib from "node:zlib";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { chooseEncoding, compression } from "./compression";

const BROWSER = "gzip, deflate, br, zstd";
const page = (n: number) => `<p>${"Atomic, estimable tasks. ".repeat(n)}</p>`;

describe("chooseEncoding", () => {
  it.each([
    [BROWSER, "br"],
    ["gzip, deflate", "gzip"],
    ["gzip", "gzip"],
    ["x-gzip", "gzip"],
    ["BR", "br"],
    ["br;q=0, gzip", "gzip"],
    ["gzip;q=1, br;q=0.5", "gzip"],
    ["br;q=0.8, gzip;q=0.8", "br"],
    ["*", "br"],
    ["*;q=0", null],
    ["gzip;q=0, br;q=0", null],
    ["deflate", null],
    ["identity", null],
    ["", null],
    [undefined, null],
  ])("%j -> %s", (header, expected) => {
    expect(chooseEncoding(header)).toBe(expected);
  });
});

/** A small app with the middleware in front of answers of every kind it must tell apart. */
function app(routes: (app: Hono) => void) {
  const a = new Hono();
  a.use("*", compression());
  routes(a);
  return a;
}

describe("compression middleware", () => {
  it("sends a streamed page's first part before the rest is written, and all of it in the end", async () => {
    const first = "<!doctype html><html><head><title>Shell</title></head><body>"; // under the 1 KB threshold
    const rest = `${page(200)}</body></html>`;
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const a = app((r) =>
      r.get("/page", (c) =>
        c.body(
          new ReadableStream<Uint8Array>({
            async start(controller) {
              controller.enqueue(new TextEncoder().encode(first));
              await released;
              controller.enqueue(new TextEncoder().encode(rest));
              controller.close();
            },
          }),
          200,
          { "Content-Type": "text/html; charset=utf-8" },
        ),
      ),
    );
    const res = await a.request("/page", { headers: { "accept-encoding": BROWSER } });
    expect(res.headers.get("content-encoding")).toBe("br");
    const reader = res.body!.getReader();
    const decoder = zlib.createBrotliDecompress();
    let decoded = "";
    decoder.on("data", (chunk: Buffer) => {
      decoded += chunk.toString("utf8");
    });
    // Nothing more is written until the first part has arrived, decodable on its own.
    while (decoded.length < first.length) {
      const { done, value } = await reader.read();
      if (done) throw new Error("the stream ended early");
      await new Promise((resolve) => decoder.write(value, resolve));
    }
    expect(decoded).toBe(first);
    release();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      decoder.write(value);
    }
    await new Promise((resolve) => decoder.end(resolve));
    expect(decoded).toBe(first + rest);
  });

  it("leaves event streams, no-transform answers, images and encoded bodies as they are", async () => {
    const body = page(100);
    const a = app((r) => {
      r.get("/events", (c) => c.body(body, 200, { "Content-Type": "text/event-stream" }));
      r.get("/no-transform", (c) => c.html(body, 200, { "Cache-Control": "public, no-transform" }));
      r.get("/image", (c) => c.body(new Uint8Array(4000), 200, { "Content-Type": "image/png" }));
      r.get("/encoded", (c) =>
        c.body(new Uint8Array(zlib.gzipSync(body)), 200, {
          "Content-Type": "text/html",
          "Content-Encoding": "gzip",
        }),
      );
    });
    const get = (path: string) => a.request(path, { headers: { "accept-encoding": BROWSER } });
    for (const path of ["/events", "/no-transform"]) {
      const res = await get(path);
      expect(res.headers.get("content-encoding"), path).toBeNull();
      expect(await res.text()).toBe(body);
    }
    const image = await get("/image");
    expect(image.headers.get("content-encoding")).toBeNull();
    expect(image.headers.get("vary")).toBeNull();
    expect((await image.arrayBuffer()).byteLength).toBe(4000);
    const encoded = await get("/encoded");
    expect(encoded.headers.get("content-encoding")).toBe("gzip");
    expect(encoded.headers.get("vary")).toBe("Accept-Encoding");
    expect(zlib.gunzipSync(Buffer.from(await encoded.arrayBuffer())).toString()).toBe(body);
  });

  it("weakens a strong ETag, keeps the other Vary entries, and answers HEAD with GET's headers", async () => {
    const body = page(100);
    const a = app((r) =>
      r.get("/doc", (c) => c.html(body, 200, { ETag: '"v1"', Vary: "Cookie", "Content-Length": "2525" })),
    );
    const get = await a.request("/doc", { headers: { "accept-encoding": "gzip" } });
    expect(get.headers.get("content-encoding")).toBe("gzip");
    expect(get.headers.get("etag")).toBe('W/"v1"');
    expect(get.headers.get("vary")).toBe("Cookie, Accept-Encoding");
    expect(get.headers.get("content-length")).toBeNull();
    expect(zlib.gunzipSync(Buffer.from(await get.arrayBuffer())).toString()).toBe(body);

    const head = await a.request("/doc", { method: "HEAD", headers: { "accept-encoding": "gzip" } });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-encoding")).toBe("gzip");
    expect(head.headers.get("etag")).toBe('W/"v1"');
    expect((await head.arrayBuffer()).byteLength).toBe(0);

    const plain = await a.request("/doc");
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(plain.headers.get("etag")).toBe('"v1"');
    expect(await plain.text()).toBe(body);
  });
});
