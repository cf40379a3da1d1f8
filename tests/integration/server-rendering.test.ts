import { randomBytes } from "node:crypto";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { build } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BOOTSTRAP_ELEMENT_ID, type PageBootstrap } from "../../src/shared/page-bootstrap";
import { registerUser, TestClient } from "../support/http-client";
import { startTestServer, type TestServer } from "../support/server";

// Issue 15: pages rendered on the server (src/client/entry-server.tsx, loaded by src/server/ssr/pages.ts).
// The server renderer is built here as `npm run build` builds it; the client beside it is a stand-in
// index.html and manifest, as Vite writes them.
const ADMIN = "ssr.admin@example.com";
const LANDING_SOURCE = "src/client/features/landing/landing-page.tsx";
const INDEX_HTML = `<!doctype html>
<html lang="en" data-theme="dark">
  <head>
    <meta charset="UTF-8" />
    <meta name="description" content="Atomize: AI-powered task decomposition." />
    <title>Atomize Project Manager</title>
    <script type="module" crossorigin src="/assets/index-a.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/jsx-runtime-b.js">
  </head>
  <body>
    <noscript>Atomize needs JavaScript to run.</noscript>
    <div id="root"></div>
  </body>
</html>
`;
const MANIFEST = {
  "src/client/main.tsx": { file: "assets/index-a.js", isEntry: true, imports: ["_jsx-runtime.js"] },
  "_jsx-runtime.js": { file: "assets/jsx-runtime-b.js" },
  "_use-page-meta.js": { file: "assets/use-page-meta-c.js", imports: ["_jsx-runtime.js"] },
  [LANDING_SOURCE]: {
    file: "assets/landing-page-d.js",
    isDynamicEntry: true,
    imports: ["_jsx-runtime.js", "_use-page-meta.js"],
  },
};

// Under node_modules, so the renderer's packages (react, react-dom, wouter) resolve from the project.
const work = path.resolve("node_modules", ".cache", "atomize-test", `ssr-${randomBytes(6).toString("hex")}`);
const clientDir = path.join(work, "client");

let server: TestServer;
let admin: TestClient;
let published: Record<string, any>;
let hostile: Record<string, any>;
let draft: Record<string, any>;

beforeAll(async () => {
  await build({
    configFile: path.resolve("vite.config.ts"),
    logLevel: "silent",
    build: { ssr: "src/client/entry-server.tsx", outDir: path.join(work, "ssr"), sourcemap: false },
  });
  mkdirSync(path.join(clientDir, ".vite"), { recursive: true });
  writeFileSync(path.join(clientDir, "index.html"), INDEX_HTML);
  writeFileSync(path.join(clientDir, ".vite", "manifest.json"), JSON.stringify(MANIFEST));
  server = await startTestServer({ ADMIN_EMAILS: ADMIN }, { clientDir });
  admin = new TestClient(server.url);
  await registerUser(admin, { email: ADMIN, full_name: "Rita Renderer" });
  await server.deps.database.rows(sql`update users set role = 'admin' where lower(email) = ${ADMIN}`);
  const post = async (body: Record<string, unknown>) =>
    (await admin.post("/api/admin/blog/posts", { status: "published", ...body })).json;
  published = await post({
    title: "Rendered on the server",
    content: "<h2>First paint</h2><p>The words arrive with the page.</p>",
    excerpt: "Pages that paint before scripts",
    tags: ["performance"],
  });
  hostile = await post({
    title: "Hostile markup",
    content: '<p>Kept text.</p><img src=x onerror="alert(1)"><script>alert(2)</script>',
  });
  draft = await post({ title: "Still a draft", content: "<p>Not yet.</p>", status: "draft" });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  rmSync(work, { recursive: true, force: true });
});

async function getPage(pathAndQuery: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.url}${pathAndQuery}`, { headers });
  expect(res.status, pathAndQuery).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/html/);
  const html = await res.text();
  const root = /<div id="root">([\s\S]*?)<\/div>\s*<script type="application\/json"/.exec(html)?.[1] ?? "";
  const block = new RegExp(
    `<script type="application/json" id="${BOOTSTRAP_ELEMENT_ID}">([\\s\\S]*?)</script>`,
  );
  const bootstrap = JSON.parse(block.exec(html)![1]!) as PageBootstrap;
  return { res, html, root, bootstrap, head: html.slice(0, html.indexOf("</head>")) };
}

describe("public pages rendered on the server", () => {
  it("renders the landing page with its head and the data the browser hydrates from, at idle", async () => {
    const { res, html, root, bootstrap, head } = await getPage("/");
    expect(res.headers.get("cache-control")).toBe("no-cache");
    expect(root).toContain("atomic, estimable tasks");
    expect(root).toContain('href="/login"'); // the visitor's header and calls to action
    expect(root).toContain("support@atomize.local"); // the footer, from the server's settings
    expect(head.match(/<title>/g)).toHaveLength(1);
    expect(head).toContain("<title>Plans from Plain Language | Atomize Project Manager</title>");
    expect(head).toContain(`<link rel="canonical" href="${server.url}/" />`);
    expect(head).toMatch(/<meta name="description" content="Describe a software project in plain language/);
    expect(head).not.toContain("AI-powered task decomposition.");
    const ld = /<script type="application\/ld\+json" id="page-structured-data">([\s\S]*?)<\/script>/.exec(
      head,
    );
    expect(JSON.parse(ld![1]!)).toMatchObject({ "@type": "Organization", url: server.url });
    // A visitor's page is complete without scripts: React comes once it has loaded, so nothing of it is
    // preloaded to compete with the page (src/client/main.tsx).
    expect(head).not.toContain("landing-page-d.js");
    expect(head).not.toContain("use-page-meta-c.js");
    // It works without scripts, so it does not say it needs them.
    expect(html).not.toContain("<noscript>");
    expect(bootstrap).toEqual({
      ssr: true,
      hydrate: "idle",
      config: {
        publicUrl: server.url,
        supportEmail: "support@atomize.local",
        social: expect.objectContaining({ github: expect.stringMatching(/^https:/) }),
      },
      session: false,
      data: {},
    });
  });

  it("renders the same page for a signed-in request, and tells the browser a session may exist", async () => {
    const visitor = await getPage("/about");
    const signedIn = await getPage("/about", { cookie: admin.cookieHeader() });
    expect(visitor.root).toContain("Our Mission");
    expect(signedIn.root).toBe(visitor.root);
    expect(visitor.bootstrap.session).toBe(false);
    expect(signedIn.bootstrap.session).toBe(true);
    // Someone who may be signed in gets the app at once, its page's chunks preloaded; what the template
    // loads already is not repeated.
    expect(visitor.bootstrap.hydrate).toBe("idle");
    expect(signedIn.bootstrap.hydrate).toBe("now");
    const landing = await getPage("/", { cookie: admin.cookieHeader() });
    expect(landing.head).toContain('<link rel="modulepreload" crossorigin href="/assets/landing-page-d.js">');
    expect(landing.head).toContain(
      '<link rel="modulepreload" crossorigin href="/assets/use-page-meta-c.js">',
    );
    expect(landing.head.match(/jsx-runtime-b\.js/g)).toHaveLength(1);
  });

  it("renders the page in the reader's theme, from the cookie the browser keeps", async () => {
    const dark = await getPage("/about");
    expect(dark.html).toContain('<html lang="en" data-theme="dark">');
    const light = await getPage("/about", { cookie: "atomize_theme=light" });
    expect(light.html).toContain('<html lang="en" data-theme="light">');
    expect(light.root).toBe(dark.root);
  });

  it("renders the blog's published posts and hands the browser the API's own answer", async () => {
    const { root, bootstrap, head } = await getPage("/blog");
    expect(head).toContain("<title>Blog | Atomize Project Manager</title>");
    expect(root).toContain("Rendered on the server");
    expect(root).toContain("Pages that paint before scripts");
    expect(root).not.toContain("Still a draft");
    const key = "/api/blog/posts?page=1&page_size=12";
    expect(Object.keys(bootstrap.data)).toEqual([key]);
    const api = (await admin.get(key)).json;
    expect(bootstrap.data[key]).toEqual({
      ...api,
      posts: api.posts.map((p: { id: string }) => expect.objectContaining({ id: p.id })),
    });

    const searched = await getPage("/blog?q=server");
    expect(searched.root).toContain("Rendered on the server");
    expect(searched.root).not.toContain("Hostile markup");
    expect(Object.keys(searched.bootstrap.data)).toEqual([
      "/api/blog/posts?page=1&page_size=12&search=server",
    ]);
  });

  it("renders a post with its article metadata, sanitised, and counts no view", async () => {
    const views = async () => (await admin.get(`/api/admin/blog/posts/${published.id}`)).json.view_count;
    const before = await views();
    const { root, head, bootstrap } = await getPage(`/blog/${published.slug}`);
    expect(root).toContain(">Rendered on the server</h1>");
    expect(root).toContain("<h2>First paint</h2><p>The words arrive with the page.</p>");
    expect(head).toContain("<title>Rendered on the server | Atomize Project Manager</title>");
    expect(head).toContain('<meta property="og:type" content="article" />');
    expect(head).toContain(`<link rel="canonical" href="${server.url}/blog/${published.slug}" />`);
    expect(head.match(/<title>/g)).toHaveLength(1);
    expect(bootstrap.data[`/api/blog/posts/${published.slug}`]).toMatchObject({ id: published.id });
    expect(await views()).toBe(before);

    const bad = await getPage(`/blog/${hostile.slug}`);
    expect(bad.root).toContain("Kept text.");
    expect(bad.root).not.toMatch(/<script|onerror|alert\(/);
  });

  it("leaves a draft or an unknown post to the browser, which asks the API (an admin may preview a draft)", async () => {
    for (const slug of [draft.slug, "no-such-post"]) {
      const { root, head, bootstrap } = await getPage(`/blog/${slug}`);
      expect(root).toContain("Loading post...");
      expect(root).not.toContain("Not yet.");
      expect(head).not.toContain("og:type");
      expect(bootstrap.data).toEqual({});
    }
  });

  it("renders a signed-in route as the shell with its loading skeleton", async () => {
    const { html, root, bootstrap } = await getPage("/dashboard");
    expect(root).toContain("Loading page...");
    expect(root).toContain("Skip to content");
    expect(html).toContain("<noscript>");
    expect(bootstrap.ssr).toBe(true);
    // It needs its scripts to be more than a skeleton, so the browser starts them at once.
    expect(bootstrap.hydrate).toBe("now");
  });
});

describe("a server renderer that fails", () => {
  const brokenWork = path.resolve(
    "node_modules",
    ".cache",
    "atomize-test",
    `ssr-broken-${randomBytes(6).toString("hex")}`,
  );
  let broken: TestServer;

  beforeAll(async () => {
    mkdirSync(path.join(brokenWork, "client"), { recursive: true });
    mkdirSync(path.join(brokenWork, "ssr"), { recursive: true });
    writeFileSync(path.join(brokenWork, "client", "index.html"), INDEX_HTML);
    writeFileSync(
      path.join(brokenWork, "ssr", "entry-server.js"),
      'export async function render() { throw new Error("renderer broke"); }\n',
    );
    broken = await startTestServer({}, { clientDir: path.join(brokenWork, "client") });
  });

  afterAll(async () => {
    await broken?.stop();
    rmSync(brokenWork, { recursive: true, force: true });
  });

  it("leaves the page to the browser: the plain app page, never an error", async () => {
    const res = await fetch(`${broken.url}/about`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<div id="root"></div>');
    expect(html).toContain("<title>Atomize Project Manager</title>");
    expect(html).toContain('"ssr":false');
  });
});
