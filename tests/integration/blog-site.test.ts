import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerUser, TestClient } from "../support/http-client";
import { startTestServer, type TestServer } from "../support/server";

const ADMIN = "blog.site.admin@example.com";
const INDEX_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta
      name="description"
      content="Atomize: AI-powered task decomposition."
    />
    <title>Atomize Project Manager</title>
  </head>
  <body><div id="root"></div><script type="module" src="/assets/app.js"></script></body>
</html>
`;

let server: TestServer;
let admin: TestClient;
let clientDir: string;

beforeAll(async () => {
  clientDir = mkdtempSync(path.join(tmpdir(), "atomize-blog-client-"));
  writeFileSync(path.join(clientDir, "index.html"), INDEX_HTML);
  mkdirSync(path.join(clientDir, "assets"));
  server = await startTestServer({ ADMIN_EMAILS: ADMIN }, { clientDir });
  admin = new TestClient(server.url);
  await registerAdmin(server, admin, "Site Admin");
});
/**
 * Registers an admin: the role (and a verified e-mail) is set in the database, so the test does not
 * depend on how ADMIN_EMAILS is applied at registration or sign-in.
 */
async function registerAdmin(s: TestServer, client: TestClient, fullName = "Ada Admin") {
  await registerUser(client, { email: ADMIN, full_name: fullName });
  await s.deps.database.rows(
    sql`update users set role = 'admin', email_verified_at = now() where lower(email) = ${ADMIN}`,
  );
}

afterAll(async () => {
  await server?.stop();
  rmSync(clientDir, { recursive: true, force: true });
});

// -- uploads ---------------------------------------------------------------------------------------------
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from("0000000d49484452000000010000000108060000001f15c489", "hex"),
]);
const JPEG = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
  Buffer.from("JFIF\0rest-of-jpeg"),
]);
const GIF = Buffer.from("GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00!", "latin1");
const WEBP = Buffer.concat([
  Buffer.from("RIFF"),
  Buffer.from([0x1a, 0, 0, 0]),
  Buffer.from("WEBPVP8L\x0d\x00\x00\x00\x2f\x00\x00\x00", "latin1"),
]);

async function upload(
  client: TestClient,
  bytes: Buffer,
  name: string,
  type: string,
  field = "file",
): Promise<{ status: number; json: Record<string, any>; headers: Headers }> {
  const form = new FormData();
  form.append(field, new Blob([new Uint8Array(bytes)], { type }), name);
  const headers: Record<string, string> = {};
  if (client.cookies.size) headers.cookie = client.cookieHeader();
  if (client.origin) headers.origin = client.origin;
  const res = await fetch(`${client.baseUrl}/api/uploads/blog-image`, {
    method: "POST",
    body: form,
    headers,
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : {}, headers: res.headers };
}

describe("blog image uploads", () => {
  it.each([
    ["png", PNG, "photo.png", "image/png", "image/png"],
    ["jpg", JPEG, "photo.jpeg", "image/jpeg", "image/jpeg"],
    ["gif", GIF, "anim.gif", "image/gif", "image/gif"],
    ["webp", WEBP, "pic.webp", "image/webp", "image/webp"],
  ])("accepts a %s by its magic bytes and serves it inertly", async (ext, bytes, name, type, served) => {
    const res = await upload(admin, bytes, name, type);
    expect(res.status).toBe(201);
    expect(res.json.url).toMatch(new RegExp(`^/uploads/[0-9a-f]{32}\\.${ext}$`));
    const got = await fetch(`${server.url}${res.json.url}`);
    expect(got.status).toBe(200);
    expect(got.headers.get("content-type")).toBe(served);
    expect(got.headers.get("x-content-type-options")).toBe("nosniff");
    expect(got.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(got.headers.get("content-disposition")).toMatch(/^inline/);
    expect(got.headers.get("cache-control")).toContain("max-age=31536000");
    expect(Buffer.from(await got.arrayBuffer()).equals(bytes)).toBe(true);
    // The URL is accepted as a post's featured image.
    const post = await admin.post("/api/admin/blog/posts", {
      title: "With image",
      content: "<p>x</p>",
      featured_image: res.json.url,
    });
    expect(post.status).toBe(201);
  });

  it("judges by content, not by name or declared type", async () => {
    const exe = await upload(admin, PNG, "setup.exe", "application/octet-stream");
    expect(exe.status).toBe(201);
    expect(exe.json.url).toMatch(/\.png$/);
    for (const [bytes, name, type] of [
      [Buffer.from("just some text, not an image"), "notes.png", "image/png"],
      [Buffer.from("<svg xmlns='http://www.w3.org/2000/svg' onload='alert(1)'/>"), "x.svg", "image/svg+xml"],
      [Buffer.from("<html><script>alert(1)</script></html>"), "page.gif", "image/gif"],
      [Buffer.from([0x89, 0x50, 0x4e]), "short.png", "image/png"],
      [Buffer.alloc(0), "empty.png", "image/png"],
    ] as const) {
      const res = await upload(admin, bytes, name, type);
      expect(res.status, name).toBe(422);
      expect(res.json.detail).toBe("Please upload a valid image file (JPEG, PNG, GIF, or WebP)");
    }
    const wrongField = await upload(admin, PNG, "a.png", "image/png", "image");
    expect(wrongField.status).toBe(422);
    expect(wrongField.json.detail).toBe("Please upload a valid image file (JPEG, PNG, GIF, or WebP)");
  });

  it("accepts exactly 5 MB and refuses anything larger with the exact message", async () => {
    const max = 5 * 1024 * 1024;
    const exact = Buffer.concat([PNG, Buffer.alloc(max - PNG.length)]);
    expect((await upload(admin, exact, "max.png", "image/png")).status).toBe(201);
    const over = Buffer.concat([PNG, Buffer.alloc(max - PNG.length + 1)]);
    const res = await upload(admin, over, "big.png", "image/png");
    expect(res.status).toBe(413);
    expect(res.json.detail).toBe("Image size must be less than 5MB");
    // Far over: stopped by the route's body limit before the body is read, same message.
    const huge = await upload(
      admin,
      Buffer.concat([PNG, Buffer.alloc(8 * 1024 * 1024)]),
      "huge.png",
      "image/png",
    );
    expect(huge.status).toBe(413);
    expect(huge.json.detail).toBe("Image size must be less than 5MB");
  });

  it("keeps the 1 MB body limit everywhere else", async () => {
    const res = await admin.post("/api/admin/blog/posts", {
      title: "Too big",
      content: `<p>${"x".repeat(1024 * 1024 + 10)}</p>`,
    });
    expect(res.status).toBe(413);
  });

  it("refuses path traversal and unknown names", async () => {
    const stored = readdirSync(path.join(server.dataDir, "uploads"));
    expect(stored.length).toBeGreaterThan(0);
    expect(stored.every((n) => /^[0-9a-f]{32}\.(png|jpg|gif|webp)$/.test(n))).toBe(true);
    for (const p of [
      "/uploads/..%2Fcredentials.key",
      "/uploads/..%2F..%2Fpackage.json",
      "/uploads/%2e%2e%2fcredentials.key",
      "/uploads/..%5Ccredentials.key",
      "/uploads/credentials.key",
      "/uploads/0123456789abcdef0123456789abcdef.png",
      "/uploads/0123456789ABCDEF0123456789ABCDEF.png",
      `/uploads/${stored[0]!.replace(/\.\w+$/, ".html")}`,
    ]) {
      const res = await fetch(`${server.url}${p}`);
      expect(res.status, p).toBe(404);
      expect(await res.text()).not.toContain("credentials");
    }
  });
});

// -- crawlers ----------------------------------------------------------------------------------------------
describe("pages for crawlers", () => {
  let published: Record<string, any>;
  let draft: Record<string, any>;
  const evilTitle = `Tips & "tricks" </script><script>alert(1)</script>`;
  beforeAll(async () => {
    published = (
      await admin.post("/api/admin/blog/posts", {
        title: "Shipping Atomize 1.0",
        content: `<p>${"Long content about the release. ".repeat(12)}</p>`,
        excerpt: "Everything new in 1.0",
        featured_image: "/uploads/0123456789abcdef0123456789abcdef.png",
        tags: ["release", "news"],
        status: "published",
      })
    ).json;
    draft = (await admin.post("/api/admin/blog/posts", { title: "Unfinished", content: "<p>draft</p>" }))
      .json;
  });

  it("serves robots.txt", async () => {
    const res = await fetch(`${server.url}/robots.txt`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(text).toContain("User-agent: *\nAllow: /\n");
    for (const p of ["/dashboard", "/tasks", "/settings", "/admin", "/api"])
      expect(text).toContain(`Disallow: ${p}\n`);
    expect(text).toContain(`Sitemap: ${server.url}/sitemap.xml`);
  });

  it("serves a sitemap of the public pages and every published post", async () => {
    const res = await fetch(`${server.url}/sitemap.xml`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/xml/);
    const xml = await res.text();
    expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    for (const p of ["/", "/about", "/contact", "/privacy", "/terms", "/blog"]) {
      expect(xml).toContain(`<loc>${server.url}${p}</loc>`);
    }
    expect(xml).toContain(
      `<url><loc>${server.url}/blog/${published.slug}</loc><lastmod>${published.updated_at}</lastmod></url>`,
    );
    expect(xml).not.toContain(draft.slug);
  });

  it("serves an RSS 2.0 feed of published posts with absolute links", async () => {
    const evil = (
      await admin.post("/api/admin/blog/posts", {
        title: evilTitle,
        content: "<p>x</p>",
        status: "published",
      })
    ).json;
    const res = await fetch(`${server.url}/blog/rss.xml`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/rss\+xml/);
    const xml = await res.text();
    expect(xml).toContain('<rss version="2.0"');
    expect(xml).toContain(`<link>${server.url}/blog/${published.slug}</link>`);
    expect(xml).toContain("<description>Everything new in 1.0</description>");
    expect(xml).toContain("<category>release</category>");
    expect(xml).toContain(
      `<title>Tips &amp; &quot;tricks&quot; &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;</title>`,
    );
    expect(xml).not.toContain("<script>");
    expect(xml).not.toContain(draft.slug);
    expect(xml.indexOf(evil.slug)).toBeLessThan(xml.indexOf(published.slug)); // newest first
  });

  it("puts the post's title, description, canonical URL, Open Graph tags and JSON-LD in the SPA's head", async () => {
    const before = (await admin.get(`/api/admin/blog/posts/${published.id}`)).json.view_count;
    const res = await fetch(`${server.url}/blog/${published.slug}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await res.text();
    const url = `${server.url}/blog/${published.slug}`;
    expect(html).toContain("<title>Shipping Atomize 1.0 | Atomize Project Manager</title>");
    expect(html.match(/<title>/g)).toHaveLength(1);
    expect(html).toContain('<meta name="description" content="Everything new in 1.0" />');
    expect(html).not.toContain("AI-powered task decomposition.");
    expect(html).toContain(`<link rel="canonical" href="${url}" />`);
    expect(html).toContain('<meta property="og:type" content="article" />');
    expect(html).toContain('<meta property="og:title" content="Shipping Atomize 1.0" />');
    expect(html).toContain('<meta property="og:description" content="Everything new in 1.0" />');
    expect(html).toContain(`<meta property="og:url" content="${url}" />`);
    expect(html).toContain(
      `<meta property="og:image" content="${server.url}/uploads/0123456789abcdef0123456789abcdef.png" />`,
    );
    expect(html).toContain('<meta property="article:tag" content="release" />');
    const ld = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)![1]!;
    expect(JSON.parse(ld)).toMatchObject({
      "@type": "Article",
      headline: "Shipping Atomize 1.0",
      author: { name: "Site Admin" },
      datePublished: published.published_at,
      mainEntityOfPage: { "@id": url },
    });
    // The app itself still loads, and a crawler's read is not counted as a view.
    expect(html).toContain('<div id="root"></div>');
    expect(html).toContain('src="/assets/app.js"');
    expect(html.indexOf("og:title")).toBeLessThan(html.indexOf("</head>"));
    expect((await admin.get(`/api/admin/blog/posts/${published.id}`)).json.view_count).toBe(before);
  });

  it("falls back to 160 characters of text for the description and escapes a hostile title", async () => {
    const post = (
      await admin.post("/api/admin/blog/posts", {
        title: evilTitle,
        content: `<p>${"word ".repeat(100)}</p>`,
        status: "published",
      })
    ).json;
    const html = await (await fetch(`${server.url}/blog/${post.slug}`)).text();
    expect(html).not.toContain("<script>alert(1)</script>");
    expect(html).not.toMatch(/<\/script><script>alert/);
    expect(html).toContain(
      '<meta property="og:title" content="Tips &amp; &quot;tricks&quot; &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;" />',
    );
    const ld = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)![1]!;
    expect(ld).toContain("\\u003c/script\\u003e\\u003cscript\\u003ealert(1)\\u003c/script\\u003e");
    expect(JSON.parse(ld).headline).toBe(evilTitle);
    const description = /<meta name="description" content="([^"]*)"/.exec(html)![1]!;
    expect(description.length).toBeLessThanOrEqual(160);
    expect(description.startsWith("word word")).toBe(true);
  });

  it("serves the plain SPA for unknown slugs, drafts and other routes", async () => {
    for (const p of ["/blog/no-such-post", `/blog/${draft.slug}`, "/blog", "/dashboard"]) {
      const res = await fetch(`${server.url}${p}`);
      expect(res.status, p).toBe(200);
      const html = await res.text();
      expect(html, p).toContain("<title>Atomize Project Manager</title>");
      expect(html, p).not.toContain("og:title");
    }
  });
});
