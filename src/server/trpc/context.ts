import { randomUUID } from "node:crypto";
import type { Deps } from "../deps";
import type { SessionMeta, UserRow } from "../services/auth/sessions";

export type Context = {
  deps: Deps;
  user: UserRow | null;
  sessionId: string | null;
  authVia: "cookie" | "bearer" | null;
  meta: SessionMeta;
  /** The refresh-token cookie, when the browser sent one. */
  refreshCookie: string | null;
  /** Adds Set-Cookie headers to the HTTP response; null over WebSocket, where no response exists. */
  setCookies: ((cookies: string[]) => void) | null;
  requestId: string;
  /** Over WebSocket only: state of that one connection (its open subscriptions). */
  connection?: { subscriptions: number };
};

/** A context without a request, for tests and server-side callers. */
export function createContextInner(deps: Deps, partial: Partial<Omit<Context, "deps">> = {}): Context {
  return {
    deps,
    user: null,
    sessionId: null,
    authVia: null,
    meta: {},
    refreshCookie: null,
    setCookies: null,
    requestId: randomUUID(),
    ...partial,
  };
}
