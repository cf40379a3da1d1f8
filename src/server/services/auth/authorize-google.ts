import { lt } from "drizzle-orm";
import * as oidc from "openid-client";
import { oauthFlows } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { hashSecret } from "../../lib/secret-tokens";
import { HOUR_MS } from "./accounts";
import { allowedRedirects } from "./allowed-redirects";
import { googleConfig } from "./google";
import { consumeRateLimit, perAddress } from "./rate-limit";
import type { SessionMeta } from "./sessions";

const FLOW_TTL_MS = 10 * 60_000;

/** Each authorization stores a flow row, so anonymous callers get a per-address budget of them. */
export async function authorizeGoogle(
  deps: Deps,
  input: { redirect_uri?: string | undefined },
  meta: SessionMeta = {},
): Promise<{ state: string; redirect_uri: string; authorization_url: string }> {
  const allowed = allowedRedirects(deps);
  const redirectUri = input.redirect_uri || allowed.spa;
  if (redirectUri !== allowed.spa && redirectUri !== allowed.server) {
    throw new AppError("BAD_REQUEST", "redirect_uri is not an allowed callback URL");
  }
  await consumeRateLimit(
    deps,
    {
      key: perAddress("google-authorize", meta.ip),
      max: deps.config.ANONYMOUS_WRITES_PER_IP_PER_HOUR,
      windowMs: HOUR_MS,
    },
    "Too many sign-in attempts from your network. Please try again later.",
  );
  const config = await googleConfig(deps);
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const codeChallenge = await oidc.calculatePKCECodeChallenge(codeVerifier);
  await deps.db.delete(oauthFlows).where(lt(oauthFlows.expiresAt, new Date()));
  await deps.db.insert(oauthFlows).values({
    stateHash: hashSecret(state),
    provider: "google",
    nonce,
    codeVerifier,
    redirectUri,
    expiresAt: new Date(Date.now() + FLOW_TTL_MS),
  });
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: "openid email profile",
    response_type: "code",
    state,
    nonce,
    code_challenge: codeChallenge,
    code_challenge_method: "S256",
    prompt: "select_account",
  });
  return { state, redirect_uri: redirectUri, authorization_url: url.href };
}
