import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq } from "drizzle-orm";
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
import type { ValidSession } from "./sessions";

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

export async function createApiToken(
  deps: Deps,
  userId: string,
  input: z.output<typeof createTokenInput>,
): Promise<NewApiToken> {
  const token = `${TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
  const expiresAt =
    input.expires_in_days === null ? null : new Date(Date.now() + input.expires_in_days * DAY_MS);
  const [row] = await deps.db
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
  deps.log.info("api token created", { userId, tokenId: row!.id, scope: input.scope });
  return {
    id: row!.id,
    token,
    name: row!.name,
    scope: row!.scope,
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
    sessionId: `api-token:${row.token.id}`,
    user: row.user,
    expiresAt: row.token.expiresAt ?? new Date(now + 365 * DAY_MS),
    apiToken: { id: row.token.id, scope: row.token.scope, name: row.token.name },
  };
}
