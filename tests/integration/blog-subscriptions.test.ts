import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUnsubscribeToken } from "../../src/server/services/blog/unsubscribe-token";
import { type FakeSmtp, startFakeSmtp } from "../fakes/smtp";
import { registerUser, TestClient, uniqueEmail } from "../support/http-client";
import { startTestServer, type TestServer } from "../support/server";

const ADMIN = "blog.subs.admin@example.com";
let server: TestServer;
let admin: TestClient;

beforeAll(async () => {
  server = await startTestServer({ ADMIN_EMAILS: ADMIN });
  admin = new TestClient(server.url);
  await registerUser(admin, { email: ADMIN });
});
afterAll(() => server?.stop());

async function outbox(client: TestClient, to?: string) {
  const res = await client.get(`/api/admin/outbox${to ? `?to=${encodeURIComponent(to)}` : ""}`);
  expect(res.status).toBe(200);
  return res.json as {
    transport: string;
    total: number;
    messages: Array<{ id: string; to: string; subject: string; text: string; html: string }>;
  };
}

async function until<T>(fn: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (ok(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Every queued or running job has finished. */
async function jobsIdle(s: TestServer) {
  await until(
    () =>
      s.deps.database.rows<{ n: number }>(
        sql`select count(*)::int as n from jobs where status in ('queued', 'running')`,
      ),
    (rows) => rows[0]!.n === 0,
  );
}

describe("subscribing", () => {
  it("subscribes a signed-in user with the account's e-mail, shows it, and cancels it", async () => {
    const tab = new TestClient(server.url);
    const { email } = await registerUser(tab, { email: uniqueEmail("Reader") });
    const none = await tab.get("/api/blog/my-subscription");
    expect(none.status).toBe(404);
    expect(none.json.detail).toBeTruthy();
    const res = await tab.post("/api/blog/subscribe", {
      email: "not-my-address@example.com",
      frequency: "weekly",
      categories: [],
    });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      detail: "Successfully subscribed! You'll receive weekly updates.",
      already_subscribed: false,
      subscription: {
        email: email.toLowerCase(),
        status: "active",
        frequency: "weekly",
        categories: [],
        last_notified_at: null,
      },
    });
    const mine = await tab.get("/api/blog/my-subscription");
    expect(mine.status).toBe(200);
    expect(mine.json).toMatchObject({ id: res.json.subscription.id, frequency: "weekly", status: "active" });
    const again = await tab.post("/api/blog/subscribe", {});
    expect(again.status).toBe(200);
    expect(again.json.already_subscribed).toBe(true);
    expect(again.json.subscription.id).toBe(res.json.subscription.id);
    const cancel = await tab.request("DELETE", "/api/blog/my-subscription");
    expect(cancel.status).toBe(200);
    expect(cancel.json.detail).toBe("Successfully unsubscribed");
    expect((await tab.get("/api/blog/my-subscription")).status).toBe(404);
    expect((await tab.request("DELETE", "/api/blog/my-subscription")).status).toBe(404);
  });

  it("subscribes visitors by e-mail and handles duplicates without errors or a second row", async () => {
    const visitor = new TestClient(server.url);
    const email = uniqueEmail("visitor");
    const first = await visitor.post("/api/blog/subscribe", { email: `  ${email.toUpperCase()}  ` });
    expect(first.status).toBe(201);
    expect(first.json.subscription).toMatchObject({
      email: email.toLowerCase(),
      frequency: "weekly",
      categories: [],
    });
    const dupes = await Promise.all(
      [email, email.toUpperCase(), ` ${email}`].map((e) =>
        new TestClient(server.url).post("/api/blog/subscribe", { email: e }),
      ),
    );
    for (const d of dupes) {
      expect(d.status).toBe(200);
      expect(d.json).toMatchObject({
        already_subscribed: true,
        detail: "You're already subscribed to blog updates.",
        subscription: { id: first.json.subscription.id },
      });
    }
    const rows = await server.deps.database.rows<{ n: number }>(
      sql`select count(*)::int as n from blog_subscriptions where lower(email) = ${email.toLowerCase()}`,
    );
    expect(rows[0]!.n).toBe(1);
    // A user who registers later with that address owns the subscription.
    const tab = new TestClient(server.url);
    await registerUser(tab, { email });
    expect((await tab.get("/api/blog/my-subscription")).json.id).toBe(first.json.subscription.id);
  });

  it("validates the visitor's e-mail and the other fields", async () => {
    const visitor = new TestClient(server.url);
    const missing = await visitor.post("/api/blog/subscribe", { frequency: "weekly", categories: [] });
    expect(missing.status).toBe(422);
    expect(missing.json.detail).toBe("Please enter your email address");
    const blank = await visitor.post("/api/blog/subscribe", { email: "   " });
    expect(blank.status).toBe(422);
    const bad = await visitor.post("/api/blog/subscribe", { email: "not-an-email" });
    expect(bad.status).toBe(422);
    expect(bad.json.errors[0]).toEqual({ field: "email", message: "Please enter a valid email address" });
    const freq = await visitor.post("/api/blog/subscribe", { email: uniqueEmail(), frequency: "hourly" });
    expect(freq.status).toBe(422);
    const cats = await visitor.post("/api/blog/subscribe", {
      email: uniqueEmail(),
      categories: [" news ", "news", "releases"],
    });
    expect(cats.json.subscription.categories).toEqual(["news", "releases"]);
    expect((await visitor.get("/api/blog/my-subscription")).status).toBe(401);
    expect((await visitor.request("DELETE", "/api/blog/my-subscription")).status).toBe(401);
  });

  it("lets admins list and delete subscriptions (and nobody else)", async () => {
    const email = uniqueEmail("listed");
    const created = await new TestClient(server.url).post("/api/blog/subscribe", { email });
    const list = await admin.get("/api/admin/blog/subscriptions?page_size=200");
    expect(list.status).toBe(200);
    const found = (list.json.subscriptions as Array<Record<string, unknown>>).find((s) => s.email === email);
    expect(found).toMatchObject({
      id: created.json.subscription.id,
      status: "active",
      frequency: "weekly",
      last_notified_at: null,
      created_at: expect.any(String),
    });
    expect(list.json.total).toBeGreaterThanOrEqual(1);
    const user = new TestClient(server.url);
    await registerUser(user);
    const id = created.json.subscription.id as string;
    expect((await user.request("DELETE", `/api/admin/blog/subscriptions/${id}`)).status).toBe(403);
    expect((await user.get("/api/admin/blog/subscriptions")).status).toBe(403);
    const del = await admin.request("DELETE", `/api/admin/blog/subscriptions/${id}`);
    expect(del.status).toBe(200);
    expect(del.json.detail).toBe("Subscription deleted successfully");
    expect((await admin.request("DELETE", `/api/admin/blog/subscriptions/${id}`)).status).toBe(404);
    expect((await admin.request("DELETE", "/api/admin/blog/subscriptions/nope")).status).toBe(404);
  });
});

describe("one-click unsubscribe links", () => {
  it("removes the subscription for a valid signed token and shows a page", async () => {
    const email = uniqueEmail("link");
    const sub = await new TestClient(server.url).post("/api/blog/subscribe", { email });
    const token = signUnsubscribeToken(server.deps.unsubscribeKey, sub.json.subscription.id);
    const res = await fetch(`${server.url}/api/blog/unsubscribe?token=${encodeURIComponent(token)}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/text\/html/);
    expect(await res.text()).toContain("You have been unsubscribed");
    const rows = await server.deps.database.rows(
      sql`select 1 from blog_subscriptions where id = ${sub.json.subscription.id}`,
    );
    expect(rows).toHaveLength(0);
    // A second click is still a success page; RFC 8058 one-click POST works the same.
    expect(
      (await fetch(`${server.url}/api/blog/unsubscribe?token=${encodeURIComponent(token)}`)).status,
    ).toBe(200);
    const sub2 = await new TestClient(server.url).post("/api/blog/subscribe", { email: uniqueEmail("post") });
    const token2 = signUnsubscribeToken(server.deps.unsubscribeKey, sub2.json.subscription.id);
    const post = await fetch(`${server.url}/api/blog/unsubscribe?token=${encodeURIComponent(token2)}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(post.status).toBe(200);
  });

  it("refuses forged, tampered and malformed tokens with a 400 page and keeps the subscription", async () => {
    const sub = await new TestClient(server.url).post("/api/blog/subscribe", {
      email: uniqueEmail("forged"),
    });
    const id = sub.json.subscription.id as string;
    const forgedKey = Buffer.alloc(32, 7);
    const good = signUnsubscribeToken(server.deps.unsubscribeKey, id);
    const otherId = "00000000-0000-4000-8000-000000000000";
    for (const token of [
      signUnsubscribeToken(forgedKey, id),
      `${otherId}.${good.split(".")[1]}`,
      `${id}.${good.split(".")[1]!.slice(0, -2)}AA`,
      id,
      "",
      "<script>alert(1)</script>",
    ]) {
      const res = await fetch(`${server.url}/api/blog/unsubscribe?token=${encodeURIComponent(token)}`);
      expect(res.status, token).toBe(400);
      const html = await res.text();
      expect(html).toContain("invalid");
      expect(html).not.toContain("<script>alert");
    }
    const rows = await server.deps.database.rows(sql`select 1 from blog_subscriptions where id = ${id}`);
    expect(rows).toHaveLength(1);
  });
});

describe("e-mail on first publication (outbox)", () => {
  it("e-mails each active subscriber once, with an unsubscribe link, and never again for that post", async () => {
    const s = await startTestServer({ ADMIN_EMAILS: ADMIN });
    try {
      const a = new TestClient(s.url);
      await registerUser(a, { email: ADMIN });
      const readers = [uniqueEmail("r1"), uniqueEmail("r2"), uniqueEmail("r3")];
      for (const email of readers) await new TestClient(s.url).post("/api/blog/subscribe", { email });
      const draft = await a.post("/api/admin/blog/posts", {
        title: "Big <News> & more",
        content: "<p>The body of the announcement.</p>",
        excerpt: "A summary for readers",
      });
      await jobsIdle(s);
      expect((await outbox(a)).total).toBe(0); // drafts announce nothing

      const published = await a.request("PATCH", `/api/admin/blog/posts/${draft.json.id}`, {
        status: "published",
      });
      expect(published.json.notified_at).toBeTruthy();
      const box = await until(
        () => outbox(a),
        (b) => b.total >= 3,
      );
      expect(box.transport).toBe("outbox");
      expect(box.messages.map((m) => m.to).sort()).toEqual(readers.map((r) => r.toLowerCase()).sort());
      const msg = box.messages.find((m) => m.to === readers[0]!.toLowerCase())!;
      expect(msg.subject).toBe("New on the Atomize blog: Big <News> & more");
      expect(msg.text).toContain("A summary for readers");
      expect(msg.text).toContain(`${s.url}/blog/${draft.json.slug}`);
      expect(msg.html).toContain("Big &lt;News&gt; &amp; more");
      const link = /Unsubscribe: (\S+)/.exec(msg.text)![1]!;
      expect(link.startsWith(`${s.url}/api/blog/unsubscribe?token=`)).toBe(true);
      expect(msg.html).toContain(link.replace(/&/g, "&amp;"));

      await jobsIdle(s);
      const subs = await a.get("/api/admin/blog/subscriptions");
      for (const sub of subs.json.subscriptions as Array<{ last_notified_at: string | null }>) {
        expect(sub.last_notified_at).toBeTruthy();
      }

      // Updating, unpublishing and publishing again sends nothing more.
      await a.request("PATCH", `/api/admin/blog/posts/${draft.json.id}`, { title: "Big News, edited" });
      await a.request("PATCH", `/api/admin/blog/posts/${draft.json.id}`, { status: "draft" });
      await a.request("PATCH", `/api/admin/blog/posts/${draft.json.id}`, { status: "published" });
      await a.request("PATCH", `/api/admin/blog/posts/${draft.json.id}`, { status: "archived" });
      await a.request("PATCH", `/api/admin/blog/posts/${draft.json.id}`, { status: "published" });
      await jobsIdle(s);
      await new Promise((r) => setTimeout(r, 200));
      expect((await outbox(a)).total).toBe(3);

      // The link in the e-mail unsubscribes that reader, who gets nothing for the next post.
      const page = await fetch(link);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain("You have been unsubscribed");
      await a.post("/api/admin/blog/posts", {
        title: "Second post",
        content: "<p>two</p>",
        status: "published",
      });
      const after = await until(
        () => outbox(a),
        (b) => b.total >= 5,
      );
      await jobsIdle(s);
      const second = (await outbox(a)).messages.filter((m) => m.subject.endsWith("Second post"));
      expect(second.map((m) => m.to).sort()).toEqual(
        [readers[1]!, readers[2]!].map((r) => r.toLowerCase()).sort(),
      );
      expect(after.total).toBe(5);
      const jobs = await s.deps.database.rows<{ kind: string; status: string }>(
        sql`select kind, status from jobs where kind = 'blog.notify'`,
      );
      expect(jobs).toEqual([
        { kind: "blog.notify", status: "done" },
        { kind: "blog.notify", status: "done" },
      ]);
      // The outbox filter by recipient.
      expect((await outbox(a, readers[1]!.toLowerCase())).total).toBe(2);
    } finally {
      await s.stop();
    }
  });

  it("announces a post created as published straight away, and a queued job survives a restart", async () => {
    // No worker at first: the claim and the job are stored; a later process sends the mail.
    const dataDir = mkdtempSync(path.join(tmpdir(), "atomize-blog-restart-"));
    const s1 = await startTestServer({ ADMIN_EMAILS: ADMIN, JOBS_ENABLED: "false" }, { dataDir });
    let s2: TestServer | undefined;
    try {
      const a = new TestClient(s1.url);
      await registerUser(a, { email: ADMIN });
      const reader = uniqueEmail("restart");
      await new TestClient(s1.url).post("/api/blog/subscribe", { email: reader });
      const post = await a.post("/api/admin/blog/posts", {
        title: "Launch",
        content: "<p>x</p>",
        status: "published",
      });
      expect(post.json.notified_at).toBeTruthy();
      expect(post.json.published_at).toBeTruthy();
      expect((await outbox(a)).total).toBe(0);
      if (s1.deps.database.driver === "postgres") {
        // PostgreSQL: a second process on the same database picks the job up.
        s2 = await startTestServer(
          {
            ADMIN_EMAILS: ADMIN,
            DATABASE_URL: s1.deps.config.DATABASE_URL!,
            CREDENTIALS_KEY: credentialsKey(dataDir),
          },
          { databaseUrl: null },
        );
      } else {
        await s1.close();
        s2 = await startTestServer({ ADMIN_EMAILS: ADMIN }, { dataDir });
      }
      const b = new TestClient(s2.url);
      b.bearer = (await b.post("/api/auth/login", { email: ADMIN, password: "correct horse battery" })).json
        .access_token as string;
      const box = await until(
        () => outbox(b),
        (x) => x.total >= 1,
      );
      expect(box.messages.map((m) => m.to)).toEqual([reader.toLowerCase()]);
    } finally {
      await s2?.stop();
      await s1.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

/** The first process's generated key, shared as CREDENTIALS_KEY would be across processes. */
function credentialsKey(dataDir: string): string {
  return readFileSync(path.join(dataDir, "credentials.key"), "utf8").trim();
}

describe("e-mail through SMTP", () => {
  let smtp: FakeSmtp;
  let s: TestServer;
  beforeAll(async () => {
    smtp = await startFakeSmtp();
    s = await startTestServer({
      ADMIN_EMAILS: ADMIN,
      SMTP_URL: smtp.url,
      MAIL_FROM: "Atomize Blog <blog@atomize.test>",
    });
  });
  afterAll(async () => {
    await s?.stop();
    await smtp?.close();
  });

  it("sends the announcement through SMTP_URL with List-Unsubscribe headers, exactly once", async () => {
    const a = new TestClient(s.url);
    await registerUser(a, { email: ADMIN });
    const readers = [uniqueEmail("smtp1"), uniqueEmail("smtp2")];
    for (const email of readers) await new TestClient(s.url).post("/api/blog/subscribe", { email });
    const post = await a.post("/api/admin/blog/posts", {
      title: "Über SMTP",
      content: "<p>Sent by mail.</p>",
      status: "published",
    });
    const got = await smtp.waitFor(2);
    expect(got.map((m) => m.to[0]).sort()).toEqual(readers.map((r) => r.toLowerCase()).sort());
    const m = got[0]!;
    expect(m.from).toBe("blog@atomize.test");
    expect(m.subject).toBe("New on the Atomize blog: Über SMTP");
    expect(m.headers["list-unsubscribe"]).toMatch(
      new RegExp(`^<${s.url}/api/blog/unsubscribe\\?token=[^>]+>$`),
    );
    expect(m.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
    expect(m.data).toContain(`/blog/${post.json.slug}`);
    // Nothing lands in the outbox when SMTP is configured.
    const box = await outbox(a);
    expect(box).toMatchObject({ transport: "smtp", total: 0 });
    // One-click unsubscribe with the header's URL (as a mail client would POST it).
    const url = m.headers["list-unsubscribe"]!.slice(1, -1);
    expect((await fetch(url, { method: "POST", body: "List-Unsubscribe=One-Click" })).status).toBe(200);
    await a.request("PATCH", `/api/admin/blog/posts/${post.json.id}`, { status: "draft" });
    await a.request("PATCH", `/api/admin/blog/posts/${post.json.id}`, { status: "published" });
    await jobsIdle(s);
    await new Promise((r) => setTimeout(r, 200));
    expect(smtp.messages).toHaveLength(2);
  });
});
