import type { Deps } from "../deps";
import type { Logger } from "../lib/logger";
import type { SessionMeta, UserRow } from "../services/auth/sessions";

export type Context = {
  deps: Deps;
  user: UserRow | null;
  sessionId: string | null;
  authVia: "cookie" | "bearer" | null;
  /** A personal access token's id and scope, when the caller used one. */
  apiToken?: { id: string; scope: "read" | "write" } | null;
  meta: SessionMeta;
  /** The refresh-token cookie, when the browser sent one. */
  refreshCookie: string | null;
  /** Adds Set-Cookie headers to the HTTP response; null over WebSocket, where no response exists. */
  setCookies: ((cookies: string[]) => void) | null;
  requestId: string;
  /** The request's own logger: every line carries its request id. */
  log: Logger;
  /** Over WebSocket only: state of that one connection (its open subscriptions). */
  connection?: { subscriptions: number };
};
