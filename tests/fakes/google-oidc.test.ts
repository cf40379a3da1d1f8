/**
 * Drives the fake Google provider with the real openid-client, configured the way our server
 * configures it, so the fake is proven faithful enough to stand in for Google in other tests.
 *
 * How openid-client v6 surfaces failures (asserted below, relied on by server code):
 * - error redirect from the authorization endpoint -> AuthorizationResponseError (`.error`)
 * - 4xx JSON `{error}` from the token endpoint -> ResponseBodyError (`.status`, `.error`, `.response`)
 * - 5xx from the token endpoint -> ClientError, code OAUTH_RESPONSE_IS_NOT_CONFORM (cause: the Response)
 * - ID token problems -> ClientError with OAUTH_INVALID_RESPONSE (signature),
 *   OAUTH_JWT_CLAIM_COMPARISON_FAILED (aud/iss/nonce) or OAUTH_JWT_TIMESTAMP_CHECK_FAILED (exp)
 * - timeout (config.timeout, seconds) -> ClientError, code OAUTH_TIMEOUT
 */
import * as client from "openid-client";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { type FakeGoogleMode, type FakeGoogleUser, startFakeGoogle } from "./google-oidc";

const clientId = "1234567890-fake.apps.googleusercontent.com";
// Characters that must be form-urlencoded inside the Basic header (RFC 6749 §2.3.1).
const clientSecret = "GOCSPX-fake:secret +/%";
const redirectUri = "http://127.0.0.1:5173/auth/google/callback";
const defaultUser: FakeGoogleUser = {
  sub: "google-sub-1",
  email: "ada@example.com",
  email_verified: true,
  name: "Ada Lovelace",
};

type Fake = Awaited<ReturnType<typeof startFakeGoogle>>;
type Observed = { url: string; method: string; headers: Record<string, string>; body: unknown };

/** Discover the fake exactly as the server does; `observed` records outgoing requests. */
async function discover(fake: Fake, clientAuth?: client.ClientAuth) {
  const observed: Observed[] = [];
  const config = await client.discovery(new URL(fake.issuer), clientId, clientSecret, clientAuth, {
    execute: [client.allowInsecureRequests],
    [client.customFetch]: (url, options) => {
      observed.push({ url, method: options.method, headers: options.headers, body: options.body });
      // FetchBody admits Uint8Array<ArrayBufferLike>, which lib.dom's BodyInit rejects; same runtime shape.
      return fetch(url, options as RequestInit);
    },
  });
  client.enableNonRepudiationChecks(config);
  return { config, observed };
}

/** Start a sign-in, "consent" at the fake, and return what the callback handler would hold. */
async function signIn(fake: Fake, config: client.Configuration, scope = "openid email profile") {
  const pkceCodeVerifier = client.randomPKCECodeVerifier();
  const expectedState = client.randomState();
  const expectedNonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope,
    code_challenge: await client.calculatePKCECodeChallenge(pkceCodeVerifier),
    code_challenge_method: "S256",
    state: expectedState,
    nonce: expectedNonce,
  });
  const callbackUrl = new URL(await fake.authorize(url.href));
  const checks = { pkceCodeVerifier, expectedState, expectedNonce, idTokenExpected: true };
  return { callbackUrl, checks, grant: () => client.authorizationCodeGrant(config, callbackUrl, checks) };
}

/** Await a promise that must reject and hand back the rejection for closer inspection. */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error("expected the promise to reject");
}

describe("fake Google OIDC provider with openid-client", () => {
  let fake: Fake;
  let config: client.Configuration;
  let observed: Observed[];

  beforeAll(async () => {
    fake = await startFakeGoogle({ clientId, clientSecret });
    ({ config, observed } = await discover(fake));
  });
  afterAll(() => fake.close());
  beforeEach(() => {
    fake.setMode("ok");
    fake.setUser(defaultUser);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("serves a Google-shaped discovery document", async () => {
    const res = await fetch(`${fake.issuer}/.well-known/openid-configuration`);
    expect(res.status).toBe(200);
    const doc = await res.json();
    expect(fake.issuer).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(doc).toMatchObject({
      issuer: fake.issuer,
      authorization_endpoint: `${fake.issuer}/o/oauth2/v2/auth`,
      token_endpoint: `${fake.issuer}/token`,
      jwks_uri: `${fake.issuer}/oauth2/v3/certs`,
      userinfo_endpoint: `${fake.issuer}/v1/userinfo`,
      response_types_supported: ["code"],
      subject_types_supported: ["public"],
      id_token_signing_alg_values_supported: ["RS256"],
      token_endpoint_auth_methods_supported: ["client_secret_post", "client_secret_basic"],
      code_challenge_methods_supported: ["plain", "S256"],
    });
    expect(doc.scopes_supported).toEqual(expect.arrayContaining(["openid", "email", "profile"]));
    expect(doc.claims_supported).toEqual(expect.arrayContaining(["sub", "email", "email_verified", "name"]));

    const jwks = await (await fetch(`${fake.issuer}/oauth2/v3/certs`)).json();
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kty: "RSA", use: "sig", alg: "RS256", e: "AQAB" });
    expect(jwks.keys[0].kid).toMatch(/^[0-9a-f]{40}$/);
    expect(jwks.keys[0]).not.toHaveProperty("d");
  });

  it("completes the code flow with PKCE, state and nonce; ID token verified against the JWKS", async () => {
    const { callbackUrl, checks, grant } = await signIn(fake, config);
    expect(callbackUrl.origin + callbackUrl.pathname).toBe(redirectUri);
    expect(callbackUrl.searchParams.get("state")).toBe(checks.expectedState);
    expect(callbackUrl.searchParams.get("code")).toMatch(/^4\/0A/);

    const tokens = await grant();
    expect(tokens.token_type).toBe("bearer"); // openid-client lower-cases it
    expect(tokens.expires_in).toBe(3599);
    expect(tokens.access_token).toMatch(/^ya29\./);
    expect(tokens.scope).toContain("https://www.googleapis.com/auth/userinfo.email");
    expect(tokens.claims()).toMatchObject({
      iss: fake.issuer,
      aud: clientId,
      azp: clientId,
      sub: "google-sub-1",
      email: "ada@example.com",
      email_verified: true,
      name: "Ada Lovelace",
      nonce: checks.expectedNonce,
    });

    // openid-client's default client auth is client_secret_post, not Basic.
    const tokenRequest = observed.findLast((r) => r.url === `${fake.issuer}/token`);
    expect(tokenRequest?.headers.authorization).toBeUndefined();
    expect(String(tokenRequest?.body)).toContain("client_secret=");
    // enableNonRepudiationChecks made it fetch the JWKS.
    expect(fake.requests).toContainEqual({ method: "GET", path: "/oauth2/v3/certs" });

    const userinfo = await client.fetchUserInfo(config, tokens.access_token, "google-sub-1");
    expect(userinfo).toMatchObject({ sub: "google-sub-1", email: "ada@example.com", name: "Ada Lovelace" });
  });

  it("accepts client_secret_basic (with form-urlencoded credentials)", async () => {
    const basic = await discover(fake, client.ClientSecretBasic());
    const tokens = await (await signIn(fake, basic.config)).grant();
    expect(tokens.claims()?.sub).toBe("google-sub-1");
    const tokenRequest = basic.observed.find((r) => r.url === `${fake.issuer}/token`);
    expect(tokenRequest?.headers.authorization).toMatch(/^Basic /);
    expect(String(tokenRequest?.body)).not.toContain("client_secret");
  });

  it("issues tokens for the user set with setUser, releasing claims per scope", async () => {
    fake.setUser({
      sub: "google-sub-2",
      email: "grace@example.com",
      name: "Grace",
      picture: "https://x/p.png",
    });
    const full = (await (await signIn(fake, config)).grant()).claims();
    expect(full).toMatchObject({
      sub: "google-sub-2",
      email: "grace@example.com",
      email_verified: true,
      name: "Grace",
      picture: "https://x/p.png",
    });

    const openidOnly = (await (await signIn(fake, config, "openid")).grant()).claims();
    expect(openidOnly?.sub).toBe("google-sub-2");
    expect(openidOnly).not.toHaveProperty("email");
    expect(openidOnly).not.toHaveProperty("name");
  });

  it("deny: redirects back with error=access_denied and the state", async () => {
    fake.setMode("deny");
    const { callbackUrl, checks, grant } = await signIn(fake, config);
    expect(callbackUrl.searchParams.get("error")).toBe("access_denied");
    expect(callbackUrl.searchParams.get("state")).toBe(checks.expectedState);
    expect(callbackUrl.searchParams.has("code")).toBe(false);
    const err = await rejection(grant());
    expect(err).toBeInstanceOf(client.AuthorizationResponseError);
    expect(err).toMatchObject({ error: "access_denied" });
  });

  it.each<[FakeGoogleMode, string, RegExp]>([
    ["bad_signature", "OAUTH_INVALID_RESPONSE", /signature verification failed/],
    ["wrong_audience", "OAUTH_JWT_CLAIM_COMPARISON_FAILED", /"aud"/],
    ["wrong_nonce", "OAUTH_JWT_CLAIM_COMPARISON_FAILED", /"nonce"/],
    ["expired_id_token", "OAUTH_JWT_TIMESTAMP_CHECK_FAILED", /"exp"/],
    ["wrong_issuer", "OAUTH_JWT_CLAIM_COMPARISON_FAILED", /"iss"/],
  ])("%s: the ID token is rejected (%s)", async (mode, code, causeMessage) => {
    fake.setMode(mode);
    const { grant } = await signIn(fake, config);
    const err = await rejection(grant());
    expect(err).toBeInstanceOf(client.ClientError);
    expect(err).toMatchObject({ code });
    expect((err as Error).cause).toMatchObject({ message: expect.stringMatching(causeMessage) });
  });

  it("invalid_grant: 400 invalid_grant surfaces as ResponseBodyError", async () => {
    fake.setMode("invalid_grant");
    const err = await rejection((await signIn(fake, config)).grant());
    expect(err).toBeInstanceOf(client.ResponseBodyError);
    expect(err).toMatchObject({ status: 400, error: "invalid_grant", error_description: "Bad Request" });
  });

  it("token_500: a 5xx is a ClientError (not a ResponseBodyError) carrying the Response", async () => {
    fake.setMode("token_500");
    const err = await rejection((await signIn(fake, config)).grant());
    expect(err).toBeInstanceOf(client.ClientError);
    expect(err).not.toBeInstanceOf(client.ResponseBodyError);
    expect(err).toMatchObject({ code: "OAUTH_RESPONSE_IS_NOT_CONFORM" });
    expect(((err as Error).cause as Response).status).toBe(500);
  });

  it("token_429: ResponseBodyError with status 429 and a Retry-After header", async () => {
    fake.setMode("token_429");
    const err = await rejection((await signIn(fake, config)).grant());
    expect(err).toBeInstanceOf(client.ResponseBodyError);
    const bodyErr = err as client.ResponseBodyError;
    expect(bodyErr.status).toBe(429);
    expect(bodyErr.error).toBe("rate_limit_exceeded");
    expect(bodyErr.response.headers.get("retry-after")).toBe("2");
  });

  it("rejects a wrong PKCE code_verifier", async () => {
    const { callbackUrl, checks } = await signIn(fake, config);
    const err = await rejection(
      client.authorizationCodeGrant(config, callbackUrl, {
        ...checks,
        pkceCodeVerifier: client.randomPKCECodeVerifier(),
      }),
    );
    expect(err).toBeInstanceOf(client.ResponseBodyError);
    expect(err).toMatchObject({ status: 400, error: "invalid_grant" });
  });

  it("a code cannot be redeemed twice", async () => {
    const { grant } = await signIn(fake, config);
    await expect(grant()).resolves.toHaveProperty("access_token");
    const err = await rejection(grant());
    expect(err).toBeInstanceOf(client.ResponseBodyError);
    expect(err).toMatchObject({ status: 400, error: "invalid_grant" });
  });

  it("a code expires after 60 s", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const { grant } = await signIn(fake, config);
    vi.setSystemTime(Date.now() + 61_000);
    await expect(grant()).rejects.toMatchObject({ status: 400, error: "invalid_grant" });
  });

  it("rejects a wrong client secret with 401 invalid_client", async () => {
    const wrong = await client.discovery(new URL(fake.issuer), clientId, "not-the-secret", undefined, {
      execute: [client.allowInsecureRequests],
    });
    const err = await rejection((await signIn(fake, wrong)).grant());
    expect(err).toBeInstanceOf(client.ResponseBodyError);
    expect(err).toMatchObject({
      status: 401,
      error: "invalid_client",
      error_description: "The OAuth client was not found.",
    });
  });

  it("shows an error page (no redirect) for malformed authorization requests", async () => {
    const good = client.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: "openid email",
      code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()),
      code_challenge_method: "S256",
      state: "s",
      nonce: "n",
    });
    const variant = (edit: (q: URLSearchParams) => void) => {
      const url = new URL(good);
      edit(url.searchParams);
      return fetch(url, { redirect: "manual" });
    };

    const unknownClient = await variant((q) => q.set("client_id", "nope.apps.googleusercontent.com"));
    expect(unknownClient.status).toBe(400);
    expect(await unknownClient.text()).toContain("invalid_client");

    for (const edit of [
      (q: URLSearchParams) => q.delete("code_challenge"),
      (q: URLSearchParams) => q.set("code_challenge_method", "plain"),
      (q: URLSearchParams) => q.set("scope", "email profile"),
      (q: URLSearchParams) => q.set("response_type", "token"),
      (q: URLSearchParams) => q.delete("redirect_uri"),
    ]) {
      const res = await variant(edit);
      expect(res.status).toBe(400);
      expect(res.headers.get("location")).toBeNull();
      expect(await res.text()).toContain("invalid_request");
    }
  });

  it("userinfo rejects an unknown access token with 401", async () => {
    const res = await fetch(`${fake.issuer}/v1/userinfo`, {
      headers: { authorization: "Bearer ya29.bogus" },
    });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toContain('error="invalid_token"');
  });

  it("records every request", () => {
    expect(fake.requests[0]).toEqual({ method: "GET", path: "/.well-known/openid-configuration" });
    expect(fake.requests).toContainEqual({ method: "GET", path: "/o/oauth2/v2/auth" });
    expect(fake.requests).toContainEqual({ method: "POST", path: "/token" });
  });
});

describe("token_slow", () => {
  it("does not answer within 1 s, and close() returns promptly without waiting for it", async () => {
    const slowFake = await startFakeGoogle({ clientId, clientSecret });
    try {
      const { config } = await discover(slowFake);
      config.timeout = 1; // seconds; openid-client aborts the token request after this
      slowFake.setMode("token_slow");
      const { grant } = await signIn(slowFake, config);
      const started = Date.now();
      const err = await rejection(grant());
      expect(err).toBeInstanceOf(client.ClientError);
      expect(err).toMatchObject({ code: "OAUTH_TIMEOUT" });
      expect(Date.now() - started).toBeGreaterThanOrEqual(900);

      // Leave a second slow request in flight so close() has a live socket and timer to tear down.
      const inFlight = fetch(`${slowFake.issuer}/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ client_id: clientId, client_secret: clientSecret }),
      }).catch((e: unknown) => e);
      await vi.waitFor(() => expect(slowFake.requests.filter((r) => r.path === "/token")).toHaveLength(2));

      const liveTimers = () => process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;
      const timersBeforeClose = liveTimers();
      const closeStarted = Date.now();
      await slowFake.close();
      expect(Date.now() - closeStarted).toBeLessThan(500);
      // The 15 s delay timer is gone, so it cannot keep the process alive.
      expect(liveTimers()).toBeLessThan(timersBeforeClose);
      expect(await inFlight).toBeInstanceOf(TypeError); // fetch failed: socket destroyed
    } finally {
      await slowFake.close();
    }
  });
});
