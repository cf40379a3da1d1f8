import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type FakeGoogle, startFakeGoogle } from "../fakes/google-oidc";
import { registerUser, TestClient } from "../support/http-client";
import { startTestServer, type TestServer } from "../support/server";

const clientId = "atomize-test.apps.googleusercontent.com";
const clientSecret = "GOCSPX-test-secret";
let google: FakeGoogle;
let server: TestServer;

beforeAll(async () => {
  google = await startFakeGoogle({ clientId, clientSecret });
  server = await startTestServer({
    GOOGLE_CLIENT_ID: clientId,
    GOOGLE_CLIENT_SECRET: clientSecret,
    GOOGLE_ISSUER_URL: google.issuer,
    ADMIN_EMAILS: "root@example.com,squire@example.com,pre.hijack@example.com",
    REGISTRATIONS_PER_IP_PER_HOUR: "1000",
  });
});
afterAll(async () => {
  await server?.stop();
  await google?.close();
});
beforeEach(() => google.setMode("ok"));

let subCounter = 0;
function nextGoogleUser(email: string, extra: Partial<{ email_verified: boolean; name: string }> = {}) {
  subCounter += 1;
  const user = { sub: `google-sub-${Date.now()}-${subCounter}`, email, name: "Ada Lovelace", ...extra };
  google.setUser(user);
  return user;
}

/** Runs authorize -> consent at the fake -> back to our callback, and returns the callback's query. */
async function consent(client: TestClient, redirect?: string) {
  const q = redirect ? `?redirect_uri=${encodeURIComponent(redirect)}` : "";
  const auth = await client.get(`/api/auth/google/authorize${q}`);
  expect(auth.status).toBe(200);
  const location = new URL(await google.authorize(auth.json.authorization_url));
  return {
    auth: auth.json,
    location,
    code: location.searchParams.get("code"),
    state: location.searchParams.get("state"),
  };
}

describe("Google sign-in through openid-client against a local issuer", () => {
  it("authorize returns state, the SPA redirect_uri and a PKCE + nonce authorization URL", async () => {
    const client = new TestClient(server.url);
    const res = await client.get("/api/auth/google/authorize");
    expect(res.status).toBe(200);
    expect(res.json.redirect_uri).toBe(`${server.url}/oauth/google/callback`);
    const url = new URL(res.json.authorization_url);
    expect(url.origin).toBe(google.issuer);
    expect(url.searchParams.get("state")).toBe(res.json.state);
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("nonce")).toBeTruthy();
    expect(url.searchParams.get("scope")).toBe("openid email profile");
  });

  it("refuses a redirect_uri that is not one of ours (no open redirect)", async () => {
    const res = await new TestClient(server.url).get(
      `/api/auth/google/authorize?redirect_uri=${encodeURIComponent("https://evil.example/cb")}`,
    );
    expect(res.status).toBe(400);
    expect(res.json.detail).toBe("redirect_uri is not an allowed callback URL");
  });

  it("signs a new user up on exchange, sets the session cookie, and signs the same user in next time", async () => {
    const gUser = nextGoogleUser("new.google.user@example.com");
    const client = new TestClient(server.url);
    const { code, state } = await consent(client);
    const res = await client.post("/api/auth/google/exchange", { code, state });
    expect(res.status).toBe(200);
    expect(res.json.user).toMatchObject({
      email: gUser.email,
      full_name: "Ada Lovelace",
      provider: "google",
      role: "user",
      email_verified: true,
    });
    expect((await client.get("/api/auth/me")).json.email).toBe(gUser.email);

    const again = new TestClient(server.url);
    const second = await consent(again);
    const res2 = await again.post("/api/auth/google/exchange", { code: second.code, state: second.state });
    expect(res2.status).toBe(200);
    expect(res2.json.user.id).toBe(res.json.user.id);
  });

  it("links to an existing password account only through a verified e-mail", async () => {
    const local = await registerUser(new TestClient(server.url));
    nextGoogleUser(local.email.toUpperCase());
    const client = new TestClient(server.url);
    const { code, state } = await consent(client);
    const res = await client.post("/api/auth/google/exchange", { code, state });
    expect(res.status).toBe(200);
    expect(res.json.user.id).toBe(local.user.id);

    const other = await registerUser(new TestClient(server.url));
    nextGoogleUser(other.email, { email_verified: false });
    const c2 = new TestClient(server.url);
    const f = await consent(c2);
    const refused = await c2.post("/api/auth/google/exchange", { code: f.code, state: f.state });
    expect(refused.status).toBe(403);
    expect(refused.json.detail).toMatch(/no verified e-mail/);
    expect(c2.cookies.has("atomize_session")).toBe(false);
  });

  it("verifies a linked account's address only through email_verified, and only then applies ADMIN_EMAILS", async () => {
    // An account linked before e-mail verification existed: a password account with its Google identity.
    const local = await registerUser(new TestClient(server.url), { email: "squire@example.com" });
    expect(local.user).toMatchObject({ role: "user", email_verified: false });
    const sub = `google-sub-linked-${Date.now()}`;
    await server.deps.database.rows(
      sql`insert into oauth_accounts (provider, provider_user_id, user_id, email)
          values ('google', ${sub}, ${local.user.id}, 'squire@example.com')`,
    );
    const signIn = async () => {
      const client = new TestClient(server.url);
      const { code, state } = await consent(client);
      return client.post("/api/auth/google/exchange", { code, state });
    };
    google.setUser({ sub, email: "squire@example.com", email_verified: false, name: "Squire" });
    const unverified = await signIn();
    expect(unverified.status).toBe(200);
    expect(unverified.json.user).toMatchObject({ id: local.user.id, role: "user", email_verified: false });
    // Google vouching for a different address does not verify this one.
    google.setUser({ sub, email: "someone.else@example.com", email_verified: true, name: "Squire" });
    expect((await signIn()).json.user).toMatchObject({ role: "user", email_verified: false });
    google.setUser({ sub, email: "squire@example.com", email_verified: true, name: "Squire" });
    const verified = await signIn();
    expect(verified.json.user).toMatchObject({ id: local.user.id, role: "admin", email_verified: true });
  });

  it("removes a password set on an unverified address when its owner proves it through Google (pre-account hijacking)", async () => {
    // Someone registers the owner's address first, with a password of their own, and keeps a session.
    const squatter = new TestClient(server.url);
    const squat = await registerUser(squatter, { email: "pre.hijack@example.com" });
    expect(squat.user.role).toBe("user");
    nextGoogleUser("pre.hijack@example.com");
    const owner = new TestClient(server.url);
    const { code, state } = await consent(owner);
    const res = await owner.post("/api/auth/google/exchange", { code, state });
    expect(res.status).toBe(200);
    expect(res.json.user).toMatchObject({ id: squat.user.id, role: "admin", email_verified: true });
    // The squatter's session and password are gone; the owner is signed in.
    expect((await squatter.get("/api/auth/me")).status).toBe(401);
    const login = await new TestClient(server.url).post("/api/auth/login", {
      email: "pre.hijack@example.com",
      password: squat.password,
    });
    expect(login.status).toBe(401);
    expect((await owner.get("/api/auth/me")).status).toBe(200);
  });

  it("keeps the password of an account whose address was already verified when Google links to it", async () => {
    const local = await registerUser(new TestClient(server.url));
    await server.deps.database.rows(
      sql`update users set email_verified_at = now() where id = ${local.user.id}`,
    );
    nextGoogleUser(local.email);
    const client = new TestClient(server.url);
    const { code, state } = await consent(client);
    expect((await client.post("/api/auth/google/exchange", { code, state })).status).toBe(200);
    const login = await new TestClient(server.url).post("/api/auth/login", {
      email: local.email,
      password: local.password,
    });
    expect(login.status).toBe(200);
  });

  it("uses a state only once: a replayed callback is refused", async () => {
    nextGoogleUser("replay@example.com");
    const client = new TestClient(server.url);
    const { code, state } = await consent(client);
    expect((await client.post("/api/auth/google/exchange", { code, state })).status).toBe(200);
    const replay = await new TestClient(server.url).post("/api/auth/google/exchange", { code, state });
    expect(replay.status).toBe(400);
    expect(replay.json.detail).toBe("Your login session has expired. Please try logging in again.");
  });

  it.each([
    ["bad_signature", 401, "OAuth authentication failed. Please try again."],
    ["wrong_audience", 401, "OAuth authentication failed. Please try again."],
    ["wrong_nonce", 401, "OAuth authentication failed. Please try again."],
    ["expired_id_token", 401, "OAuth authentication failed. Please try again."],
    ["wrong_issuer", 401, "OAuth authentication failed. Please try again."],
    ["invalid_grant", 400, "Authorization code expired or invalid. Please try logging in again."],
    ["token_500", 503, "Server error during OAuth flow. Please try again later."],
    ["token_429", 503, "Server error during OAuth flow. Please try again later."],
  ] as const)(
    "rejects the exchange when the provider answers %s (%i) and signs nobody in",
    async (mode, status, detail) => {
      nextGoogleUser(`mode-${mode}@example.com`);
      const client = new TestClient(server.url);
      const { code, state } = await consent(client);
      google.setMode(mode);
      const res = await client.post("/api/auth/google/exchange", { code, state });
      expect(res.status).toBe(status);
      expect(res.json.detail).toBe(detail);
      expect(client.cookies.has("atomize_session")).toBe(false);
    },
  );

  it("validates the exchange payload", async () => {
    const res = await new TestClient(server.url).post("/api/auth/google/exchange", {
      code: "  ",
      state: "x",
    });
    expect(res.status).toBe(422);
    expect(res.json.detail).toBe("Invalid authorization code");
  });

  it("server-side callback hands /oauth-callback a one-time code that /api/exchange-auth-code redeems once", async () => {
    const gUser = nextGoogleUser("root@example.com");
    const client = new TestClient(server.url);
    const { code, state, auth } = await consent(client, `${server.url}/api/auth/google/callback`);
    expect(auth.redirect_uri).toBe(`${server.url}/api/auth/google/callback`);
    const cb = await client.get(`/api/auth/google/callback?code=${encodeURIComponent(code!)}&state=${state}`);
    expect(cb.status).toBe(302);
    const to = new URL(cb.headers.get("location")!, server.url);
    expect(to.pathname).toBe("/oauth-callback");
    const oneTime = to.searchParams.get("code")!;
    const res = await client.post(`/api/exchange-auth-code?code=${oneTime}`);
    expect(res.status).toBe(200);
    // ADMIN_EMAILS applies to Google too: its ID token says the address is verified.
    expect(res.json.user).toMatchObject({ email: gUser.email, role: "admin", email_verified: true });
    const again = await new TestClient(server.url).post(`/api/exchange-auth-code?code=${oneTime}`);
    expect(again.status).toBe(400);
    expect(again.json.detail).toBe("Authorization code expired or invalid. Please try logging in again.");
  });

  it("passes a provider error (consent denied) on to /oauth-callback", async () => {
    const client = new TestClient(server.url);
    google.setMode("deny");
    const { location } = await consent(client, `${server.url}/api/auth/google/callback`);
    expect(location.searchParams.get("error")).toBe("access_denied");
    const cb = await client.get(`/api/auth/google/callback?${location.searchParams}`);
    expect(cb.status).toBe(302);
    expect(cb.headers.get("location")).toBe("/oauth-callback?error=access_denied");
  });

  it("rejects an empty one-time code", async () => {
    const res = await new TestClient(server.url).post("/api/exchange-auth-code?code=");
    expect(res.status).toBe(422);
    expect(res.json.detail).toBe("Invalid authorization code");
  });
});

describe("Google sign-in against an issuer that sends iss in its authorization response (RFC 9207)", () => {
  it("passes iss on to openid-client, and refuses a callback without it or with another issuer's", async () => {
    const issGoogle = await startFakeGoogle({ clientId, clientSecret, issParameter: true });
    const issServer = await startTestServer({
      GOOGLE_CLIENT_ID: clientId,
      GOOGLE_CLIENT_SECRET: clientSecret,
      GOOGLE_ISSUER_URL: issGoogle.issuer,
    });
    try {
      const discovery = await fetch(`${issGoogle.issuer}/.well-known/openid-configuration`);
      expect((await discovery.json()).authorization_response_iss_parameter_supported).toBe(true);
      issGoogle.setUser({ sub: `google-sub-iss-${Date.now()}`, email: "iss.param@example.com", name: "Iss" });
      const client = new TestClient(issServer.url);
      const auth = await client.get("/api/auth/google/authorize");
      expect(auth.status).toBe(200);
      const location = new URL(await issGoogle.authorize(auth.json.authorization_url));
      const { code, state, iss } = Object.fromEntries(location.searchParams);
      expect(iss).toBe(issGoogle.issuer);

      // A refusal for the issuer comes before the code is redeemed: the same code still signs in below.
      const missing = await client.post("/api/auth/google/exchange", { code, state });
      expect(missing.status).toBe(400);
      expect(missing.json.detail).toBe(
        "The sign-in response did not name its issuer (iss). Please try logging in again.",
      );
      const other = await client.post("/api/auth/google/exchange", {
        code,
        state,
        iss: "https://accounts.google.com",
      });
      expect(other.status).toBe(400);
      expect(other.json.detail).toBe(
        "The sign-in response came from an unexpected issuer. Please try logging in again.",
      );
      expect(client.cookies.has("atomize_session")).toBe(false);
      expect(issGoogle.requests.filter((r) => r.path === "/token")).toEqual([]);

      const res = await client.post("/api/auth/google/exchange", { code, state, iss });
      expect(res.status).toBe(200);
      expect(res.json.user).toMatchObject({ email: "iss.param@example.com", provider: "google" });
      expect((await client.get("/api/auth/me")).json.email).toBe("iss.param@example.com");
      expect(issGoogle.requests.filter((r) => r.path === "/token")).toHaveLength(1);
    } finally {
      await issServer.stop();
      await issGoogle.close();
    }
  });
});

describe("Google not configured", () => {
  it("says so instead of failing obscurely", async () => {
    const plain = await startTestServer();
    try {
      const client = new TestClient(plain.url);
      expect((await client.get("/api/auth/providers")).json.google).toBe(false);
      const res = await client.get("/api/auth/google/authorize");
      expect(res.status).toBe(503);
      expect(res.json.detail).toBe("Google sign-in is not configured on this server");
    } finally {
      await plain.stop();
    }
  });
});
