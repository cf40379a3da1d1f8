import { gt, isNull, or } from "drizzle-orm";
import { apiTokens } from "../../db/schema/index";

/**
 * Personal access tokens: `atz_` and 43 characters of randomness, kept only as a SHA-256 hash (a random
 * 256-bit secret needs no salt or slow hash). A token works as `Authorization: Bearer` on /api, tRPC,
 * WebSockets and /mcp; read tokens may not change anything; token management itself needs a signed-in
 * session. Each token has its own rate limit.
 */

/**
 * The session id a token's callers carry (`ValidSession.sessionId`). Sockets opened with a token are
 * tracked, checked and closed under it like a session's (realtime/session-sockets.ts), so revoking the
 * token is announced as that "session" ending.
 */
const TOKEN_SESSION_PREFIX = "api-token:";

export const tokenSessionId = (tokenId: string) => `${TOKEN_SESSION_PREFIX}${tokenId}`;

/** The token id behind a session id, or null when the id is a real session's. */
export const tokenIdOfSession = (sessionId: string) =>
  sessionId.startsWith(TOKEN_SESSION_PREFIX) ? sessionId.slice(TOKEN_SESSION_PREFIX.length) : null;

/** Not revoked (revoking deletes the row), not expired. */
export const isActive = (now: Date) => or(isNull(apiTokens.expiresAt), gt(apiTokens.expiresAt, now));
