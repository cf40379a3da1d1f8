import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { XSS_CORPUS } from "../../src/server/services/blog/xss-corpus";
import { registerUser, TestClient, uniqueEmail } from "../support/http-client";
import { startTestServer, type TestServer } from "../support/server";
import { trpcError, trpcHttp } from "../support/trpc-client";

const ADMIN = "blog.posts.admin@example.com";
let server: TestServer;
let admin: TestClient;
let user: TestClient;
let anon: TestClient;

beforeAll(async () => {
  server = await startTestServer({ ADMIN_EMAILS: ADMIN });
  admin = new TestClient(server.url);
  await registerAdmin(server, admin);
  user = new TestClient(server.url);
  await registerUser(user);
  anon = new TestClient(server.url);
});
afterAll(() => server?.stop());

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

let counter = 0;
async function createPost(body: Record<string, unknown> = {}) {
  counter += 1;
  const res = await admin.post("/api/admin/blog/posts", {
    title: `Post number ${counter}`,
    content: `<p>Body of post ${counter}</p>`,
    ...body,
  });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${res.text}`);
  return res.json as Record<string, any>;
}

describe("admin post management", () => {
  it("creates a draft with the post fields, the author's name and a slug from the title", async () => {
    const res = await admin.post("/api/admin/blog/posts", {
      title: "  Hello, Wörld: Atomize Ships!  ",
      content: "<h2>Intro</h2><p>Some <strong>text</strong></p>",
      excerpt: "A short summary",
      featured_image: "https://images.example.com/cover.png",
      tags: [" release ", "Release", "news", ""],
      meta_description: "Meta",
      meta_keywords: "atomize, release",
    });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      title: "Hello, Wörld: Atomize Ships!",
      slug: "hello-world-atomize-ships",
      content: "<h2>Intro</h2><p>Some <strong>text</strong></p>",
      excerpt: "A short summary",
      featured_image: "https://images.example.com/cover.png",
      tags: ["release", "news"],
      status: "draft",
      meta_description: "Meta",
      meta_keywords: "atomize, release",
      author_name: "Ada Admin",
      published_at: null,
      view_count: 0,
      notified_at: null,
    });
    expect(res.json.id).toMatch(/^[0-9a-f-]{36}$/);
    const got = await admin.get(`/api/admin/blog/posts/${res.json.id}`);
    expect(got.status).toBe(200);
    expect(got.json.slug).toBe("hello-world-atomize-ships");
  });

  it("makes generated slugs unique with -2, -3 and refuses a taken explicit slug with 409", async () => {
    const a = await createPost({ title: "Same Title" });
    const b = await createPost({ title: "Same title!" });
    const c = await createPost({ title: "same   TITLE" });
    expect([a.slug, b.slug, c.slug]).toEqual(["same-title", "same-title-2", "same-title-3"]);
    const explicit = await createPost({ title: "Other", slug: "  My Custom Slug  " });
    expect(explicit.slug).toBe("my-custom-slug");
    const taken = await admin.post("/api/admin/blog/posts", {
      title: "Another",
      content: "<p>x</p>",
      slug: "My custom slug",
    });
    expect(taken.status).toBe(409);
    expect(taken.json.detail).toBe("A post with this slug already exists");
    const patchTaken = await admin.request("PATCH", `/api/admin/blog/posts/${a.id}`, {
      slug: "same-title-2",
    });
    expect(patchTaken.status).toBe(409);
    // A title without letters or digits still gets a slug.
    expect((await createPost({ title: "!!!" })).slug).toBe("post");
  });

  it("validates input with 422 and an errors list", async () => {
    const res = await admin.post("/api/admin/blog/posts", {
      title: " ",
      featured_image: "javascript:alert(1)",
      tags: Array.from({ length: 21 }, (_, i) => `t${i}`),
      status: "live",
    });
    expect(res.status).toBe(422);
    const fields = (res.json.errors as Array<{ field: string }>).map((e) => e.field);
    expect(fields).toEqual(expect.arrayContaining(["title", "content", "featured_image", "tags", "status"]));
    expect(res.json.detail).toBe("Title is required");
    const longTag = await admin.post("/api/admin/blog/posts", {
      title: "t",
      content: "c",
      tags: ["x".repeat(41)],
    });
    expect(longTag.status).toBe(422);
    expect(longTag.json.detail).toBe("Each tag must be at most 40 characters");
    const http = await admin.post("/api/admin/blog/posts", {
      title: "t",
      content: "c",
      featured_image: "http://insecure.example.com/a.png",
    });
    expect(http.status).toBe(422);
    const uploaded = await createPost({ featured_image: "/uploads/0123456789abcdef0123456789abcdef.png" });
    expect(uploaded.featured_image).toBe("/uploads/0123456789abcdef0123456789abcdef.png");
    const empty = await admin.request("PATCH", `/api/admin/blog/posts/${uploaded.id}`, {});
    expect(empty.status).toBe(422);
    expect(empty.json.detail).toBe("Nothing to update");
  });

  it("updates any field, keeps the slug when only the title changes, and sets published_at once", async () => {
    const post = await createPost({ title: "Draft one" });
    const patched = await admin.request("PATCH", `/api/admin/blog/posts/${post.id}`, {
      title: "Renamed draft",
      tags: ["a"],
      excerpt: "",
    });
    expect(patched.status).toBe(200);
    expect(patched.json).toMatchObject({
      title: "Renamed draft",
      slug: post.slug,
      tags: ["a"],
      excerpt: null,
    });
    const published = await admin.request("PATCH", `/api/admin/blog/posts/${post.id}`, {
      status: "published",
    });
    expect(published.json.status).toBe("published");
    const firstPublished = published.json.published_at as string;
    expect(firstPublished).toBeTruthy();
    await admin.request("PATCH", `/api/admin/blog/posts/${post.id}`, { status: "archived" });
    const again = await admin.request("PATCH", `/api/admin/blog/posts/${post.id}`, { status: "published" });
    expect(again.json.published_at).toBe(firstPublished);
    const reslug = await admin.request("PATCH", `/api/admin/blog/posts/${post.id}`, {
      slug: "Brand New Slug",
    });
    expect(reslug.json.slug).toBe("brand-new-slug");
  });

  it("lists every status for admins and deletes posts", async () => {
    const draft = await createPost({ status: "draft" });
    const archived = await createPost({ status: "archived" });
    const list = await admin.get("/api/admin/blog/posts?page_size=200");
    expect(list.status).toBe(200);
    const ids = (list.json.posts as Array<{ id: string }>).map((p) => p.id);
    expect(ids).toEqual(expect.arrayContaining([draft.id, archived.id]));
    expect(list.json).toMatchObject({ page: 1, page_size: 200, total: expect.any(Number) });
    const onlyArchived = await admin.get("/api/admin/blog/posts?status=archived&page_size=200");
    expect((onlyArchived.json.posts as Array<{ status: string }>).every((p) => p.status === "archived")).toBe(
      true,
    );
    const del = await admin.request("DELETE", `/api/admin/blog/posts/${draft.id}`);
    expect(del.status).toBe(200);
    expect(del.json.detail).toBe("Post deleted successfully");
    expect((await admin.get(`/api/admin/blog/posts/${draft.id}`)).status).toBe(404);
    expect((await admin.request("DELETE", `/api/admin/blog/posts/${draft.id}`)).status).toBe(404);
    expect((await admin.get("/api/admin/blog/posts/not-a-uuid")).status).toBe(404);
  });

  it("refuses admin routes to users (403) and visitors (401) with a detail", async () => {
    const post = await createPost();
    const routes: Array<[string, string, unknown?]> = [
      ["GET", "/api/admin/blog/posts"],
      ["GET", `/api/admin/blog/posts/${post.id}`],
      ["POST", "/api/admin/blog/posts", { title: "x", content: "y" }],
      ["PATCH", `/api/admin/blog/posts/${post.id}`, { title: "hacked" }],
      ["DELETE", `/api/admin/blog/posts/${post.id}`],
      ["GET", "/api/admin/blog/subscriptions"],
      ["DELETE", "/api/admin/blog/subscriptions/00000000-0000-4000-8000-000000000000"],
      ["GET", "/api/admin/outbox"],
      ["POST", "/api/uploads/blog-image", {}],
    ];
    for (const [method, path, body] of routes) {
      const asUser = await user.request(method, path, body);
      expect(asUser.status, `${method} ${path}`).toBe(403);
      expect(asUser.json.detail).toBe("You don't have permission to perform this action.");
      const asAnon = await anon.request(method, path, body);
      expect(asAnon.status, `${method} ${path}`).toBe(401);
      expect(asAnon.json.detail).toBeTruthy();
    }
    expect((await admin.get(`/api/admin/blog/posts/${post.id}`)).json.title).toBe(post.title);
  });
});

describe("public blog", () => {
  it("lists only published posts, newest first, 12 per page, with pagination", async () => {
    const fresh = await startTestServer({ ADMIN_EMAILS: ADMIN });
    try {
      const a = new TestClient(fresh.url);
      await registerAdmin(fresh, a);
      const made: string[] = [];
      for (let i = 0; i < 14; i++) {
        const res = await a.post("/api/admin/blog/posts", {
          title: `Published ${i}`,
          content: `<p>n ${i}</p>`,
          status: "published",
        });
        made.push(res.json.id as string);
      }
      await a.post("/api/admin/blog/posts", { title: "Hidden draft", content: "<p>d</p>" });
      await a.post("/api/admin/blog/posts", {
        title: "Hidden archive",
        content: "<p>d</p>",
        status: "archived",
      });
      const visitor = new TestClient(fresh.url);
      const page1 = await visitor.get("/api/blog/posts");
      expect(page1.status).toBe(200);
      expect(page1.json).toMatchObject({ total: 14, page: 1, page_size: 12 });
      expect((page1.json.posts as unknown[]).length).toBe(12);
      expect((page1.json.posts as Array<{ id: string }>)[0]!.id).toBe(made[13]);
      const page2 = await visitor.get("/api/blog/posts?page=2");
      expect((page2.json.posts as Array<{ id: string }>).map((p) => p.id)).toEqual([made[1], made[0]]);
      const titles = [...(page1.json.posts as any[]), ...(page2.json.posts as any[])].map((p) => p.title);
      expect(titles).not.toContain("Hidden draft");
      expect(titles).not.toContain("Hidden archive");
      expect((await visitor.get("/api/blog/posts?page_size=51")).status).toBe(422);
      expect((await visitor.get("/api/blog/posts?page_size=50")).json.page_size).toBe(50);
    } finally {
      await fresh.stop();
    }
  });

  it("searches published posts with full-text search, best match first", async () => {
    const tag = `zq${Date.now().toString(36)}`;
    const strong = await createPost({
      title: `Kubernetes ${tag} deployment guide`,
      excerpt: `All about ${tag}`,
      content: `<p>${tag} ${tag} deploying containers</p>`,
      status: "published",
    });
    const weak = await createPost({
      title: "Unrelated title",
      content: `<p>A passing mention of ${tag}.</p>`,
      status: "published",
    });
    await createPost({ title: `${tag} draft`, content: `<p>${tag}</p>`, status: "draft" });
    const res = await anon.get(`/api/blog/posts?search=${encodeURIComponent(tag)}`);
    expect(res.status).toBe(200);
    expect((res.json.posts as Array<{ id: string }>).map((p) => p.id)).toEqual([strong.id, weak.id]);
    expect(res.json.total).toBe(2);
    // Web-search syntax: quoted phrases and exclusions.
    const phrase = await anon.get(
      `/api/blog/posts?search=${encodeURIComponent(`"deploying containers" ${tag}`)}`,
    );
    expect((phrase.json.posts as Array<{ id: string }>).map((p) => p.id)).toEqual([strong.id]);
    const minus = await anon.get(`/api/blog/posts?search=${encodeURIComponent(`${tag} -kubernetes`)}`);
    expect((minus.json.posts as Array<{ id: string }>).map((p) => p.id)).toEqual([weak.id]);
    // Stemming: "deploy" finds "deployment".
    const stem = await anon.get(`/api/blog/posts?search=${encodeURIComponent(`${tag} deploy`)}`);
    expect((stem.json.posts as Array<{ id: string }>).map((p) => p.id)).toContain(strong.id);
    const none = await anon.get(`/api/blog/posts?search=${encodeURIComponent(`${tag}nothing`)}`);
    expect(none.json).toMatchObject({ posts: [], total: 0 });
    // Punctuation that is not search syntax is harmless.
    expect((await anon.get(`/api/blog/posts?search=${encodeURIComponent("'); drop table --")}`)).status).toBe(
      200,
    );
  });

  it("gets a published post by slug and counts each public view, but not an admin's preview", async () => {
    const post = await createPost({ title: "Counted post", status: "published" });
    const first = await anon.get(`/api/blog/posts/${post.slug}`);
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ id: post.id, title: "Counted post", view_count: 1 });
    expect(first.json.notified_at).toBeUndefined();
    expect((await user.get(`/api/blog/posts/${post.slug}`)).json.view_count).toBe(2);
    expect((await anon.get(`/api/blog/posts/${post.slug}`)).json.view_count).toBe(3);
    const preview = await admin.get(`/api/blog/posts/${post.slug}`);
    expect(preview.json.view_count).toBe(3);
    expect((await admin.get(`/api/admin/blog/posts/${post.id}`)).json.view_count).toBe(3);
  });

  it("hides drafts and archived posts from the public but lets admins preview them", async () => {
    const draft = await createPost({ title: "Secret draft" });
    const archived = await createPost({ title: "Old archived", status: "archived" });
    for (const p of [draft, archived]) {
      const res = await anon.get(`/api/blog/posts/${p.slug}`);
      expect(res.status).toBe(404);
      expect(res.json.detail).toBe("Blog post not found");
      expect((await user.get(`/api/blog/posts/${p.slug}`)).status).toBe(404);
      expect((await admin.get(`/api/blog/posts/${p.slug}`)).status).toBe(200);
    }
    const rows = await server.deps.database.rows<{ view_count: number }>(
      sql`select view_count from blog_posts where id = ${draft.id}`,
    );
    expect(rows[0]!.view_count).toBe(0);
    expect((await anon.get("/api/blog/posts/no-such-post")).status).toBe(404);
  });
});

describe("sanitising post HTML on save", () => {
  it(`removes every payload of a ${XSS_CORPUS.length}-entry XSS corpus and keeps ordinary formatting`, async () => {
    expect(XSS_CORPUS.length).toBeGreaterThanOrEqual(25);
    for (const payload of XSS_CORPUS) {
      const created = await admin.post("/api/admin/blog/posts", {
        title: "XSS probe",
        content: `<p>before</p>${payload}<p>after</p>`,
        status: "published",
      });
      if (payload.includes("\u0000")) {
        // The API refuses any text with a NUL character before it reaches the sanitiser.
        expect(created.status, payload).toBe(422);
        continue;
      }
      expect(created.status, payload).toBe(201);
      const read = await anon.get(`/api/blog/posts/${created.json.slug}`);
      for (const html of [created.json.content as string, read.json.content as string]) {
        expect(html, payload).not.toMatch(/<script/i);
        expect(html, payload).not.toMatch(/<[^>]*\son[a-z]+\s*=/i);
        expect(html, payload).not.toMatch(/(javascript|vbscript|data)\s*:/i);
        expect(html, payload).not.toMatch(
          /<(iframe|object|embed|style|meta|base|link|form|svg|math|input|body|button)\b/i,
        );
        expect(html, payload).not.toMatch(/\sstyle\s*=/i);
        expect(html, payload).toContain("<p>before</p>");
      }
      // Patching the content goes through the same sanitiser.
      const patched = await admin.request("PATCH", `/api/admin/blog/posts/${created.json.id}`, {
        content: `<p>x</p>${payload}`,
      });
      expect(patched.json.content as string, payload).not.toMatch(/<script|javascript:|\son[a-z]+\s*=/i);
    }
  });

  it("keeps headings, lists, code, quotes, tables, safe links and images", async () => {
    const html =
      "<h2>Title</h2><h3>Sub</h3><p>Text <em>em</em> <strong>strong</strong> <code>x &lt; y</code></p>" +
      '<ul><li>one</li></ul><ol start="3"><li>three</li></ol><blockquote>quote</blockquote>' +
      '<pre><code class="language-ts">const a = 1;</code></pre>' +
      '<table><thead><tr><th scope="col">H</th></tr></thead><tbody><tr><td colspan="2">D</td></tr></tbody></table>' +
      '<p><a href="https://example.com/a?b=1" title="t">https</a> <a href="http://example.com">http</a> ' +
      '<a href="mailto:hi@example.com">mail</a> <a href="/blog/other">relative</a></p>' +
      '<img src="https://example.com/i.png" alt="alt text"><img src="/uploads/x.png" alt="">';
    const post = await createPost({ content: html });
    const out = post.content as string;
    for (const kept of [
      "<h2>Title</h2>",
      "<h3>Sub</h3>",
      "<em>em</em>",
      "<strong>strong</strong>",
      "<code>x &lt; y</code>",
      "<ul><li>one</li></ul>",
      '<ol start="3">',
      "<blockquote>quote</blockquote>",
      '<code class="language-ts">',
      '<th scope="col">H</th>',
      '<td colspan="2">D</td>',
      'href="https://example.com/a?b=1"',
      'href="http://example.com"',
      'href="mailto:hi@example.com"',
      'href="/blog/other"',
      'src="https://example.com/i.png"',
      'alt="alt text"',
      'src="/uploads/x.png"',
    ]) {
      expect(out).toContain(kept);
    }
  });

  it("refuses content that is empty once unsafe HTML is removed", async () => {
    const res = await admin.post("/api/admin/blog/posts", {
      title: "Only a script",
      content: "<script>alert(1)</script>",
    });
    expect(res.status).toBe(422);
    expect(res.json.errors[0].field).toBe("content");
  });
});

describe("blog over tRPC", () => {
  it("serves the public and admin procedures through the same services", async () => {
    const t = trpcHttp(admin);
    const created = await t.blog.admin.posts.create.mutate({
      title: "Via tRPC",
      content: "<p>hello <img src=x onerror=alert(1)></p>",
      status: "published",
      tags: ["trpc"],
    });
    expect(created.slug).toBe("via-trpc");
    expect(created.content).toBe('<p>hello <img src="x"></p>');
    const updated = await t.blog.admin.posts.update.mutate({ id: created.id, updates: { excerpt: "Short" } });
    expect(updated.excerpt).toBe("Short");
    expect((await t.blog.admin.posts.get.query({ id: created.id })).title).toBe("Via tRPC");
    expect((await t.blog.admin.posts.list.query({ status: "published" })).posts.map((p) => p.id)).toContain(
      created.id,
    );
    const pub = trpcHttp(new TestClient(server.url));
    const got = await pub.blog.get.query({ slug: "via-trpc" });
    expect(got.view_count).toBe(1);
    expect((await pub.blog.list.query({ search: "via trpc" })).posts[0]!.id).toBe(created.id);
    const forbidden = await trpcError(trpcHttp(user).blog.admin.posts.list.query());
    expect(forbidden.data.httpStatus).toBe(403);
    const unauth = await trpcError(pub.blog.admin.posts.create.mutate({ title: "x", content: "y" }));
    expect(unauth.data.httpStatus).toBe(401);
    const conflict = await trpcError(
      t.blog.admin.posts.create.mutate({ title: "x", content: "y", slug: "via-trpc" }),
    );
    expect(conflict.data.httpStatus).toBe(409);
    expect(await t.blog.admin.posts.delete.mutate({ id: created.id })).toEqual({
      detail: "Post deleted successfully",
    });
  });

  it("subscribes, reads and cancels the signed-in user's subscription", async () => {
    const tab = new TestClient(server.url);
    const { email } = await registerUser(tab, { email: uniqueEmail("trpc.sub") });
    const t = trpcHttp(tab);
    expect(await t.blog.mySubscription.query()).toBeNull();
    // Unverified e-mail: a pending subscription to confirm by e-mail, nothing disclosed in the answer.
    const pending = await t.blog.subscribe.mutate({ email: "someone.else@example.com" });
    expect(pending).toEqual({
      detail: "Check your inbox: we sent a link to confirm your subscription.",
      confirmation_required: true,
    });
    expect(await t.blog.mySubscription.query()).toMatchObject({
      email: email.toLowerCase(),
      status: "pending",
    });
    // Verified: active at once, and the answer shows it.
    await server.deps.database.rows(
      sql`update users set email_verified_at = now() where lower(email) = ${email.toLowerCase()}`,
    );
    const sub = await t.blog.subscribe.mutate({});
    if (sub.confirmation_required) throw new Error("a verified account needs no confirmation");
    expect(sub).toMatchObject({
      detail: "Successfully subscribed! You'll receive weekly updates.",
      subscription: { email: email.toLowerCase(), status: "active" },
    });
    expect((await t.blog.mySubscription.query())?.id).toBe(sub.subscription.id);
    expect(await t.blog.unsubscribe.mutate()).toEqual({ detail: "Successfully unsubscribed" });
    expect(await t.blog.mySubscription.query()).toBeNull();
    const bad = await trpcError(trpcHttp(anon).blog.unsubscribeWithToken.mutate({ token: "forged.token" }));
    expect(bad.data.httpStatus).toBe(400);
  });
});
