import { desc, eq } from "drizzle-orm";
import type { ApiToken } from "../../../shared/schemas/tokens";
import { apiTokens } from "../../db/schema/index";
import type { Deps } from "../../deps";

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

export async function listApiTokens(deps: Deps, userId: string): Promise<{ tokens: ApiToken[] }> {
  const rows = await deps.db
    .select()
    .from(apiTokens)
    .where(eq(apiTokens.userId, userId))
    .orderBy(desc(apiTokens.createdAt));
  return { tokens: rows.map(toApiToken) };
}
