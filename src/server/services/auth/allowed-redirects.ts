import type { Deps } from "../../deps";

/** Callback routes an authorization may return to: the SPA screen or the server route that hands out a one-time code. */
export function allowedRedirects(deps: Deps) {
  const o = deps.config.publicOrigin;
  return { spa: `${o}/oauth/google/callback`, server: `${o}/api/auth/google/callback` };
}
