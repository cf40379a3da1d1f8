import { and, eq, inArray } from "drizzle-orm";
import { UUID_PATTERN } from "../../../shared/ids";
import { apiTokens, users } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { isActive } from "./api-tokens";

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
