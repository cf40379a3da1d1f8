import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signConfirmationToken } from "../../src/server/services/blog/confirmation-token";
import { signUnsubscribeToken } from "../../src/server/services/blog/unsubscribe-token";
import { type FakeSmtp, startFakeSmtp } from "../fakes/smtp";
import { registerUser, TestClient, uniqueEmail } from "../support/http-client";
import { waitForJobsIdle } from "../support/jobs";
import { startTestServer, type TestServer } from "../support/server";
import { trpcHttp } from "../support/trpc-client";
import { waitUntil } from "../support/wait";

const ADMIN = "blog.subs.admin@example.com";
const CHECK_INBOX = "Check your inbox: we sent a link to confirm your subscription.";
const CONFIRM_SUBJECT = "Confirm your subscription to the Atomize blog";
// Every request of these tests comes from 127.0.0.1: the per-address limits get room (one test lowers them).
const ROOMY = { REGISTRATIONS_PER_IP_PER_HOUR: "1000", ANONYMOUS_WRITES_PER_IP_PER_HOUR: "1000" };

let server: TestServer;
let admin: TestClient;

/**
 * An admin account: registered, then made admin with a verified e-mail in the database, so the test
 * does not depend on how ADMIN_EMAILS is applied at registration or sign-in.
 */
async function registerAdmin(s: TestServer, email = ADMIN): Promise<TestClient> {
  const client = new TestClient(s.url);
  await registerUser(client, { email });
  await s.deps.database.rows(
    sql`update users set role = 'admin', email_verified_at = now() where lower(email) = ${email.toLowerCase()}`,
  );
  return client;
}

/** A signed-in reader; `verified` marks the account's e-mail as proven (another flow does it for real). */
async function reader(s: TestServer, opts: { verified: boolean; email?: string }) {
  const tab = new TestClient(s.url);
  const { email } = await registerUser(tab, { email: opts.email ?? uniqueEmail("reader") });
  if (opts.verified) {
    await s.deps.database.rows(
      sql`update users set email_verified_at = now() where lower(email) = ${email.toLowerCase()}`,
    );
  }
  return { tab, email: email.toLowerCase() };
}

beforeAll(async () => {
  server = await startTestServer({ ADMIN_EMAILS: ADMIN, ...ROOMY });
  admin = await registerAdmin(server);
});
afterAll(() => server?.stop());

type Mail = { id: string; to: string; subject: string; text: string; html: string };

const isPostMail = (m: { subject: string }) => m.subject.startsWith("New on the Atomize blog");
/** The blog's own mail (accounts get other mail, e.g. to verify their address). */
const isBlogMail = (m: { subject: string }) => m.subject === CONFIRM_SUBJECT || isPostMail(m);

/** The blog mail in the outbox for one address, read from the database. */
async function mailTo(s: TestServer, to: string): Promise<Mail[]> {
  const rows = await s.deps.database.rows<Mail>(
    sql`select id, "to", subject, text, html from mail_outbox where "to" = ${to.toLowerCase()} order by created_at, id`,
  );
  return rows.filter(isBlogMail);
}

async function outbox(client: TestClient, to?: string) {
  const res = await client.get(`/api/admin/outbox${to ? `?to=${encodeURIComponent(to)}` : ""}`);
  expect(res.status).toBe(200);
  return res.json as { transport: string; total: number; messages: Mail[] };
}

/** `fn()`'s first value that passes `ok`. */
async function until<T>(fn: () => Promise<T>, ok: (v: T) => boolean, message: string): Promise<T> {
  let v!: T;
  await waitUntil(
    async () => {
      v = await fn();
      return ok(v);
    },
    { message: () => `${message}; last: ${JSON.stringify(v)}` },
  );
  return v;
}

/** Every queued or running job has finished: past this point no more mail can come. */
const jobsIdle = (s: TestServer) => waitForJobsIdle(s);

async function subscriptionOf(s: TestServer, email: string) {
  const [row] = await s.deps.database.rows<{
    id: string;
    status: string;
    confirmed_at: Date | null;
    user_id: string | null;
    categories: string[];
  }>(
    sql`select id, status, confirmed_at, user_id, categories from blog_subscriptions where lower(email) = ${email.toLowerCase()}`,
  );
  return row;
}

/** The confirmation link mailed to `email` (waits for the job that sends it). */
async function confirmationLink(s: TestServer, email: string): Promise<string> {
  const mails = await until(
    () => mailTo(s, email),
    (m) => m.some((x) => x.subject === CONFIRM_SUBJECT),
    `confirmation mail to ${email}`,
  );
  const mail = mails.find((x) => x.subject === CONFIRM_SUBJECT);
  expect(mail, `confirmation mail to ${email}`).toBeTruthy();
  return /Confirm your subscription: (\S+)/.exec(mail!.text)![1]!;
}

/** A visitor subscribes `email` and follows the link mailed to it: an active, confirmed subscription. */
async function subscribeConfirmed(s: TestServer, email: string): Promise<string> {
  const res = await new TestClient(s.url).post("/api/blog/subscribe", { email });
  expect(res.status).toBe(202);
  const page = await fetch(await confirmationLink(s, email));
  expect(page.status).toBe(200);
  const row = await subscriptionOf(s, email);
  expect(row?.status).toBe("active");
  return row!.id;
}

describe("a visitor subscribing (double opt-in)", () => {
  it("answers the same whatever the address's state, and mails only a fresh or pending address", async () => {
    const fresh = uniqueEmail("fresh");
    const first = await new TestClient(server.url).post("/api/blog/subscribe", { email: fresh });
    expect(first.status).toBe(202);
    expect(first.json).toEqual({ detail: CHECK_INBOX, confirmation_required: true });
    expect(await subscriptionOf(server, fresh)).toMatchObject({ status: "pending", confirmed_at: null });

    // An address with an active subscription: same status, same body, no subscription shown, no mail.
    const active = uniqueEmail("active");
    const id = await subscribeConfirmed(server, active);
    const mailsBefore = (await mailTo(server, active)).length;
    const probe = await new TestClient(server.url).post("/api/blog/subscribe", {
      email: active.toUpperCase(),
    });
    expect(probe.status).toBe(first.status);
    expect(probe.text).toBe(first.text);
    // A pending address answers the same too.
    const pendingProbe = await new TestClient(server.url).post("/api/blog/subscribe", { email: fresh });
    expect(pendingProbe.status).toBe(first.status);
    expect(pendingProbe.text).toBe(first.text);

    await jobsIdle(server);
    expect(await mailTo(server, active)).toHaveLength(mailsBefore);
    expect(await subscriptionOf(server, active)).toMatchObject({ id, status: "active" });
    const rows = await server.deps.database.rows<{ n: number }>(
      sql`select count(*)::int as n from blog_subscriptions where lower(email) = ${active}`,
    );
    expect(rows[0]!.n).toBe(1);

    // Over tRPC: the same answer.
    const viaTrpc = await trpcHttp(new TestClient(server.url)).blog.subscribe.mutate({ email: active });
    expect(viaTrpc).toEqual({ detail: CHECK_INBOX, confirmation_required: true });
  });

  it("mails one confirmation however often (and however concurrently) a pending address is subscribed", async () => {
    const email = uniqueEmail("bombed");
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => new TestClient(server.url).post("/api/blog/subscribe", { email })),
    );
    for (const a of answers) expect(a.status).toBe(202);
    for (let i = 0; i < 3; i++) await new TestClient(server.url).post("/api/blog/subscribe", { email });
    await jobsIdle(server);
    const mails = await mailTo(server, email);
    expect(mails.map((m) => m.subject)).toEqual([CONFIRM_SUBJECT]);
    // Once the resend window has passed, one more reminder may go out.
    await server.deps.database.rows(
      sql`update blog_subscriptions set confirmation_sent_at = now() - interval '13 hours' where lower(email) = ${email}`,
    );
    await new TestClient(server.url).post("/api/blog/subscribe", { email });
    await new TestClient(server.url).post("/api/blog/subscribe", { email });
    await jobsIdle(server);
    expect((await mailTo(server, email)).map((m) => m.subject)).toEqual([CONFIRM_SUBJECT, CONFIRM_SUBJECT]);
  });

  it("activates the subscription through the mailed link, and a second click is still a success", async () => {
    const email = uniqueEmail("confirms");
    await new TestClient(server.url).post("/api/blog/subscribe", { email, categories: ["news"] });
    const link = await confirmationLink(server, email);
    expect(link.startsWith(`${server.url}/api/blog/confirm?token=`)).toBe(true);
    const mail = (await mailTo(server, email)).find((m) => m.subject === CONFIRM_SUBJECT)!;
    expect(mail.html).toContain(link.replace(/&/g, "&amp;"));
    expect(await subscriptionOf(server, email)).toMatchObject({ status: "pending", confirmed_at: null });

    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/text\/html/);
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(await page.text()).toContain("Subscription confirmed");
    const row = await subscriptionOf(server, email);
    expect(row).toMatchObject({ status: "active", categories: ["news"] });
    expect(row!.confirmed_at).toBeTruthy();
    expect((await fetch(link)).status).toBe(200);
    // An active address subscribed again stays active and is not mailed again.
    await new TestClient(server.url).post("/api/blog/subscribe", { email });
    await jobsIdle(server);
    expect((await mailTo(server, email)).filter((m) => m.subject === CONFIRM_SUBJECT)).toHaveLength(1);

    // tRPC confirms with the token too.
    const other = uniqueEmail("trpc.confirm");
    await new TestClient(server.url).post("/api/blog/subscribe", { email: other });
    const token = decodeURIComponent(
      new URL(await confirmationLink(server, other)).searchParams.get("token")!,
    );
    const res = await trpcHttp(new TestClient(server.url)).blog.confirmSubscription.mutate({ token });
    expect(res).toEqual({ detail: "Your subscription is confirmed. You'll receive weekly updates." });
    expect((await subscriptionOf(server, other))!.status).toBe("active");
  });

  it("refuses forged, expired, cross-purpose and malformed confirmation tokens with a 400 page", async () => {
    const email = uniqueEmail("forged.confirm");
    await new TestClient(server.url).post("/api/blog/subscribe", { email });
    const { id } = (await subscriptionOf(server, email))!;
    const good = signConfirmationToken(server.deps.unsubscribeKey, id);
    const [, exp, sig] = good.split(".");
    const otherId = "00000000-0000-4000-8000-000000000000";
    const tokens = [
      signConfirmationToken(Buffer.alloc(32, 7), id), // someone else's key
      signUnsubscribeToken(server.deps.unsubscribeKey, id), // an unsubscribe link never confirms
      signConfirmationToken(server.deps.unsubscribeKey, id, Date.now() - 8 * 86_400_000), // expired
      `${id}.${Number(exp) + 3600}.${sig}`, // expiry pushed out
      `${otherId}.${exp}.${sig}`,
      `${id}.${exp}.${sig!.slice(0, -2)}AA`,
      signConfirmationToken(server.deps.unsubscribeKey, otherId), // valid, but no such subscription
      id,
      "",
      "<script>alert(1)</script>",
    ];
    for (const token of tokens) {
      const res = await fetch(`${server.url}/api/blog/confirm?token=${encodeURIComponent(token)}`);
      expect(res.status, token).toBe(400);
      const html = await res.text();
      expect(html).toContain("This confirmation link is invalid or has expired.");
      expect(html).not.toContain("<script>alert");
    }
    expect((await subscriptionOf(server, email))!.status).toBe("pending");
    // And the other way round: a confirmation token does not unsubscribe.
    const unsub = await fetch(`${server.url}/api/blog/unsubscribe?token=${encodeURIComponent(good)}`);
    expect(unsub.status).toBe(400);
    expect(await subscriptionOf(server, email)).toBeTruthy();
    const bad = await trpcHttp(new TestClient(server.url))
      .blog.confirmSubscription.mutate({ token: tokens[1]! })
      .catch((e: unknown) => e as { data?: { httpStatus?: number }; message: string });
    expect(bad).toMatchObject({
      data: { httpStatus: 400 },
      message: "This confirmation link is invalid or has expired. Please subscribe again.",
    });
  });

  it("limits anonymous subscribe requests per client address with a 429 and Retry-After", async () => {
    const s = await startTestServer({ ANONYMOUS_WRITES_PER_IP_PER_HOUR: "3" });
    try {
      for (let i = 0; i < 3; i++) {
        const ok = await new TestClient(s.url).post("/api/blog/subscribe", { email: uniqueEmail("lim") });
        expect(ok.status).toBe(202);
      }
      const over = await new TestClient(s.url).post("/api/blog/subscribe", { email: uniqueEmail("lim") });
      expect(over.status).toBe(429);
      expect(over.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(over.json.detail).toBe(
        "Too many subscription requests from your network. Please try again later.",
      );
      const viaTrpc = await trpcHttp(new TestClient(s.url))
        .blog.subscribe.mutate({ email: uniqueEmail("lim") })
        .catch((e: unknown) => e as { data?: { httpStatus?: number } });
      expect(viaTrpc).toMatchObject({ data: { httpStatus: 429 } });
      const rows = await s.deps.database.rows<{ n: number }>(
        sql`select count(*)::int as n from blog_subscriptions`,
      );
      expect(rows[0]!.n).toBe(3);
      // A signed-in reader with a verified e-mail mails nobody else and is not limited by it.
      const { tab } = await reader(s, { verified: true });
      expect((await tab.post("/api/blog/subscribe", {})).status).toBe(201);
    } finally {
      await s.stop();
    }
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
    const email = uniqueEmail("cats");
    const cats = await visitor.post("/api/blog/subscribe", {
      email: `  ${email.toUpperCase()}  `,
      categories: [" news ", "news", "releases"],
    });
    expect(cats.status).toBe(202);
    expect((await subscriptionOf(server, email))!.categories).toEqual(["news", "releases"]);
    expect((await visitor.get("/api/blog/my-subscription")).status).toBe(401);
    expect((await visitor.request("DELETE", "/api/blog/my-subscription")).status).toBe(401);
  });
});

describe("a signed-in reader subscribing", () => {
  it("with a verified e-mail: active at once with the account's address, shown, and cancelled", async () => {
    const { tab, email } = await reader(server, { verified: true });
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
      confirmation_required: false,
      already_subscribed: false,
      subscription: {
        email,
        status: "active",
        frequency: "weekly",
        categories: [],
        confirmed_at: expect.any(String),
        last_notified_at: null,
      },
    });
    const mine = await tab.get("/api/blog/my-subscription");
    expect(mine.status).toBe(200);
    expect(mine.json).toMatchObject({ id: res.json.subscription.id, frequency: "weekly", status: "active" });
    const again = await tab.post("/api/blog/subscribe", {});
    expect(again.status).toBe(200);
    expect(again.json.already_subscribed).toBe(true);
    expect(again.json.detail).toBe("You're already subscribed to blog updates.");
    expect(again.json.subscription.id).toBe(res.json.subscription.id);
    await jobsIdle(server);
    expect(await mailTo(server, email)).toEqual([]); // nothing to confirm
    expect(await mailTo(server, "not-my-address@example.com")).toEqual([]);
    const cancel = await tab.request("DELETE", "/api/blog/my-subscription");
    expect(cancel.status).toBe(200);
    expect(cancel.json.detail).toBe("Successfully unsubscribed");
    expect((await tab.get("/api/blog/my-subscription")).status).toBe(404);
    expect((await tab.request("DELETE", "/api/blog/my-subscription")).status).toBe(404);
  });

  it("with an unverified e-mail: pending with a confirmation mail, shown as pending until confirmed", async () => {
    const { tab, email } = await reader(server, { verified: false });
    const res = await tab.post("/api/blog/subscribe", { email: "someone.else@example.com" });
    expect(res.status).toBe(202);
    expect(res.json).toEqual({ detail: CHECK_INBOX, confirmation_required: true });
    const mine = await tab.get("/api/blog/my-subscription");
    expect(mine.status).toBe(200);
    expect(mine.json).toMatchObject({ email, status: "pending", confirmed_at: null });
    expect(await mailTo(server, "someone.else@example.com")).toEqual([]);
    expect((await fetch(await confirmationLink(server, email))).status).toBe(200);
    expect((await tab.get("/api/blog/my-subscription")).json).toMatchObject({
      id: mine.json.id,
      status: "active",
    });
  });

  it("a verified owner takes over a subscription made with the address; an unverified one learns nothing", async () => {
    const email = uniqueEmail("owner");
    const id = await subscribeConfirmed(server, email);
    // Someone registers the address without proving it: they can neither see nor cancel that subscription.
    const squatter = await reader(server, { verified: false, email });
    expect((await squatter.tab.get("/api/blog/my-subscription")).status).toBe(404);
    expect((await squatter.tab.request("DELETE", "/api/blog/my-subscription")).status).toBe(404);
    const asked = await squatter.tab.post("/api/blog/subscribe", {});
    expect(asked.status).toBe(202);
    expect(asked.json).toEqual({ detail: CHECK_INBOX, confirmation_required: true });
    expect((await squatter.tab.get("/api/blog/my-subscription")).status).toBe(404);
    expect(await subscriptionOf(server, email)).toMatchObject({ id, status: "active", user_id: null });
    // Once the account's e-mail is verified, the subscription is theirs.
    await server.deps.database.rows(
      sql`update users set email_verified_at = now() where lower(email) = ${email.toLowerCase()}`,
    );
    expect((await squatter.tab.get("/api/blog/my-subscription")).json).toMatchObject({
      id,
      status: "active",
    });
    const again = await squatter.tab.post("/api/blog/subscribe", {});
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({ already_subscribed: true, subscription: { id } });
  });
});

describe("administration", () => {
  it("lets admins list (pending included) and delete subscriptions, and nobody else", async () => {
    const email = uniqueEmail("listed");
    await new TestClient(server.url).post("/api/blog/subscribe", { email });
    const list = await admin.get("/api/admin/blog/subscriptions?page_size=200");
    expect(list.status).toBe(200);
    const found = (list.json.subscriptions as Array<Record<string, unknown>>).find((s) => s.email === email);
    expect(found).toMatchObject({
      id: expect.any(String),
      status: "pending",
      frequency: "weekly",
      confirmed_at: null,
      last_notified_at: null,
      created_at: expect.any(String),
    });
    expect(list.json.total).toBeGreaterThanOrEqual(1);
    const user = new TestClient(server.url);
    await registerUser(user);
    const id = found!.id as string;
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
    const id = await subscribeConfirmed(server, uniqueEmail("link"));
    const token = signUnsubscribeToken(server.deps.unsubscribeKey, id);
    const res = await fetch(`${server.url}/api/blog/unsubscribe?token=${encodeURIComponent(token)}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/text\/html/);
    expect(await res.text()).toContain("You have been unsubscribed");
    const rows = await server.deps.database.rows(sql`select 1 from blog_subscriptions where id = ${id}`);
    expect(rows).toHaveLength(0);
    // A second click is still a success page; RFC 8058 one-click POST works the same.
    expect(
      (await fetch(`${server.url}/api/blog/unsubscribe?token=${encodeURIComponent(token)}`)).status,
    ).toBe(200);
    const id2 = await subscribeConfirmed(server, uniqueEmail("post"));
    const token2 = signUnsubscribeToken(server.deps.unsubscribeKey, id2);
    const post = await fetch(`${server.url}/api/blog/unsubscribe?token=${encodeURIComponent(token2)}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(post.status).toBe(200);
    // The confirmation link of a removed subscription is refused.
    const confirm = signConfirmationToken(server.deps.unsubscribeKey, id2);
    expect((await fetch(`${server.url}/api/blog/confirm?token=${encodeURIComponent(confirm)}`)).status).toBe(
      400,
    );
  });

  it("refuses forged, tampered and malformed tokens with a 400 page and keeps the subscription", async () => {
    const id = await subscribeConfirmed(server, uniqueEmail("forged"));
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
  it("e-mails each confirmed subscriber once, never a pending one, and never again for that post", async () => {
    const s = await startTestServer({ ADMIN_EMAILS: ADMIN, ...ROOMY });
    try {
      const a = await registerAdmin(s);
      const readers = [uniqueEmail("r1"), uniqueEmail("r2"), uniqueEmail("r3")];
      for (const email of readers) await subscribeConfirmed(s, email);
      // Subscribed by a stranger and never confirmed: gets no post e-mail.
      const unconfirmed = uniqueEmail("unconfirmed");
      await new TestClient(s.url).post("/api/blog/subscribe", { email: unconfirmed });
      await confirmationLink(s, unconfirmed);
      const draft = await a.post("/api/admin/blog/posts", {
        title: "Big <News> & more",
        content: "<p>The body of the announcement.</p>",
        excerpt: "A summary for readers",
      });
      await jobsIdle(s);
      const posts = async () => (await outbox(a)).messages.filter(isPostMail);
      expect(await posts()).toHaveLength(0); // drafts announce nothing

      const published = await a.request("PATCH", `/api/admin/blog/posts/${draft.json.id}`, {
        status: "published",
      });
      expect(published.json.notified_at).toBeTruthy();
      const sent = await until(posts, (b) => b.length >= 3, "three post mails");
      await jobsIdle(s);
      expect((await outbox(a)).transport).toBe("outbox");
      expect(sent.map((m) => m.to).sort()).toEqual(readers.map((r) => r.toLowerCase()).sort());
      expect((await mailTo(s, unconfirmed)).filter(isPostMail)).toEqual([]);
      const msg = sent.find((m) => m.to === readers[0]!.toLowerCase())!;
      expect(msg.subject).toBe("New on the Atomize blog: Big <News> & more");
      expect(msg.text).toContain("A summary for readers");
      expect(msg.text).toContain(`${s.url}/blog/${draft.json.slug}`);
      expect(msg.html).toContain("Big &lt;News&gt; &amp; more");
      const link = /Unsubscribe: (\S+)/.exec(msg.text)![1]!;
      expect(link.startsWith(`${s.url}/api/blog/unsubscribe?token=`)).toBe(true);
      expect(msg.html).toContain(link.replace(/&/g, "&amp;"));

      const subs = await a.get("/api/admin/blog/subscriptions");
      for (const sub of subs.json.subscriptions as Array<{
        status: string;
        last_notified_at: string | null;
      }>) {
        if (sub.status === "active") expect(sub.last_notified_at).toBeTruthy();
        else expect(sub.last_notified_at).toBeNull();
      }

      // Updating, unpublishing and publishing again sends nothing more.
      await a.request("PATCH", `/api/admin/blog/posts/${draft.json.id}`, { title: "Big News, edited" });
      await a.request("PATCH", `/api/admin/blog/posts/${draft.json.id}`, { status: "draft" });
      await a.request("PATCH", `/api/admin/blog/posts/${draft.json.id}`, { status: "published" });
      await a.request("PATCH", `/api/admin/blog/posts/${draft.json.id}`, { status: "archived" });
      await a.request("PATCH", `/api/admin/blog/posts/${draft.json.id}`, { status: "published" });
      await jobsIdle(s);
      expect(await posts()).toHaveLength(3);

      // The link in the e-mail unsubscribes that reader, who gets nothing for the next post; the
      // stranger-subscribed address, now confirmed by its owner, does.
      const page = await fetch(link);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain("You have been unsubscribed");
      expect((await fetch(await confirmationLink(s, unconfirmed))).status).toBe(200);
      await a.post("/api/admin/blog/posts", {
        title: "Second post",
        content: "<p>two</p>",
        status: "published",
      });
      await until(posts, (b) => b.length >= 6, "six post mails");
      await jobsIdle(s);
      const second = (await posts()).filter((m) => m.subject.endsWith("Second post"));
      expect(second.map((m) => m.to).sort()).toEqual(
        [readers[1]!, readers[2]!, unconfirmed].map((r) => r.toLowerCase()).sort(),
      );
      expect(await posts()).toHaveLength(6);
      const jobs = await s.deps.database.rows<{ kind: string; status: string }>(
        sql`select kind, status from jobs where kind = 'blog.notify'`,
      );
      expect(jobs).toEqual([
        { kind: "blog.notify", status: "done" },
        { kind: "blog.notify", status: "done" },
      ]);
      // The outbox filter by recipient: a confirmation and two posts.
      expect((await outbox(a, readers[1]!.toLowerCase())).total).toBe(3);
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
      const a = await registerAdmin(s1);
      const reader = uniqueEmail("restart");
      await new TestClient(s1.url).post("/api/blog/subscribe", { email: reader });
      // Confirmed before any worker ran: the queued confirmation e-mail is then not sent at all.
      await s1.deps.database.rows(
        sql`update blog_subscriptions set status = 'active', confirmed_at = now() where lower(email) = ${reader}`,
      );
      const post = await a.post("/api/admin/blog/posts", {
        title: "Launch",
        content: "<p>x</p>",
        status: "published",
      });
      expect(post.json.notified_at).toBeTruthy();
      expect(post.json.published_at).toBeTruthy();
      expect((await outbox(a)).messages.filter(isBlogMail)).toEqual([]);
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
      const blogMail = async () => (await outbox(b)).messages.filter(isBlogMail);
      await until(blogMail, (x) => x.length >= 1, "a blog mail");
      await jobsIdle(s2);
      const sent = await blogMail();
      expect(sent.map((m) => [m.to, m.subject])).toEqual([
        [reader.toLowerCase(), "New on the Atomize blog: Launch"],
      ]);
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
      ...ROOMY,
    });
  });
  afterAll(async () => {
    await s?.stop();
    await smtp?.close();
  });

  /** Resolves once `n` blog messages have arrived (accounts get other mail too). */
  async function blogMessages(n: number) {
    const got = await until(
      async () => smtp.messages.filter(isBlogMail),
      (m) => m.length >= n,
      `${n} blog mails over SMTP`,
    );
    expect(got.length).toBeGreaterThanOrEqual(n);
    return got;
  }

  it("sends the confirmation and the announcement through SMTP_URL, with List-Unsubscribe headers, once", async () => {
    const a = await registerAdmin(s);
    const readers = [uniqueEmail("smtp1"), uniqueEmail("smtp2")];
    for (const email of readers) await new TestClient(s.url).post("/api/blog/subscribe", { email });
    const confirmations = await blogMessages(2);
    expect(confirmations.map((m) => m.subject)).toEqual([CONFIRM_SUBJECT, CONFIRM_SUBJECT]);
    for (const m of confirmations) {
      expect(m.from).toBe("blog@atomize.test");
      // Quoted-printable may fold the line: unfold it before reading the link.
      const body = m.data.replace(/=\r?\n/g, "").replace(/=3D/g, "=");
      const link = new RegExp(`${s.url}/api/blog/confirm\\?token=[A-Za-z0-9._%-]+`).exec(body)![0];
      expect((await fetch(link)).status).toBe(200);
    }
    const post = await a.post("/api/admin/blog/posts", {
      title: "Über SMTP",
      content: "<p>Sent by mail.</p>",
      status: "published",
    });
    const got = (await blogMessages(4)).slice(2);
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
    expect(smtp.messages.filter(isBlogMail)).toHaveLength(4);
  });
});
