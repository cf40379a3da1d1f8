/**
 * Bytes on the wire (issue 15): the landing page with every script and style a browser loads for it, and
 * the 2,801-node tree answer, each as sent without compression, with gzip and with brotli; then the time
 * to send the tree each way and what compressing it alone costs. Runs the built client (`npm run build`
 * first) on a test server (PGlite); the page's files are found by loading it in Chromium.
 *
 * `node --import tsx bench/compression.ts` runs this part alone.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";
import { chromium } from "@playwright/test";
import {
  createCompressor,
  DYNAMIC_BROTLI_QUALITY,
  DYNAMIC_GZIP_LEVEL,
  type Encoding,
} from "../src/server/lib/compression";
import { registerUser, TestClient } from "../tests/support/http-client";
import { decodedBody, rawRequest } from "../tests/support/raw-http";
import { seedTree } from "../tests/support/seed";
import { startTestServer } from "../tests/support/server";
import { AS_IN_USE, percentile } from "./stats";

type Row = Record<string, string>;

const ACCEPT: Record<"identity" | Encoding, string | undefined> = {
  identity: undefined,
  gzip: "gzip, deflate",
  br: "gzip, deflate, br, zstd",
};

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
const ratio = (part: number, whole: number) => `${((100 * part) / whole).toFixed(1)}%`;

function chromiumPath() {
  return (
    process.env.CHROMIUM_PATH ??
    (existsSync("/usr/bin/chromium-headless-shell")
      ? "/usr/bin/chromium-headless-shell"
      : "/usr/bin/chromium")
  );
}

/** Same-origin documents, scripts and styles Chromium loads for `url`, by type. */
async function resourcesOf(url: string): Promise<{ path: string; type: string }[]> {
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
  });
  try {
    const page = await browser.newPage();
    const found: { path: string; type: string }[] = [];
    page.on("request", (r) => {
      const type = r.resourceType();
      if (r.url().startsWith(new URL(url).origin) && ["document", "script", "stylesheet"].includes(type)) {
        found.push({ path: new URL(r.url()).pathname, type });
      }
    });
    await page.goto(url, { waitUntil: "networkidle" });
    return found;
  } finally {
    await browser.close();
  }
}

/** The encoded size of each answer, checking that every encoding decodes to the same bytes. */
async function sizes(url: string, headers: Record<string, string> = {}) {
  const out = {} as Record<"identity" | Encoding, number>;
  let plain: Buffer | undefined;
  for (const [name, accept] of Object.entries(ACCEPT) as ["identity" | Encoding, string | undefined][]) {
    const res = await rawRequest(url, {
      headers: { ...headers, ...(accept ? { "accept-encoding": accept } : {}) },
    });
    if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
    const body = decodedBody(res);
    if (plain && !plain.equals(body)) throw new Error(`${url}: the ${name} answer decodes to other bytes`);
    plain ??= body;
    out[name] = res.body.length;
  }
  return out;
}

/** Median time to the last byte of `url` for an encoding, over `n` requests one after another. */
async function timeToLastByte(url: string, headers: Record<string, string>, n: number) {
  const ms: number[] = [];
  const server: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    const res = await rawRequest(url, { headers });
    ms.push(performance.now() - started);
    server.push(Number(String(res.headers["server-timing"]).match(/dur=([\d.]+)/)?.[1]));
  }
  return { p50: percentile(ms, 50), server: percentile(server, 50) };
}

const brotliAt = (quality: number, size: number) => ({
  params: {
    [zlib.constants.BROTLI_PARAM_QUALITY]: quality,
    [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
    [zlib.constants.BROTLI_PARAM_SIZE_HINT]: size,
  },
});

/** CPU time to compress `body` in this process: the cost a request adds, apart from the network. */
async function compressMs(body: Buffer, encoding: Encoding, n: number) {
  const ms: number[] = [];
  let bytes = 0;
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    const compressor = createCompressor(encoding, body.length);
    const done = new Promise<void>((resolve, reject) => {
      bytes = 0;
      compressor.on("data", (c: Buffer) => {
        bytes += c.length;
      });
      compressor.on("end", resolve);
      compressor.on("error", reject);
    });
    compressor.end(body);
    await done;
    ms.push(performance.now() - started);
  }
  return { p50: percentile(ms, 50), bytes };
}

export async function benchCompression(): Promise<{ landing: Row[]; tree: Row[]; settings: Row[] }> {
  const clientDir = path.resolve("dist/client");
  if (!existsSync(path.join(clientDir, "index.html"))) {
    throw new Error("the client is not built: run `npm run build` first");
  }
  const server = await startTestServer(
    { LOG_LEVEL: "silent", ...AS_IN_USE },
    { clientDir, databaseUrl: null },
  );
  try {
    // The landing page: the HTML and every script and style the browser fetches for it.
    const parts = await resourcesOf(`${server.url}/`);
    const totals = new Map<string, { files: number; identity: number; gzip: number; br: number }>();
    for (const part of parts) {
      const s = await sizes(`${server.url}${part.path}`);
      for (const key of [part.type, "total"]) {
        const t = totals.get(key) ?? { files: 0, identity: 0, gzip: 0, br: 0 };
        totals.set(key, {
          files: t.files + 1,
          identity: t.identity + s.identity,
          gzip: t.gzip + s.gzip,
          br: t.br + s.br,
        });
      }
    }
    const order = ["document", "script", "stylesheet", "total"];
    const landing: Row[] = [...totals]
      .sort(([a], [b]) => order.indexOf(a) - order.indexOf(b))
      .map(([part, t]) => ({
        "landing page": part,
        files: String(t.files),
        uncompressed: kib(t.identity),
        gzip: `${kib(t.gzip)} (${ratio(t.gzip, t.identity)})`,
        brotli: `${kib(t.br)} (${ratio(t.br, t.identity)})`,
      }));

    // The 2,801-node tree, compressed on the fly.
    const owner = await registerUser(new TestClient(server.url));
    const { rootId, count } = await seedTree(server.deps.database, owner.user.id, { plan: true });
    const auth = { authorization: `Bearer ${owner.access_token}` };
    const url = `${server.url}/api/tasks/${rootId}/tree`;
    const s = await sizes(url, auth);
    const plain = decodedBody(await rawRequest(url, { headers: auth }));
    const name = `tree (${count.toLocaleString("en")} nodes)`;
    const tree: Row[] = [];
    for (const encoding of ["identity", "gzip", "br"] as const) {
      const accept = ACCEPT[encoding];
      const headers = { ...auth, ...(accept ? { "accept-encoding": accept } : {}) };
      await timeToLastByte(url, headers, 3); // warm-up
      const t = await timeToLastByte(url, headers, 20);
      const cpu = encoding === "identity" ? undefined : await compressMs(plain, encoding, 10);
      tree.push({
        [name]: encoding === "br" ? "brotli" : encoding,
        "bytes on the wire": `${kib(s[encoding])} (${ratio(s[encoding], s.identity)})`,
        "to last byte p50 ms": t.p50.toFixed(1),
        "handler p50 ms": t.server.toFixed(1),
        "compressing as a stream p50 ms": cpu ? cpu.p50.toFixed(1) : "-",
      });
    }
    // Every setting in one go, in this process, to choose the on-the-fly ones (compression.ts).
    const settings: Row[] = [];
    const candidates: [string, (b: Buffer) => Buffer][] = [
      ...[3, 4, 5, 6].map((q): [string, (b: Buffer) => Buffer] => [
        `brotli ${q}${q === DYNAMIC_BROTLI_QUALITY ? " (on the fly)" : ""}`,
        (b) => zlib.brotliCompressSync(b, brotliAt(q, b.length)),
      ]),
      ...[1, 6, 9].map((level): [string, (b: Buffer) => Buffer] => [
        `gzip ${level}${level === DYNAMIC_GZIP_LEVEL ? " (on the fly)" : ""}`,
        (b) => zlib.gzipSync(b, { level }),
      ]),
    ];
    for (const [setting, compress] of candidates) {
      const ms: number[] = [];
      let bytes = 0;
      for (let i = 0; i < 7; i++) {
        const started = performance.now();
        bytes = compress(plain).length;
        if (i > 0) ms.push(performance.now() - started); // the first warms up
      }
      settings.push({
        [name]: setting,
        bytes: `${kib(bytes)} (${ratio(bytes, s.identity)})`,
        "p50 ms": percentile(ms, 50).toFixed(1),
      });
    }
    return { landing, tree, settings };
  } finally {
    await server.stop();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { landing, tree, settings } = await benchCompression();
  console.table(landing);
  console.table(tree);
  console.table(settings);
}
