import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module script without types (the last step of `npm run build`)
import { precompress } from "../../scripts/precompress.mjs";
import { registerUser, TestClient } from "../support/http-client";
import { decodedBody, type RawAnswer, rawRequest } from "../support/raw-http";
import { seedTree } from "../support/seed";
import { startTestServer, type TestServer } from "../support/server";

/** What Chromium sends. */
const BROWSER = "gzip, deflate, br, zstd";
const ADMIN = "compression.admin@example.com";

const INDEX_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1.0" />
    <meta name="description" content="Atomize: AI-powered task decomposition." />
    <title>Atomize Project Manager</title>
    <script type="module" crossorigin src="/assets/app-abc123.js"></script>
${Array.from({ length: 20 }, (_, i) => `    <link rel="modulepreload" crossorigin href="/assets/chunk-${i}-abc123.js">`).join("\n")}
    <link rel="stylesheet" crossorigin href="/assets/index-abc123.css">
  </head>
  <body><div id="root"></div></body>
</html>
`;
const APP_JS = Array.from(
  { length: 400 },
  (_, i) => `export function step${i}(task) { return { ...task, position: ${i}, label: "Step ${i}" }; }`,
).join("\n");
const TINY_JS = "export const tiny = 1;\n";

let server: TestServer;
let clientDir: string;
let token: string;
let rootId: string;

beforeAll(async () => {
  clientDir = mkdtempSync(path.join(tmpdir(), "atomize-compression-client-"));
  writeFileSync(path.join(clientDir, "index.html"), INDEX_HTML);
  mkdirSync(path.join(clientDir, "assets"));
  writeFileSync(path.join(clientDir, "assets", "app-abc123.js"), APP_JS);
  writeFileSync(path.join(clientDir, "assets", "tiny-abc123.js"), TINY_JS);
  // What `npm run build` does last.
  await precompress(clientDir);
  server = await startTestServer({ ADMIN_EMAILS: ADMIN }, { clientDir });
  const owner = await registerUser(new TestClient(server.url));
  token = owner.access_token;
  ({ rootId } = await seedTree(server.deps.database, owner.user.id));
});

afterAll(async () => {
  await server?.stop();
  if (clientDir) rmSync(clientDir, { recursive: true, force: true });
});

const get = (url: string, acceptEncoding?: string, headers: Record<string, string> = {}) =>
  rawRequest(`${server.url}${url}`, {
    headers: { ...headers, ...(acceptEncoding ? { "accept-encoding": acceptEncoding } : {}) },
  });

function expectCompressed(answer: RawAnswer, encoding: "br" | "gzip", plain: Buffer) {
  expect(answer.status).toBe(200);
  expect(answer.headers["content-encoding"]).toBe(encoding);
  expect(answer.headers.vary).toMatch(/accept-encoding/i);
  expect(decodedBody(answer).equals(plain)).toBe(true);
  expect(answer.body.length).toBeLessThan(plain.length);
}

describe("dynamic answers", () => {
  it("sends the 2,801-node tree as brotli to a browser, gzip to a gzip-only client, plain to the rest", async () => {
    const auth = { authorization: `Bearer ${token}` };
    const url = `/api/tasks/${rootId}/tree`;
    const plain = await get(url, undefined, auth);
    expect(plain.status).toBe(200);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    expect(plain.body.length).toBeGreaterThan(1_000_000);
    expect((JSON.parse(plain.body.toString()) as { id: string }).id).toBe(rootId);

    const br = await get(url, BROWSER, auth);
    expectCompressed(br, "br", plain.body);
    // Compressed once per plan version and kept with the tree (issue 39): sent with its length.
    expect(br.headers["content-length"]).toBe(String(br.body.length));
    // A tree's JSON repeats its keys on every node: it shrinks by far more than half.
    expect(br.body.length).toBeLessThan(plain.body.length / 10);

    const gzip = await get(url, "gzip", auth);
    expectCompressed(gzip, "gzip", plain.body);
    expect(gzip.body.length).toBeLessThan(plain.body.length / 5);

    // A client that refuses brotli gets gzip even when it lists brotli first.
    expect((await get(url, "br;q=0, gzip", auth)).headers["content-encoding"]).toBe("gzip");
  });

  it("keeps serving when a client leaves in the middle of a compressed answer", async () => {
    const url = new URL(`/api/tasks/${rootId}/tree`, server.url);
    const cutOff = new Promise<string>((resolve, reject) => {
      const req = http.get(
        url,
        { agent: false, headers: { authorization: `Bearer ${token}`, "accept-encoding": BROWSER } },
        (res) => {
          res.once("data", () => {
            req.destroy();
            resolve(String(res.headers["content-encoding"]));
          });
        },
      );
      req.on("error", (err) => {
        if (!req.destroyed) reject(err);
      });
    });
    expect(await cutOff).toBe("br");
    const again = await get(`/api/tasks/${rootId}/tree`, "gzip", { authorization: `Bearer ${token}` });
    expect(again.status).toBe(200);
    expect((JSON.parse(decodedBody(again).toString()) as { id: string }).id).toBe(rootId);
  });

  it("compresses tRPC answers like REST ones", async () => {
    const input = encodeURIComponent(JSON.stringify({ json: { id: rootId } }));
    const url = `/trpc/tasks.tree?input=${input}`;
    const auth = { authorization: `Bearer ${token}` };
    const plain = await get(url, undefined, auth);
    expect(plain.status).toBe(200);
    expectCompressed(await get(url, BROWSER, auth), "br", plain.body);
  });

  it("leaves small answers uncompressed, with their length", async () => {
    const health = await get("/healthz", BROWSER);
    expect(health.status).toBe(200);
    expect(health.headers["content-encoding"]).toBeUndefined();
    expect(health.headers["content-length"]).toBe(String(health.body.length));
    expect(JSON.parse(health.body.toString())).toEqual({ status: "ok" });
    // An error answer is JSON too, and small.
    const missing = await get("/api/no-such-route", BROWSER);
    expect(missing.status).toBe(404);
    expect(missing.headers["content-encoding"]).toBeUndefined();
    expect(JSON.parse(missing.body.toString())).toHaveProperty("detail");
  });

  it("compresses the blog's feed and post pages", async () => {
    const admin = new TestClient(server.url);
    await registerUser(admin, { email: ADMIN, full_name: "Compression Admin" });
    await server.deps.database.rows(
      sql`update users set role = 'admin', email_verified_at = now() where lower(email) = ${ADMIN}`,
    );
    let slug = "";
    for (let i = 1; i <= 3; i++) {
      const post = await admin.post("/api/admin/blog/posts", {
        title: `Planning in practice, part ${i}`,
        excerpt: `How a team turns a vague goal into estimable work, part ${i} of a series on planning.`,
        content: `<p>${"Split the work until every piece fits in two days. ".repeat(20)}</p>`,
        status: "published",
      });
      expect(post.status).toBe(201);
      slug = post.json.slug;
    }
    const rss = await get("/blog/rss.xml");
    expect(rss.headers["content-type"]).toMatch(/^application\/rss\+xml/);
    expectCompressed(await get("/blog/rss.xml", BROWSER), "br", rss.body);

    const postPage = await get(`/blog/${slug}`, BROWSER);
    expect(postPage.headers["content-type"]).toMatch(/^text\/html/);
    expect(postPage.headers["content-encoding"]).toBe("br");
    expect(decodedBody(postPage).toString()).toContain("Planning in practice, part 3");
  });
});

describe("the built client", () => {
  const file = (name: string) => path.join(clientDir, name);

  it("serves a script's build-time brotli or gzip copy as it is, or the file to a client without either", async () => {
    const original = readFileSync(file("assets/app-abc123.js"));
    const br = await get("/assets/app-abc123.js", BROWSER);
    expectCompressed(br, "br", original);
    // The quality-11 file from the build, not a compression of this request.
    expect(br.body.equals(readFileSync(file("assets/app-abc123.js.br")))).toBe(true);
    expect(br.headers["content-length"]).toBe(String(statSync(file("assets/app-abc123.js.br")).size));
    expect(br.headers["content-type"]).toMatch(/^text\/javascript/);
    expect(br.headers["cache-control"]).toBe("public, max-age=31536000, immutable");

    const gzip = await get("/assets/app-abc123.js", "gzip, deflate");
    expectCompressed(gzip, "gzip", original);
    expect(gzip.body.equals(readFileSync(file("assets/app-abc123.js.gz")))).toBe(true);

    const plain = await get("/assets/app-abc123.js");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    expect(plain.body.equals(original)).toBe(true);

    const head = await rawRequest(`${server.url}/assets/app-abc123.js`, {
      method: "HEAD",
      headers: { "accept-encoding": BROWSER },
    });
    expect(head.status).toBe(200);
    expect(head.headers["content-encoding"]).toBe("br");
    expect(head.headers["content-length"]).toBe(br.headers["content-length"]);
    expect(head.body.length).toBe(0);
  });

  it("sends a file under 1 KB as it is", async () => {
    const tiny = await get("/assets/tiny-abc123.js", BROWSER);
    expect(tiny.status).toBe(200);
    expect(tiny.headers["content-encoding"]).toBeUndefined();
    expect(tiny.body.toString()).toBe(TINY_JS);
  });

  it("compresses the page at / and at the SPA's client routes", async () => {
    // The page is the built index.html with the data block the server adds (src/server/ssr/pages.ts).
    const plain = await get("/");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.toString()).toContain(INDEX_HTML.slice(0, INDEX_HTML.indexOf("</body>")));
    const home = await get("/", BROWSER);
    expectCompressed(home, "br", plain.body);
    const route = await get("/tasks/new", "gzip");
    expect(route.headers["content-encoding"]).toBe("gzip");
    expect(decodedBody(route).toString()).toContain(
      '<script type="module" crossorigin src="/assets/app-abc123.js">',
    );
  });
});
