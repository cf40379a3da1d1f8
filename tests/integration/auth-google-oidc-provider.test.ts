/**
 * Google sign-in against a certified OpenID Provider: node-oidc-provider (npm `oidc-provider`, OpenID
 * Certified), run in this process on 127.0.0.1 in place of accounts.google.com. Plain http is fine on
 * loopback: the app's google.ts allows insecure requests for a loopback issuer.
 *
 * What the standards and the library require, and what this suite checks against them:
 * - RFC 9207 (OAuth 2.0 Authorization Server Issuer Identification), https://www.rfc-editor.org/rfc/rfc9207:
 *   section 2: an authorization server that supports it MUST include its issuer identifier as `iss` in
 *   every authorization response, error responses included; sections 2.3 and 3: it says so with
 *   `authorization_response_iss_parameter_supported: true` in its metadata, and `iss` is identical to the
 *   metadata's `issuer`; section 2.4: a client MUST reject an authorization response without `iss` from a
 *   server that advertises it, compares `iss` with the issuer it expects by simple string comparison, and
 *   MUST reject the response (and not redeem its code) when they differ. That is the defence against
 *   mix-up attacks.
 * - openid-client v6 (authorizationCodeGrant, through oauth4webapi's validateAuthResponse): it reads `iss`
 *   from the callback URL it is handed. When the discovered metadata advertises
 *   `authorization_response_iss_parameter_supported` and the URL has no `iss`, it throws
 *   OAUTH_INVALID_RESPONSE 'response parameter "iss" (issuer) missing'; an `iss` other than the discovered
 *   issuer throws 'unexpected "iss" (issuer) response parameter value'. The app rebuilds that URL from the
 *   callback's parameters, so it must carry `iss` over: it used to keep only `code` and `state`, and
 *   sign-in against such a provider failed with "OAuth authentication failed".
 * - oidc-provider advertises `authorization_response_iss_parameter_supported: true` and sends `iss` in
 *   its authorization responses (query response mode, no ID token in the response).
 *
 * The provider here has one client for the app's two redirect URIs (google.ts allowedRedirects), with
 * client_secret_basic and PKCE required, and answers its interactions without a browser: its
 * /interaction/{uid} endpoint is this file's own (devInteractions off), and picks the test account
 * (`prompt=select_account`, which Google supports and the app sends), logs it in and grants what the
 * client asked for. The suite follows the redirects with fetch, keeping the provider's cookies.
 *
 * oidc-provider 9 prints "Unsupported runtime" on Node 20 (it names Node 22 LTS) without declaring
 * `engines`; it uses nothing Node 20.19 lacks (URL.parse is there since 20.18, crypto.hash since 20.12),
 * and this suite is the proof. That one notice is held back when the module loads.
 */
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type {
  Adapter,
  AdapterPayload,
  ClientMetadata,
  InteractionResults,
  JWK,
  default as Provider,
} from "oidc-provider";
import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestClient } from "../support/http-client";
import { startTestServer, type TestServer } from "../support/server";

const clientId = "atomize-oidc-provider-test";
const clientSecret = randomBytes(32).toString("base64url");

type Account = { sub: string; email: string; email_verified: boolean; name: string };

/** Loads oidc-provider without its "Unsupported runtime" notice for Node 20 (see the header). */
async function loadOidcProvider(): Promise<typeof import("oidc-provider")> {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (!String(args[0]).startsWith("oidc-provider WARNING: Unsupported runtime")) warn(...args);
  };
  try {
    return await import("oidc-provider");
  } finally {
    console.warn = warn;
  }
}

/**
 * The provider's storage: a Map of its own (the bundled in-memory adapter is a module-wide store and
 * warns that it is one). Entries expire as oidc-provider asks.
 */
function mapAdapter(): new (model: string) => Adapter {
  const store = new Map<string, { payload: AdapterPayload; expiresAt: number }>();
  const live = (key: string) => {
    const entry = store.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= Date.now()) {
      store.delete(key);
      return undefined;
    }
    return entry.payload;
  };
  return class MapAdapter implements Adapter {
    constructor(readonly model: string) {}
    private key(id: string) {
      return `${this.model}:${id}`;
    }
    async upsert(id: string, payload: AdapterPayload, expiresIn: number) {
      store.set(this.key(id), { payload, expiresAt: expiresIn ? Date.now() + expiresIn * 1000 : Infinity });
    }
    async find(id: string) {
      return live(this.key(id));
    }
    async findByUid(uid: string) {
      for (const key of store.keys()) {
        const payload = key.startsWith(`${this.model}:`) ? live(key) : undefined;
        if (payload?.uid === uid) return payload;
      }
      return undefined;
    }
    async findByUserCode() {
      return undefined;
    }
    async consume(id: string) {
      const payload = live(this.key(id));
      if (payload) payload.consumed = Math.floor(Date.now() / 1000);
    }
    async destroy(id: string) {
      store.delete(this.key(id));
    }
    async revokeByGrantId(grantId: string) {
      for (const [key, entry] of store) if (entry.payload.grantId === grantId) store.delete(key);
    }
  };
}

type OidcProvider = {
  issuer: string;
  /** The prompts its interaction endpoint answered, in order. */
  prompts: string[];
  /** The account that signs in next. */
  setAccount(account: Account): void;
  /** Becomes the provider, with this one client (the app's redirect URIs are known once it has started). */
  serve(client: ClientMetadata): void;
  close(): Promise<void>;
};

/** Listens first: the app needs the issuer URL to start, the provider the app's redirect URIs. */
async function startOidcProvider(): Promise<OidcProvider> {
  const { default: ProviderClass, interactionPolicy } = await loadOidcProvider();
  const http: Server = createServer();
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const prompts: string[] = [];
  let account: Account | undefined;
  let provider: Provider | undefined;

  const interact = async (op: Provider, req: IncomingMessage, res: ServerResponse) => {
    const details = await op.interactionDetails(req, res);
    prompts.push(details.prompt.name);
    let result: InteractionResults;
    switch (details.prompt.name) {
      case "select_account":
        result = { select_account: {} };
        break;
      case "login":
        if (!account) throw new Error("no test account set");
        result = { login: { accountId: account.sub } };
        break;
      case "consent": {
        const asked = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
        const grant =
          (details.grantId ? await op.Grant.find(details.grantId) : undefined) ??
          new op.Grant({ accountId: details.session!.accountId, clientId: String(details.params.client_id) });
        if (asked.missingOIDCScope) grant.addOIDCScope(asked.missingOIDCScope.join(" "));
        if (asked.missingOIDCClaims) grant.addOIDCClaims(asked.missingOIDCClaims);
        result = { consent: { grantId: await grant.save() } };
        break;
      }
      default:
        throw new Error(`unexpected prompt ${details.prompt.name}`);
    }
    await op.interactionFinished(req, res, result, { mergeWithLastSubmission: true });
  };

  http.on("request", (req: IncomingMessage, res: ServerResponse) => {
    if (!provider) {
      res.writeHead(503).end("not serving yet");
      return;
    }
    const op = provider;
    const path = new URL(req.url ?? "/", issuer).pathname;
    if (req.method === "GET" && /^\/interaction\/[\w-]+$/.test(path)) {
      interact(op, req, res).catch((err: unknown) => {
        res.writeHead(500, { "content-type": "text/plain" }).end(`interaction failed: ${String(err)}`);
      });
      return;
    }
    op.callback()(req, res);
  });

  // Google asks which account to use first; the app sends prompt=select_account, which a provider refuses
  // ("unsupported prompt value requested") unless its policy has such a prompt.
  const policy = interactionPolicy.base();
  policy.add(new interactionPolicy.Prompt({ name: "select_account", requestable: true }), 0);
  const signingKey = {
    ...(generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ format: "jwk" }) as JWK),
    kid: "test-signing-key",
    use: "sig",
    alg: "RS256",
  };

  return {
    issuer,
    prompts,
    setAccount(next) {
      account = { ...next };
    },
    serve(client) {
      provider = new ProviderClass(issuer, {
        adapter: mapAdapter(),
        clients: [client],
        jwks: { keys: [signingKey] },
        cookies: { keys: [randomBytes(32).toString("base64url")] },
        // Google's scopes and the claims it puts in the ID token; conformIdTokenClaims would keep scope
        // claims to the userinfo endpoint when an access token is issued, and the app reads the ID token.
        claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
        conformIdTokenClaims: false,
        pkce: { required: () => true },
        // Lifetimes of its own (the defaults work, but each asks, once, to be chosen).
        ttl: {
          AccessToken: 3600,
          AuthorizationCode: 60,
          Grant: 3600,
          IdToken: 3600,
          Interaction: 600,
          Session: 3600,
        },
        features: { devInteractions: { enabled: false } },
        interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}`, policy },
        findAccount: (_ctx, sub) =>
          account && sub === account.sub
            ? { accountId: sub, claims: () => ({ ...account!, sub }) }
            : undefined,
      });
    },
    async close() {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** Cookies by name and path, sent where the path matches (the provider scopes its interaction cookies). */
class CookieJar {
  private readonly cookies = new Map<string, { name: string; value: string; path: string }>();

  store(setCookies: string[]) {
    for (const line of setCookies) {
      const [pair = "", ...attributes] = line.split(";").map((s) => s.trim());
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      let path = "/";
      let expired = false;
      for (const attribute of attributes) {
        const [key = "", val = ""] = attribute.split("=");
        if (/^path$/i.test(key)) path = val;
        if (/^max-age$/i.test(key) && Number(val) <= 0) expired = true;
        if (/^expires$/i.test(key) && Date.parse(val) <= Date.now()) expired = true;
      }
      const id = `${name}\u0000${path}`;
      if (expired) this.cookies.delete(id);
      else this.cookies.set(id, { name, value, path });
    }
  }

  header(url: URL): Record<string, string> {
    const matching = [...this.cookies.values()].filter(
      (c) => url.pathname === c.path || url.pathname.startsWith(c.path.endsWith("/") ? c.path : `${c.path}/`),
    );
    return matching.length ? { cookie: matching.map((c) => `${c.name}=${c.value}`).join("; ") } : {};
  }
}

/**
 * A browser at the provider without the screens: follows its redirects from the authorization URL,
 * through the interactions, until it sends the user back to `returnOrigin`; returns that URL.
 */
async function throughProvider(authorizationUrl: string, returnOrigin: string): Promise<URL> {
  const jar = new CookieJar();
  let url = new URL(authorizationUrl);
  for (let hop = 0; hop < 12; hop++) {
    const res = await fetch(url, { redirect: "manual", headers: jar.header(url) });
    jar.store(res.headers.getSetCookie());
    const body = await res.text();
    const location = res.headers.get("location");
    if ((res.status !== 302 && res.status !== 303) || !location) {
      throw new Error(`the provider answered ${res.status} at ${url.pathname}: ${body.slice(0, 500)}`);
    }
    const next = new URL(location, url);
    if (next.origin === returnOrigin) return next;
    url = next;
  }
  throw new Error("the provider never sent the browser back");
}

let op: OidcProvider;
let server: TestServer;

beforeAll(async () => {
  op = await startOidcProvider();
  server = await startTestServer({
    GOOGLE_CLIENT_ID: clientId,
    GOOGLE_CLIENT_SECRET: clientSecret,
    GOOGLE_ISSUER_URL: op.issuer,
  });
  op.serve({
    client_id: clientId,
    client_secret: clientSecret,
    redirect_uris: [`${server.url}/oauth/google/callback`, `${server.url}/api/auth/google/callback`],
    response_types: ["code"],
    grant_types: ["authorization_code"],
    token_endpoint_auth_method: "client_secret_basic",
  });
});
afterAll(async () => {
  await server?.stop();
  await op?.close();
});

let accounts = 0;
function nextAccount(name = "Grace Hopper"): Account {
  accounts += 1;
  const account = {
    sub: `op-sub-${Date.now()}-${accounts}`,
    email: `op.user.${Date.now().toString(36)}.${accounts}@example.com`,
    email_verified: true,
    name,
  };
  op.setAccount(account);
  return account;
}

/** authorize at the app -> the provider's interactions -> the redirect back to the app's callback. */
async function signInAtProvider(client: TestClient, redirect?: string) {
  const q = redirect ? `?redirect_uri=${encodeURIComponent(redirect)}` : "";
  const auth = await client.get(`/api/auth/google/authorize${q}`);
  expect(auth.status).toBe(200);
  const callback = await throughProvider(auth.json.authorization_url, server.url);
  const { code, state, iss } = Object.fromEntries(callback.searchParams);
  return { callback, code: code!, state: state!, iss };
}

describe("Google sign-in against oidc-provider, an RFC 9207 issuer", () => {
  it("advertises the iss parameter in discovery, and PKCE S256", async () => {
    const res = await fetch(`${op.issuer}/.well-known/openid-configuration`);
    expect(res.status).toBe(200);
    const metadata = await res.json();
    expect(metadata).toMatchObject({
      issuer: op.issuer,
      authorization_response_iss_parameter_supported: true,
    });
    expect(metadata.code_challenge_methods_supported).toContain("S256");
  });

  it("signs a new user up through the provider and the SPA callback, and the same user in next time", async () => {
    const account = nextAccount();
    const client = new TestClient(server.url);
    op.prompts.length = 0;
    const first = await signInAtProvider(client);
    expect(first.callback.pathname).toBe("/oauth/google/callback");
    expect(op.prompts).toEqual(["select_account", "login", "consent"]);
    expect(first.iss).toBe(op.issuer);
    const res = await client.post("/api/auth/google/exchange", {
      code: first.code,
      state: first.state,
      iss: first.iss,
    });
    expect(res.status).toBe(200);
    expect(res.json.user).toMatchObject({
      email: account.email,
      full_name: "Grace Hopper",
      provider: "google",
      role: "user",
      email_verified: true,
    });
    expect(client.cookies.has("atomize_session")).toBe(true);
    expect((await client.get("/api/auth/me")).json.email).toBe(account.email);

    const again = new TestClient(server.url);
    const second = await signInAtProvider(again);
    const res2 = await again.post("/api/auth/google/exchange", {
      code: second.code,
      state: second.state,
      iss: second.iss,
    });
    expect(res2.status).toBe(200);
    expect(res2.json.user.id).toBe(res.json.user.id);
  });

  it("refuses a callback without iss or with another issuer's (400), and the same code then signs in with it", async () => {
    const account = nextAccount();
    const client = new TestClient(server.url);
    const { code, state, iss } = await signInAtProvider(client);

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
    // The same issuer spelled with a trailing slash is another string: RFC 9207 compares them as such.
    const slash = await client.post("/api/auth/google/exchange", { code, state, iss: `${iss}/` });
    expect(slash.status).toBe(400);
    for (const bad of ["not a url", "javascript:alert(1)", `https://example.com/${"a".repeat(2000)}`]) {
      const invalid = await client.post("/api/auth/google/exchange", { code, state, iss: bad });
      expect(invalid.status).toBe(422);
      expect(invalid.json.detail).toBe("Invalid issuer (iss)");
    }
    expect(client.cookies.has("atomize_session")).toBe(false);

    // Nothing above redeemed the code or used up the sign-in: the genuine response still completes it.
    const res = await client.post("/api/auth/google/exchange", { code, state, iss });
    expect(res.status).toBe(200);
    expect(res.json.user.email).toBe(account.email);
  });

  it("the server-side callback passes iss on too, and sends a response without it to /oauth-callback as an error", async () => {
    const account = nextAccount();
    const client = new TestClient(server.url);
    const { callback, code, state, iss } = await signInAtProvider(
      client,
      `${server.url}/api/auth/google/callback`,
    );
    expect(callback.pathname).toBe("/api/auth/google/callback");
    expect(iss).toBe(op.issuer);

    const without = await client.get(`/api/auth/google/callback?${new URLSearchParams({ code, state })}`);
    expect(without.status).toBe(302);
    expect(without.headers.get("location")).toBe("/oauth-callback?error=access_denied");

    const cb = await client.get(`${callback.pathname}${callback.search}`);
    expect(cb.status).toBe(302);
    const to = new URL(cb.headers.get("location")!, server.url);
    expect(to.pathname).toBe("/oauth-callback");
    const res = await client.post(`/api/exchange-auth-code?code=${to.searchParams.get("code")}`);
    expect(res.status).toBe(200);
    expect(res.json.user).toMatchObject({ email: account.email, provider: "google" });
  });

  it("openid-client itself refuses this provider's response without iss: the callback URL the app built before", async () => {
    // The app's own configuration of openid-client (google.ts), driven directly.
    nextAccount();
    const config = await oidc.discovery(
      new URL(op.issuer),
      clientId,
      clientSecret,
      oidc.ClientSecretBasic(clientSecret),
      {
        execute: [oidc.allowInsecureRequests],
      },
    );
    expect(config.serverMetadata().authorization_response_iss_parameter_supported).toBe(true);
    const redirectUri = `${server.url}/oauth/google/callback`;
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const pkceCodeVerifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: "openid email profile",
      state,
      nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(pkceCodeVerifier),
      code_challenge_method: "S256",
    });
    const callback = await throughProvider(url.href, server.url);
    const checks = { pkceCodeVerifier, expectedState: state, expectedNonce: nonce, idTokenExpected: true };

    // openid-client wraps oauth4webapi's refusal: ClientError "invalid response encountered", the reason in its cause.
    const refusal = async (callbackUrl: URL) => {
      const err = await oidc.authorizationCodeGrant(config, callbackUrl, checks).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(oidc.ClientError);
      expect((err as oidc.ClientError).code).toBe("OAUTH_INVALID_RESPONSE");
      return ((err as oidc.ClientError).cause as Error).message;
    };
    // What google.ts built before the fix: the redirect URI with code and state only.
    const withoutIss = new URL(redirectUri);
    withoutIss.searchParams.set("code", callback.searchParams.get("code")!);
    withoutIss.searchParams.set("state", state);
    expect(await refusal(withoutIss)).toBe('response parameter "iss" (issuer) missing');
    const wrongIss = new URL(withoutIss);
    wrongIss.searchParams.set("iss", "https://accounts.google.com");
    expect(await refusal(wrongIss)).toBe('unexpected "iss" (issuer) response parameter value');

    const tokens = await oidc.authorizationCodeGrant(config, callback, checks);
    expect(tokens.claims()).toMatchObject({ iss: op.issuer, aud: clientId, email_verified: true });
  });
});
