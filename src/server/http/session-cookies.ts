import { parse, serialize } from "hono/utils/cookie";
import { TOKEN_PREFIX } from "../../shared/schemas/tokens";
import type { Deps } from "../deps";
import type { ValidSession } from "../services/auth/sessions";
import { validateAccessToken } from "../services/auth/validate-access-token";
import { validateApiToken } from "../services/auth/validate-api-token";

export const SESSION_COOKIE = "atomize_session";
export const REFRESH_COOKIE = "atomize_refresh";

export type RequestAuth = {
  session: ValidSession | null;
  /** How the caller authenticated: only cookie-authenticated mutations need the CSRF check. */
  via: "cookie" | "bearer" | null;
};

export function readCookies(cookieHeader: string | null | undefined): Record<string, string> {
  return cookieHeader ? parse(cookieHeader) : {};
}

/** Bearer header (API clients) wins over the session cookie (the SPA). */
export async function authenticate(
  deps: Deps,
  authorization: string | null | undefined,
  cookieHeader: string | null | undefined,
  queryToken?: string | null,
): Promise<RequestAuth> {
  const bearer = authorization?.match(/^Bearer\s+(\S+)$/i)?.[1] ?? queryToken ?? null;
  if (bearer?.startsWith(TOKEN_PREFIX))
    return { session: await validateApiToken(deps, bearer), via: "bearer" };
  if (bearer) return { session: await validateAccessToken(deps, bearer), via: "bearer" };
  const cookie = readCookies(cookieHeader)[SESSION_COOKIE];
  if (cookie) return { session: await validateAccessToken(deps, cookie), via: "cookie" };
  return { session: null, via: null };
}

const DAY_S = 24 * 60 * 60;

export function sessionCookies(deps: Deps, tokens: { accessToken: string; refreshToken: string }): string[] {
  const secure = deps.config.cookieSecure;
  return [
    serialize(SESSION_COOKIE, tokens.accessToken, {
      httpOnly: true,
      sameSite: "Lax",
      secure,
      path: "/",
      maxAge: deps.config.SESSION_IDLE_DAYS * DAY_S,
    }),
    serialize(REFRESH_COOKIE, tokens.refreshToken, {
      httpOnly: true,
      sameSite: "Strict",
      secure,
      path: "/",
      maxAge: deps.config.REFRESH_TOKEN_DAYS * DAY_S,
    }),
  ];
}

export function clearedSessionCookies(deps: Deps): string[] {
  const secure = deps.config.cookieSecure;
  return [SESSION_COOKIE, REFRESH_COOKIE].map((name) =>
    serialize(name, "", {
      httpOnly: true,
      sameSite: name === SESSION_COOKIE ? "Lax" : "Strict",
      secure,
      path: "/",
      maxAge: 0,
    }),
  );
}

/**
 * CSRF defence for cookie-authenticated mutations (the Lucia guide's check): the browser must say the
 * request comes from our own origin. Bearer-token callers are not exposed to CSRF and are not checked.
 */
export function isSameOriginRequest(
  deps: Deps,
  headers: {
    origin?: string | null;
    secFetchSite?: string | null;
    host?: string | null;
    proto?: string | null;
  },
): boolean {
  if (headers.secFetchSite && headers.secFetchSite !== "same-origin" && headers.secFetchSite !== "none")
    return false;
  if (!headers.origin) return false;
  if (headers.origin === deps.config.publicOrigin) return true;
  if (!headers.host) return false;
  try {
    const origin = new URL(headers.origin);
    return origin.host === headers.host && (!headers.proto || origin.protocol === `${headers.proto}:`);
  } catch {
    return false;
  }
}
