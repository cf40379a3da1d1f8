import * as oidc from "openid-client";
import { isLoopback } from "../../config";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";

export const NOT_CONFIGURED = "Google sign-in is not configured on this server";

let discovered: { key: string; config: Promise<oidc.Configuration> } | undefined;

export async function googleConfig(deps: Deps): Promise<oidc.Configuration> {
  const { GOOGLE_CLIENT_ID: id, GOOGLE_CLIENT_SECRET: secret, GOOGLE_ISSUER_URL: issuer } = deps.config;
  if (!id || !secret) throw new AppError("SERVICE_UNAVAILABLE", NOT_CONFIGURED);
  const key = `${issuer}|${id}`;
  if (discovered?.key !== key) {
    const url = new URL(issuer);
    const insecure = url.protocol === "http:" && isLoopback(url.hostname);
    const config = oidc
      .discovery(url, id, secret, oidc.ClientSecretBasic(secret), {
        execute: insecure ? [oidc.allowInsecureRequests] : [],
        timeout: 10,
      })
      .then((c) => {
        // Verify the ID token's signature against the issuer's JWKS, not only its claims.
        oidc.enableNonRepudiationChecks(c);
        return c;
      });
    discovered = { key, config };
    config.catch(() => {
      if (discovered?.config === config) discovered = undefined;
    });
  }
  try {
    return await discovered.config;
  } catch (err) {
    deps.log.error("google discovery failed", { err: (err as Error).message });
    throw new AppError(
      "SERVICE_UNAVAILABLE",
      "Google sign-in is temporarily unavailable. Please try again later.",
    );
  }
}
