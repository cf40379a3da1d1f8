import type { Context } from "hono";
import type { Deps } from "../deps";
import { AppError } from "../errors";
import { type AppEnv, appendCookies } from "../http/hono-env";
import { REFRESH_COOKIE, readCookies } from "../http/session-cookies";
import type { Logger } from "../lib/logger";
import { apiTokenIsLive } from "../services/auth/api-token-is-live";
import { sessionIsLive } from "../services/auth/session-is-live";
import type { SessionMeta, ValidSession } from "../services/auth/sessions";
import type { OperationContext } from "./define";

/** Who is calling and how the answer goes back, as each adapter knows it after authenticating. */
export type Caller = {
  deps: Deps;
  /** The session or personal access token the request carried, if any. */
  session: ValidSession | null;
  meta: SessionMeta;
  log: Logger;
  /** The refresh-token cookie, when the browser sent one. */
  refreshCookie?: string | null;
  /** Adds Set-Cookie headers to the HTTP response (none over WebSocket or MCP). */
  setCookies?: ((cookies: string[]) => void) | null;
  /** A WebSocket: the context lives as long as the socket, so the session is checked again at each call. */
  persistent?: boolean;
};

/**
 * The one place an operation's context is built, for every adapter: tRPC over HTTP and WebSocket, the
 * REST facade and its hand-written routes, the MCP server.
 */
export function callerContext(caller: Caller): OperationContext {
  const { deps, session } = caller;
  return {
    deps,
    user: session?.user ?? null,
    sessionId: session?.sessionId ?? null,
    apiToken: session?.apiToken ?? null,
    meta: caller.meta,
    log: caller.log,
    refreshCookie: caller.refreshCookie ?? null,
    setCookies: caller.setCookies ?? null,
    recheck:
      caller.persistent && session
        ? async () => {
            const token = session.apiToken;
            if (token && !(await apiTokenIsLive(deps, token.id))) {
              throw new AppError("UNAUTHORIZED", "This API token was revoked or has expired.");
            }
            if (!token && !(await sessionIsLive(deps, session.sessionId))) {
              throw new AppError("UNAUTHORIZED", "Your session has ended. Please sign in again.");
            }
          }
        : null,
  };
}

/** The operation's context for a request to /api (operations/context.ts builds it for every adapter). */
export function restContext(c: Context<AppEnv>): OperationContext {
  return callerContext({
    deps: c.var.deps,
    session: c.var.auth.session,
    meta: c.var.meta,
    log: c.var.log,
    refreshCookie: readCookies(c.req.header("cookie"))[REFRESH_COOKIE] ?? null,
    setCookies: appendCookies(c),
  });
}

/**
 * The context of a visitor's request outside /api (the site's pages, feeds and uploads), where no
 * session is read: every operation it runs is public.
 */
export function visitorContext(c: Context<AppEnv>): OperationContext {
  return callerContext({ deps: c.var.deps, session: null, meta: c.var.meta ?? {}, log: c.var.log });
}
