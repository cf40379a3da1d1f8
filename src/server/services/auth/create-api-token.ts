import { randomBytes } from "node:crypto";
import { and, count, eq } from "drizzle-orm";
import type { z } from "zod";
import { type createTokenInput, type NewApiToken, TOKEN_PREFIX } from "../../../shared/schemas/tokens";
import { apiTokens, users } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { hashSecret } from "../../lib/secret-tokens";
import { isActive } from "./api-tokens";
import { DAY } from "./sessions";

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
    input.expires_in_days === null ? null : new Date(Date.now() + input.expires_in_days * DAY);
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
        tokenHash: hashSecret(token),
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
