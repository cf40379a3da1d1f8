/**
 * A local, in-process fake of Google's OpenID Connect provider (accounts.google.com +
 * oauth2.googleapis.com + openidconnect.googleapis.com collapsed onto one plain-http origin).
 *
 * It implements just enough of the real thing for our server's `openid-client` flow
 * (discovery -> authorization code + PKCE S256 -> token -> ID token verified against the JWKS)
 * and mimics Google's observable behaviour where our code could depend on it: the shape of
 * codes/tokens (`4/0A...`, `ya29....`), expanded scope URLs, error bodies and status codes,
 * and which claims appear for which scopes. It is deliberately *stricter* than Google in one
 * place: PKCE S256 is mandatory, so tests prove our server actually sends it.
 *
 * Rules it follows, and where they come from: OpenID Connect Core 1.0 (authorization code flow,
 * ID token claims and validation: iss, aud, exp, iat, nonce; sections 3.1 and 3.1.3.7), OpenID Connect
 * Discovery 1.0 (the `/.well-known/openid-configuration` document), RFC 7636 (PKCE S256), RFC 6749
 * section 5.2 (token error bodies such as `invalid_grant`), RFC 9207 (`iss` in the authorization
 * response), and Google's own "OpenID Connect" guide (developers.google.com/identity/openid-connect/
 * openid-connect: its endpoints, `prompt=select_account`, the `email`/`email_verified`/`name`/
 * `picture` claims and keying accounts on `sub`). STACK-NOTES.md keeps the corrected summary.
 * Sources, as published:
 * - https://openid.net/specs/openid-connect-core-1_0.html
 * - https://openid.net/specs/openid-connect-discovery-1_0.html
 * - https://www.rfc-editor.org/rfc/rfc7636 (PKCE), https://www.rfc-editor.org/rfc/rfc6749#section-5.2
 *   (token errors), https://www.rfc-editor.org/rfc/rfc9207 (`iss` in the authorization response)
 * - https://developers.google.com/identity/openid-connect/openid-connect (Google's guide) and its
 *   discovery document https://accounts.google.com/.well-known/openid-configuration
 *
 * Failure modes (`setMode`) are sticky until changed: "deny" affects the authorization
 * endpoint; all other modes affect the token endpoint / the ID token it issues.
 *
 * `issParameter: true` makes it an RFC 9207 issuer: discovery advertises
 * `authorization_response_iss_parameter_supported: true` and every redirect back from the authorization
 * endpoint, success or error (RFC 9207 section 2), carries `iss` with the issuer identifier. By default it
 * does neither, so the suites also cover an issuer that does not advertise it.
 */
import {
  createHash,
  generateKeyPairSync,
  type JsonWebKey,
  type KeyObject,
  randomBytes,
  sign,
  timingSafeEqual,
} from "node:crypto";
import {
  type FakeRequest,
  type FakeServer,
  jsonReply,
  mediaType,
  type Reply,
  ReplyError,
  Router,
  startFakeServer,
  textReply,
} from "./kit";

export type FakeGoogleUser = {
  sub: string;
  email: string;
  /** Google always sends this claim; defaults to `true` when omitted here. */
  email_verified?: boolean;
  name?: string;
  picture?: string;
};

export type FakeGoogleMode =
  | "ok"
  | "deny" // deny: authorization endpoint redirects back with error=access_denied (and state)
  | "token_500"
  | "token_429"
  | "token_slow"
  | "invalid_grant"
  | "bad_signature" // id_token signed with a key NOT in the JWKS
  | "wrong_audience"
  | "wrong_nonce"
  | "expired_id_token"
  | "wrong_issuer";

export type FakeGoogle = {
  /** e.g. `http://127.0.0.1:PORT` (no trailing slash, exactly as in the discovery document). */
  issuer: string;
  /** The account that "consents" next. */
  setUser(user: FakeGoogleUser): void;
  setMode(mode: FakeGoogleMode): void;
  /** Follow the consent screen without a browser: GET the authorization URL and return the Location it redirects to. */
  authorize(authorizationUrl: string): Promise<string>;
  /** Every request received (path is the pathname, without the query string), for assertions. */
  readonly requests: Array<{ method: string; path: string }>;
  /** The kit underneath: its full request log and failure modes. */
  server: FakeServer;
  close(): Promise<void>;
};

const DEFAULT_USER: FakeGoogleUser = {
  sub: "google-sub-1",
  email: "ada@example.com",
  email_verified: true,
  name: "Ada Lovelace",
};

const CODE_TTL_MS = 60_000;
const ACCESS_TOKEN_TTL_S = 3599;
const ID_TOKEN_TTL_S = 3600;
const SLOW_TOKEN_DELAY_MS = 15_000;
const MAX_BODY_BYTES = 64 * 1024;

const PATHS = {
  discovery: "/.well-known/openid-configuration",
  authorize: "/o/oauth2/v2/auth",
  token: "/token",
  jwks: "/oauth2/v3/certs",
  userinfo: "/v1/userinfo",
} as const;

/** Google rewrites the short scopes to these URLs in the callback and token response. */
const SCOPE_URLS: Record<string, string> = {
  email: "https://www.googleapis.com/auth/userinfo.email",
  profile: "https://www.googleapis.com/auth/userinfo.profile",
};

type IssuedCode = {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  nonce: string | undefined;
  scopes: string[];
  user: FakeGoogleUser;
  expiresAt: number;
};

type IssuedAccessToken = { user: FakeGoogleUser; scopes: string[]; expiresAt: number };

const b64url = (input: Buffer | string): string => Buffer.from(input).toString("base64url");
const randomToken = (bytes: number): string => randomBytes(bytes).toString("base64url");
const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/** Constant-time string comparison (lengths may differ). */
function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}

function makeSigningKey(): { kid: string; privateKey: KeyObject; publicJwk: JsonWebKey } {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  // Google's kids are 40 hex chars.
  const kid = randomBytes(20).toString("hex");
  const publicJwk = { ...publicKey.export({ format: "jwk" }), kid, use: "sig", alg: "RS256" };
  return { kid, privateKey, publicJwk };
}

function signJwt(payload: Record<string, unknown>, kid: string, privateKey: KeyObject): string {
  const header = { alg: "RS256", kid, typ: "JWT" };
  const signingInput = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(payload))}`;
  // For RSA keys node:crypto.sign defaults to RSASSA-PKCS1-v1_5, i.e. RS256 with sha256.
  const signature = sign("sha256", Buffer.from(signingInput), privateKey);
  return `${signingInput}.${b64url(signature)}`;
}

/** Google answers a broken authorization request with an HTML error page, not a redirect. */
function errorPage(status: number, error: string, description: string): Reply {
  const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return textReply(
    status,
    `<!doctype html><html><head><title>Error ${status} (${escapeHtml(error)})</title></head>` +
      `<body><h1>Access blocked: Authorization Error</h1><p>${escapeHtml(description)}</p>` +
      `<p>Error ${status}: ${escapeHtml(error)}</p></body></html>`,
    { "content-type": "text/html; charset=utf-8" },
  );
}

/**
 * client_secret_basic credentials are form-urlencoded *before* base64 (RFC 6749 §2.3.1) and
 * openid-client does exactly that, so undo both layers.
 */
function parseBasicAuth(header: string | undefined): { id: string; secret: string } | undefined {
  const match = header?.match(/^Basic\s+(.+)$/i);
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return undefined;
  const formDecode = (s: string) => decodeURIComponent(s.replace(/\+/g, " "));
  try {
    return { id: formDecode(decoded.slice(0, colon)), secret: formDecode(decoded.slice(colon + 1)) };
  } catch {
    return undefined;
  }
}

export async function startFakeGoogle(opts: {
  clientId: string;
  clientSecret: string;
  host?: string /* default 127.0.0.1 */;
  /** Fixed port for a long-running fake (the e2e web server); 0 picks a free one. */
  port?: number;
  /** Advertise RFC 9207 in discovery and send `iss` in every authorization response. */
  issParameter?: boolean;
}): Promise<FakeGoogle> {
  const signingKey = makeSigningKey();
  // Same kid as the published key, so the client must actually verify the signature
  // (rather than merely failing to find a key) to reject "bad_signature" tokens.
  const rogueKey = { ...makeSigningKey(), kid: signingKey.kid };

  let user: FakeGoogleUser = { ...DEFAULT_USER };
  let mode: FakeGoogleMode = "ok";
  const codes = new Map<string, IssuedCode>();
  const accessTokens = new Map<string, IssuedAccessToken>();

  const discoveryDocument = () => ({
    issuer,
    authorization_endpoint: `${issuer}${PATHS.authorize}`,
    token_endpoint: `${issuer}${PATHS.token}`,
    userinfo_endpoint: `${issuer}${PATHS.userinfo}`,
    jwks_uri: `${issuer}${PATHS.jwks}`,
    response_types_supported: ["code"],
    subject_types_supported: ["public"],
    id_token_signing_alg_values_supported: ["RS256"],
    scopes_supported: ["openid", "email", "profile"],
    token_endpoint_auth_methods_supported: ["client_secret_post", "client_secret_basic"],
    claims_supported: [
      "aud",
      "email",
      "email_verified",
      "exp",
      "family_name",
      "given_name",
      "iat",
      "iss",
      "name",
      "picture",
      "sub",
    ],
    code_challenge_methods_supported: ["plain", "S256"],
    grant_types_supported: ["authorization_code"], // no refresh_token: not implemented here
    ...(opts.issParameter ? { authorization_response_iss_parameter_supported: true } : {}),
  });

  /** Claims Google releases for the granted scopes (email needs "email", name/picture need "profile"). */
  const userClaims = (u: FakeGoogleUser, scopes: string[]): Record<string, unknown> => {
    const claims: Record<string, unknown> = { sub: u.sub };
    if (scopes.includes("email")) {
      claims.email = u.email;
      claims.email_verified = u.email_verified ?? true;
    }
    if (scopes.includes("profile")) {
      if (u.name !== undefined) claims.name = u.name;
      if (u.picture !== undefined) claims.picture = u.picture;
    }
    return claims;
  };

  const googleScopeString = (scopes: string[]) => scopes.map((s) => SCOPE_URLS[s] ?? s).join(" ");

  function issueIdToken(code: IssuedCode, accessToken: string): string {
    let iat = nowSeconds();
    let exp = iat + ID_TOKEN_TTL_S;
    if (mode === "expired_id_token") {
      exp = iat - 2 * 3600;
      iat = exp - ID_TOKEN_TTL_S;
    }
    // at_hash: base64url of the left half of sha256(access_token), per OIDC Core §3.1.3.6.
    const atHash = b64url(createHash("sha256").update(accessToken).digest().subarray(0, 16));
    const payload: Record<string, unknown> = {
      iss: mode === "wrong_issuer" ? "https://accounts.google.com" : issuer,
      azp: code.clientId,
      aud: mode === "wrong_audience" ? "someone-else.apps.googleusercontent.com" : code.clientId,
      ...userClaims(code.user, code.scopes),
      at_hash: atHash,
      iat,
      exp,
    };
    if (mode === "wrong_nonce") payload.nonce = randomToken(16);
    else if (code.nonce !== undefined) payload.nonce = code.nonce;
    const key = mode === "bad_signature" ? rogueKey : signingKey;
    return signJwt(payload, key.kid, key.privateKey);
  }

  function handleAuthorize(req: FakeRequest): Reply {
    const q = req.url.searchParams;
    const clientId = q.get("client_id");
    if (clientId !== opts.clientId)
      return errorPage(400, "invalid_client", "The OAuth client was not found.");
    const redirectUri = q.get("redirect_uri");
    let redirect: URL;
    try {
      redirect = new URL(redirectUri ?? "");
    } catch {
      return errorPage(400, "invalid_request", "Missing required parameter: redirect_uri");
    }
    // Google never redirects back on a malformed request (it can't trust redirect_uri yet);
    // it renders an error page instead, so do the same for every check below.
    if (q.get("response_type") !== "code")
      return errorPage(400, "invalid_request", "Invalid response_type: only 'code' is supported.");
    const scopes = (q.get("scope") ?? "").split(" ").filter(Boolean);
    if (!scopes.includes("openid"))
      return errorPage(400, "invalid_request", "Missing required scope: openid");
    const codeChallenge = q.get("code_challenge");
    if (!codeChallenge || q.get("code_challenge_method") !== "S256") {
      // Stricter than Google on purpose: our server must use PKCE S256.
      return errorPage(400, "invalid_request", "code_challenge and code_challenge_method=S256 are required.");
    }
    const state = q.get("state");
    const withState = (params: Record<string, string>) => {
      const target = new URL(redirect);
      if (state !== null) target.searchParams.set("state", state);
      for (const [k, v] of Object.entries(params)) target.searchParams.set(k, v);
      if (opts.issParameter) target.searchParams.set("iss", issuer);
      return target.href;
    };

    if (mode === "deny") return { status: 302, headers: { location: withState({ error: "access_denied" }) } };

    // Google codes look like "4/0A..." — the slash catches callers that don't URL-encode.
    const code = `4/0A${randomToken(48)}`;
    codes.set(code, {
      clientId,
      redirectUri: redirectUri ?? "", // compared verbatim at the token endpoint, like Google
      codeChallenge,
      nonce: q.get("nonce") ?? undefined,
      scopes,
      user: { ...user },
      expiresAt: Date.now() + CODE_TTL_MS,
    });
    const location = withState({
      code,
      scope: googleScopeString(scopes),
      authuser: "0",
      prompt: "consent",
    });
    return { status: 302, headers: { location } };
  }

  async function handleToken(req: FakeRequest): Promise<Reply | undefined> {
    if (mediaType(req.headers["content-type"]) !== "application/x-www-form-urlencoded")
      return jsonReply(400, { error: "invalid_request", error_description: "Bad Request" });
    const form = req.form();

    // Client authentication: exactly one of client_secret_basic / client_secret_post.
    const basic = parseBasicAuth(req.headers.authorization);
    const postSecret = form.get("client_secret");
    if (basic && postSecret !== null)
      return jsonReply(400, {
        error: "invalid_request",
        error_description: "Multiple client authentication methods are not allowed.",
      });
    const client = basic ?? { id: form.get("client_id") ?? "", secret: postSecret ?? "" };
    if (!safeEqual(client.id, opts.clientId) || !safeEqual(client.secret, opts.clientSecret))
      return jsonReply(401, {
        error: "invalid_client",
        error_description: "The OAuth client was not found.",
      });

    // Simulated upstream failures take effect only after the client has authenticated.
    switch (mode) {
      case "token_500":
        return jsonReply(500, { error: "internal_failure" });
      case "token_429":
        return jsonReply(429, { error: "rate_limit_exceeded" }, { "Retry-After": "2" });
      case "invalid_grant":
        return jsonReply(400, { error: "invalid_grant", error_description: "Bad Request" });
      case "token_slow":
        await server.delay(SLOW_TOKEN_DELAY_MS);
        // close() or the client giving up tore the connection down: the code stays unredeemed.
        if (req.gone()) return undefined;
        break;
    }

    const grantType = form.get("grant_type");
    if (grantType !== "authorization_code")
      return jsonReply(400, {
        error: "unsupported_grant_type",
        error_description: `Invalid grant_type: ${grantType ?? ""}`,
      });

    const invalidGrant = () => jsonReply(400, { error: "invalid_grant", error_description: "Bad Request" });
    const codeValue = form.get("code") ?? "";
    const issued = codes.get(codeValue);
    // Single use: any redemption attempt burns the code, successful or not.
    codes.delete(codeValue);
    if (!issued || issued.expiresAt < Date.now()) return invalidGrant();
    if (issued.clientId !== client.id || issued.redirectUri !== form.get("redirect_uri"))
      return invalidGrant();
    const verifier = form.get("code_verifier");
    if (!verifier) return invalidGrant();
    const challenge = b64url(createHash("sha256").update(verifier).digest());
    if (!safeEqual(challenge, issued.codeChallenge)) return invalidGrant();

    const accessToken = `ya29.${randomToken(96)}`;
    accessTokens.set(accessToken, {
      user: issued.user,
      scopes: issued.scopes,
      expiresAt: Date.now() + ACCESS_TOKEN_TTL_S * 1000,
    });
    return jsonReply(
      200,
      {
        access_token: accessToken,
        expires_in: ACCESS_TOKEN_TTL_S,
        id_token: issueIdToken(issued, accessToken),
        scope: googleScopeString(issued.scopes),
        token_type: "Bearer",
      },
      { "Cache-Control": "no-store", Pragma: "no-cache" },
    );
  }

  function handleUserinfo(req: FakeRequest): Reply {
    const token = req.headers.authorization?.match(/^Bearer\s+(.+)$/i)?.[1];
    const grant = token ? accessTokens.get(token) : undefined;
    if (!grant || grant.expiresAt < Date.now())
      return jsonReply(
        401,
        { error: "invalid_request", error_description: "Invalid Credentials" },
        { "WWW-Authenticate": `Bearer realm="${issuer}/", error="invalid_token"` },
      );
    return jsonReply(200, userClaims(grant.user, grant.scopes));
  }

  const cached = { "Cache-Control": "public, max-age=3600" };
  const routes = new Router()
    .get(PATHS.discovery, () => jsonReply(200, discoveryDocument(), cached))
    .get(PATHS.jwks, () => jsonReply(200, { keys: [signingKey.publicJwk] }, cached))
    .get(PATHS.authorize, handleAuthorize)
    .post(PATHS.token, handleToken)
    .get(PATHS.userinfo, handleUserinfo)
    .post(PATHS.userinfo, handleUserinfo);
  const server: FakeServer = await startFakeServer({
    host: opts.host,
    port: opts.port,
    routes,
    bodyLimit: MAX_BODY_BYTES,
    notFound: (req) =>
      errorPage(404, "not_found", `The requested URL ${req.url.pathname} was not found on this server.`),
    methodNotAllowed: (_req, allowed) =>
      textReply(405, "Method Not Allowed", { Allow: allowed.join(", "), "Content-Type": "text/plain" }),
    tooLarge: () => new ReplyError(errorPage(413, "request_too_large", "The request body is too large.")),
    onError: (err) => jsonReply(500, { error: "internal_failure", error_description: String(err) }),
  });
  const issuer = server.url;

  return {
    issuer,
    setUser(next) {
      user = { ...next };
    },
    setMode(next) {
      mode = next;
    },
    async authorize(authorizationUrl) {
      const res = await fetch(authorizationUrl, { redirect: "manual" });
      const location = res.headers.get("location");
      if (res.status !== 302 || !location) {
        throw new Error(
          `fake Google authorization endpoint answered ${res.status} without a redirect: ${await res.text()}`,
        );
      }
      await res.body?.cancel();
      return location;
    },
    get requests() {
      return server.log.map(({ method, path }) => ({ method, path }));
    },
    server,
    close: server.close,
  };
}
