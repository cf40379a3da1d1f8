import type { Deps } from "../deps";
import type { Logger } from "../lib/logger";
import type { ApiTokenUse, SessionMeta, UserRow } from "../services/auth/sessions";

export type Context = {
  deps: Deps;
  user: UserRow | null;
  sessionId: string | null;
  authVia: "cookie" | "bearer" | null;
  /** The personal access token the caller used, if any. */
  apiToken?: ApiTokenUse | null;
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
