import { eq } from "drizzle-orm";
import { TOKEN_PREFIX } from "../../../shared/schemas/tokens";
import { apiTokens, users } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { hashSecret } from "../../lib/secret-tokens";
import { tokenSessionId } from "./api-tokens";
import { consumeRateLimit } from "./rate-limit";
import { DAY, type ValidSession } from "./sessions";

/** Last use is written at most this often per token. */
const TOUCH_MS = 60_000;

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
    .where(eq(apiTokens.tokenHash, hashSecret(token)))
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
    expiresAt: row.token.expiresAt ?? new Date(now + 365 * DAY),
    apiToken: { id: row.token.id, scope: row.token.scope, name: row.token.name },
  };
}
