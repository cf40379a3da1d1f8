import { createHash, randomBytes } from "node:crypto";
import { and, count, desc, eq, gt, inArray, isNull, or } from "drizzle-orm";
import type { z } from "zod";
import { UUID_PATTERN } from "../../../shared/ids";
import {
  type ApiToken,
  type createTokenInput,
  type NewApiToken,
  TOKEN_PREFIX,
} from "../../../shared/schemas/tokens";
import { apiTokens, users } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { consumeRateLimit } from "./rate-limit";
import { announceSessionsEnded, type ValidSession } from "./sessions";

/**
 * Personal access tokens: `atz_` and 43 characters of randomness, kept only as a SHA-256 hash (a random
 * 256-bit secret needs no salt or slow hash). A token works as `Authorization: Bearer` on /api, tRPC,
 * WebSockets and /mcp; read tokens may not change anything; token management itself needs a signed-in
 * session. Each token has its own rate limit.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
/** Last use is written at most this often per token. */
const TOUCH_MS = 60_000;

const hashOf = (token: string) => createHash("sha256").update(token).digest("hex");

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
const isActive = (now: Date) => or(isNull(apiTokens.expiresAt), gt(apiTokens.expiresAt, now));

function toApiToken(r: typeof apiTokens.$inferSelect): ApiToken {
  return {
    id: r.id,
    name: r.name,
    scope: r.scope,
    prefix: r.prefix,
    created_at: r.createdAt.toISOString(),
    expires_at: r.expiresAt?.toISOString() ?? null,
    last_used_at: r.lastUsedAt?.toISOString() ?? null,
  };
}

/**
 * Makes a token, unless the user already has API_TOKENS_PER_USER active ones (each token brings its own
 * rate limit, so the cap also bounds what one account can send). The count and the insert run under a
 * lock on the user's row: two concurrent requests at the cap minus one cannot both pass.
 */
export async function createApiToken(
  deps: Deps,
  userId: string,
  input: z.output<typeof createTokenInput>,
): Promise<NewApiToken> {
  const token = `${TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
  const expiresAt =
    input.expires_in_days === null ? null : new Date(Date.now() + input.expires_in_days * DAY_MS);
  const cap = deps.config.API_TOKENS_PER_USER;
  const row = await deps.db.transaction(async (tx) => {
    // "no key update": queues other token creations of this user without blocking inserts that only
    // reference the user (tasks, events).
    const [user] = await tx
      .select({ id: users.id })
      .from(users)
      .where(eq(users.id, userId))
      .for("no key update");
    if (!user) throw new AppError("UNAUTHORIZED", "Not authenticated");
    const [active] = await tx
      .select({ n: count() })
      .from(apiTokens)
      .where(and(eq(apiTokens.userId, userId), isActive(new Date())));
    if ((active?.n ?? 0) >= cap) {
      throw new AppError(
        "UNPROCESSABLE_CONTENT",
        `You have ${cap} active API tokens, the most allowed. Revoke one you no longer use first.`,
      );
    }
    const [inserted] = await tx
      .insert(apiTokens)
      .values({
        userId,
        name: input.name,
        scope: input.scope,
        tokenHash: hashOf(token),
        prefix: token.slice(0, TOKEN_PREFIX.length + 6),
        expiresAt,
      })
      .returning();
    return inserted!;
  });
  deps.log.info("api token created", { userId, tokenId: row.id, scope: input.scope });
  return {
    id: row.id,
    token,
    name: row.name,
    scope: row.scope,
    expires_at: expiresAt?.toISOString() ?? null,
  };
}

export async function listApiTokens(deps: Deps, userId: string): Promise<{ tokens: ApiToken[] }> {
  const rows = await deps.db
    .select()
    .from(apiTokens)
    .where(eq(apiTokens.userId, userId))
    .orderBy(desc(apiTokens.createdAt));
  return { tokens: rows.map(toApiToken) };
}

export async function revokeApiToken(deps: Deps, userId: string, id: string): Promise<void> {
  const notFound = () => new AppError("NOT_FOUND", "Token not found");
  if (!UUID_PATTERN.test(id)) throw notFound();
  const gone = await deps.db
    .delete(apiTokens)
    .where(and(eq(apiTokens.id, id), eq(apiTokens.userId, userId)))
    .returning({ id: apiTokens.id });
  if (gone.length === 0) throw notFound();
  deps.log.info("api token revoked", { userId, tokenId: id });
  // Its open sockets close now, in every process, as a logout's do.
  await announceSessionsEnded(deps, [tokenSessionId(id)]);
}

/**
 * Of these token ids, those still usable: not revoked, not expired, their user not disabled. Open
 * sockets re-check their token with this (calls over a socket and the periodic check alike); it counts
 * nothing against the rate limit, which a socket paid once when it opened.
 */
export async function liveApiTokenIds(deps: Pick<Deps, "db">, tokenIds: string[]): Promise<Set<string>> {
  const valid = tokenIds.filter((id) => UUID_PATTERN.test(id));
  if (valid.length === 0) return new Set();
  const rows = await deps.db
    .select({ id: apiTokens.id })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .where(and(inArray(apiTokens.id, valid), isActive(new Date()), eq(users.disabled, false)));
  return new Set(rows.map((r) => r.id));
}

export async function apiTokenIsLive(deps: Pick<Deps, "db">, tokenId: string): Promise<boolean> {
  return (await liveApiTokenIds(deps, [tokenId])).has(tokenId);
}

/**
 * The session a personal access token stands for, or null (unknown, expired, or its user disabled).
 * Counts against the token's own rate limit (429 past it) and notes its last use.
 */
export async function validateApiToken(deps: Deps, token: string): Promise<ValidSession | null> {
  if (!token.startsWith(TOKEN_PREFIX) || token.length > 200) return null;
  const [row] = await deps.db
    .select({ token: apiTokens, user: users })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .where(eq(apiTokens.tokenHash, hashOf(token)))
    .limit(1);
  if (!row || row.user.disabled) return null;
  const now = Date.now();
  if (row.token.expiresAt && row.token.expiresAt.getTime() <= now) return null;
  await consumeRateLimit(
    deps,
    { key: `api-token:${row.token.id}`, max: deps.config.API_TOKEN_REQUESTS_PER_MINUTE, windowMs: 60_000 },
    "This API token made too many requests. Please wait a minute.",
  );
  if (!row.token.lastUsedAt || now - row.token.lastUsedAt.getTime() > TOUCH_MS) {
    await deps.db
      .update(apiTokens)
      .set({ lastUsedAt: new Date(now) })
      .where(eq(apiTokens.id, row.token.id));
  }
  return {
    sessionId: tokenSessionId(row.token.id),
    user: row.user,
    expiresAt: row.token.expiresAt ?? new Date(now + 365 * DAY_MS),
    apiToken: { id: row.token.id, scope: row.token.scope, name: row.token.name },
  };
}
