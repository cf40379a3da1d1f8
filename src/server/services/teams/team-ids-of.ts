import { eq } from "drizzle-orm";
import { teamMembers } from "../../db/schema/index";
import type { Deps } from "../../deps";

/** The teams a person is in. */
export async function teamIdsOf(deps: Pick<Deps, "db">, userId: string): Promise<string[]> {
  const rows = await deps.db
    .select({ id: teamMembers.teamId })
    .from(teamMembers)
    .where(eq(teamMembers.userId, userId));
  return rows.map((r) => r.id);
}
