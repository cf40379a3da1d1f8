import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerUser, TestClient, uniqueEmail } from "../support/http-client";
import { startTestServer, type TestServer } from "../support/server";
import { verifyEmailThroughOutbox } from "../support/verify-email";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    ADMIN_EMAILS: "boss@example.com",
    LOGIN_MAX_FAILURES_PER_IP: "1000",
    // This file registers many accounts from one address; auth-limits.test.ts covers the limit.
    REGISTRATIONS_PER_IP_PER_HOUR: "1000",
    // Strict rotation, as without the grace window (auth-refresh-grace.test.ts covers the window).
    REFRESH_GRACE_SECONDS: "0",
  });
});
afterAll(() => server?.stop());

const newClient = () => new TestClient(server.url);

describe("registration", () => {
  it("creates a free user, signs them in with an httpOnly SameSite=Lax cookie and returns tokens", async () => {
    const client = newClient();
    const email = uniqueEmail("Reg");
    const res = await client.post("/api/auth/register", {
      email,
      username: email,
      password: "long enough pw",
      full_name: "  Grace Hopper ",
      provider: "local",
      disabled: false,
      role: "user",
      subscription_tier: "free",
      subscription_status: "active",
      monthly_task_limit: 10,
      tasks_created_this_month: 0,
    });
    expect(res.status).toBe(201);
    expect(res.json.token_type).toBe("bearer");
    expect(res.json.access_token).toMatch(/^[a-z2-7]{24}\.[a-z2-7]{32}$/);
    expect(res.json.refresh_token).toBeTruthy();
    expect(res.json.user).toMatchObject({
      email: email.toLowerCase(),
      username: email.toLowerCase(),
      full_name: "Grace Hopper",
      role: "user",
      subscription_tier: "free",
      subscription_status: "active",
      monthly_task_limit: 10,
      tasks_created_this_month: 0,
      email_verified: false,
    });
    const setCookie = res.headers.getSetCookie().find((c) => c.startsWith("atomize_session="))!;
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).not.toMatch(/Secure/i); // plain http in tests; Secure is set behind https
    const me = await client.get("/api/auth/me");
    expect(me.status).toBe(200);
    expect(me.json.email).toBe(email.toLowerCase());
  });

  it("refuses a second account for the same e-mail, whatever its case", async () => {
    const client = newClient();
    const { email } = await registerUser(client);
    const res = await newClient().post("/api/auth/register", {
      email: email.toUpperCase(),
      password: "another password",
    });
    expect(res.status).toBe(409);
    expect(res.json.detail).toBe("Email already registered");
  });

  it("validates the payload with a 422 and a list of field errors, creating nothing", async () => {
    const res = await newClient().post("/api/auth/register", {
      email: "not-an-email",
      password: "short",
      extra: 1,
    });
    expect(res.status).toBe(422);
    expect(res.json.detail).toBe("Please enter a valid email address");
    expect(res.json.errors).toEqual(
      expect.arrayContaining([
        { field: "email", message: "Please enter a valid email address" },
        { field: "password", message: "Password must be at least 8 characters" },
        { field: "body", message: "Unknown field: extra" },
      ]),
    );
    const rows = await server.deps.database.rows(
      sql`select count(*)::int as n from users where email = 'not-an-email'`,
    );
    expect(rows[0]!.n).toBe(0);
  });

  it("never lets a client choose its own role, tier or limit", async () => {
    for (const extra of [
      { role: "admin" },
      { subscription_tier: "enterprise" },
      { monthly_task_limit: 1000 },
    ]) {
      const res = await newClient().post("/api/auth/register", {
        email: uniqueEmail(),
        password: "long enough pw",
        ...extra,
      });
      expect(res.status).toBe(422);
    }
  });

  it("makes an account listed in ADMIN_EMAILS an admin only once its address is verified", async () => {
    const client = newClient();
    const { user, password } = await registerUser(client, { email: "boss@example.com" });
    expect(user).toMatchObject({ role: "user", email_verified: false });
    const again = await newClient().post("/api/auth/login", { email: "boss@example.com", password });
    expect(again.json.user.role).toBe("user");
    await verifyEmailThroughOutbox(server, "boss@example.com");
    expect((await client.get("/api/auth/me")).json).toMatchObject({ role: "admin", email_verified: true });
  });
});

describe("login, me, logout", () => {
  it("logs in with the right password and answers 401 with one message for a wrong password or an unknown e-mail", async () => {
    const { email, password } = await registerUser(newClient());
    const ok = await newClient().post("/api/auth/login", { email: email.toUpperCase(), password });
    expect(ok.status).toBe(200);
    expect(ok.json.user.email).toBe(email);
    const wrong = await newClient().post("/api/auth/login", { email, password: "wrong password" });
    expect(wrong.status).toBe(401);
    expect(wrong.json.detail).toBe("Incorrect email or password");
    const unknown = await newClient().post("/api/auth/login", {
      email: uniqueEmail("ghost"),
      password: "whatever1",
    });
    expect(unknown.status).toBe(401);
    expect(unknown.json.detail).toBe("Incorrect email or password");
  });

  it("accepts the access token as a Bearer header and refuses a missing or forged one", async () => {
    const { access_token } = await registerUser(newClient());
    const api = newClient();
    api.bearer = access_token;
    expect((await api.get("/api/auth/me")).status).toBe(200);
    api.bearer = `${access_token.split(".")[0]}.${"a".repeat(32)}`;
    const forged = await api.get("/api/auth/me");
    expect(forged.status).toBe(401);
    expect(forged.json.detail).toBe("Not authenticated");
    expect((await newClient().get("/api/auth/me")).status).toBe(401);
  });

  it("stores only a hash of the session secret", async () => {
    const { access_token } = await registerUser(newClient());
    const [id, secret] = access_token.split(".");
    const rows = await server.deps.database.rows<{ secret_hash: string }>(
      sql`select secret_hash from sessions where id = ${id}`,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.secret_hash).not.toContain(secret!);
    expect(rows[0]!.secret_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("logout ends the session server-side and clears the cookies", async () => {
    const client = newClient();
    const { access_token } = await registerUser(client);
    const out = await client.post("/api/auth/logout");
    expect(out.status).toBe(200);
    expect(client.cookies.has("atomize_session")).toBe(false);
    const api = newClient();
    api.bearer = access_token;
    expect((await api.get("/api/auth/me")).status).toBe(401);
  });
});

describe("refresh tokens", () => {
  it("rotates: the new pair works, the old access token stops, and a reused refresh token revokes the session", async () => {
    const first = await registerUser(newClient());
    const api = newClient();
    const r1 = await api.post("/api/auth/refresh-token", { refresh_token: first.refresh_token });
    expect(r1.status).toBe(200);
    expect(r1.json.access_token).not.toBe(first.access_token);
    expect(r1.json.refresh_token).not.toBe(first.refresh_token);
    const check = newClient();
    check.bearer = first.access_token;
    expect((await check.get("/api/auth/me")).status).toBe(401);
    check.bearer = r1.json.access_token;
    expect((await check.get("/api/auth/me")).status).toBe(200);

    const replay = await newClient().post("/api/auth/refresh-token", { refresh_token: first.refresh_token });
    expect(replay.status).toBe(401);
    // The leak is contained: the session that the replayed token belonged to is gone.
    expect((await check.get("/api/auth/me")).status).toBe(401);
    const later = await newClient().post("/api/auth/refresh-token", { refresh_token: r1.json.refresh_token });
    expect(later.status).toBe(401);
  });

  it("refreshes from the httpOnly cookie for the SPA and rejects a missing token", async () => {
    const client = newClient();
    await registerUser(client);
    const before = client.cookies.get("atomize_session");
    const res = await client.post("/api/auth/refresh-token", {});
    expect(res.status).toBe(200);
    expect(client.cookies.get("atomize_session")).not.toBe(before);
    expect((await client.get("/api/auth/me")).status).toBe(200);
    const none = await newClient().post("/api/auth/refresh-token", {});
    expect(none.status).toBe(401);
  });
});

describe("failed-login rate limits", () => {
  it("locks an account after 5 failures, even for the right password, with Retry-After", async () => {
    const { email, password } = await registerUser(newClient());
    for (let i = 0; i < 5; i++) {
      expect((await newClient().post("/api/auth/login", { email, password: `nope-${i}-xx` })).status).toBe(
        401,
      );
    }
    const locked = await newClient().post("/api/auth/login", { email, password });
    expect(locked.status).toBe(429);
    expect(locked.json.detail).toMatch(
      /^Too many failed login attempts\. Please try again in \d+ minutes?\.$/,
    );
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});

describe("CSRF defence for cookie-authenticated mutations", () => {
  it("blocks a cookie-carrying POST from another origin or without an Origin, and allows same-origin and bearer calls", async () => {
    const client = newClient();
    const { access_token } = await registerUser(client);
    client.origin = "https://evil.example";
    const evil = await client.post("/api/auth/logout");
    expect(evil.status).toBe(403);
    expect(evil.json.detail).toBe("Cross-site request blocked");
    client.origin = null;
    expect((await client.post("/api/auth/logout")).status).toBe(403);
    expect((await client.get("/api/auth/me")).status).toBe(200); // still signed in: nothing changed
    const crossSite = await client.request(
      "POST",
      "/api/auth/logout",
      {},
      { origin: server.url, "sec-fetch-site": "cross-site" },
    );
    expect(crossSite.status).toBe(403);
    const api = newClient();
    api.origin = null;
    api.bearer = access_token;
    expect((await api.post("/api/auth/logout")).status).toBe(200);
  });
});

describe("bad input never produces a 500", () => {
  it.each([
    ["malformed JSON", "{not json", 400, "Malformed JSON body"],
    ["a JSON array", "[1,2]", 422, "Request body must be a JSON object"],
    ["a JSON string", '"hi"', 422, "Request body must be a JSON object"],
    ["wrong types", JSON.stringify({ email: 42, password: ["x"] }), 422, undefined],
    ["missing fields", "{}", 422, undefined],
  ])("login with %s gets %i", async (_name, body, status, detail) => {
    const res = await newClient().post("/api/auth/login", body);
    expect(res.status).toBe(status);
    expect(typeof res.json.detail).toBe("string");
    if (detail) expect(res.json.detail).toBe(detail);
    expect(res.text).not.toMatch(/at .*\.ts:\d+/); // no stack trace
  });

  it("rejects a body over 1 MB with 413", async () => {
    const big = JSON.stringify({ email: "a@b.co", password: "x".repeat(1024 * 1024 + 10) });
    const res = await newClient().post("/api/auth/login", big);
    expect(res.status).toBe(413);
    expect(res.json.detail).toBe("Request body is too large (limit 1 MB)");
  });

  it("answers unknown API paths with a JSON 404", async () => {
    const res = await newClient().get("/api/nope");
    expect(res.status).toBe(404);
    expect(res.json.detail).toBe("The requested resource was not found.");
  });

  it("hides the development bypass outside development", async () => {
    expect((await newClient().post("/api/auth/dev-bypass")).status).toBe(404);
    const providers = await newClient().get("/api/auth/providers");
    expect(providers.json).toEqual({ google: false, devBypass: false });
  });
});
