import { asc, eq } from "drizzle-orm";
import { teamMembers, users } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { roleIn } from "./teams";

export async function listMembers(deps: Deps, userId: string, teamId: string) {
  await roleIn(deps, userId, teamId);
  const rows = await deps.db
    .select({
      userId: teamMembers.userId,
      role: teamMembers.role,
      joinedAt: teamMembers.joinedAt,
      fullName: users.fullName,
      username: users.username,
      email: users.email,
    })
    .from(teamMembers)
    .innerJoin(users, eq(users.id, teamMembers.userId))
    .where(eq(teamMembers.teamId, teamId))
    .orderBy(asc(teamMembers.joinedAt));
  return {
    members: rows.map((r) => ({
      user_id: r.userId,
      name: r.fullName.trim() || r.username,
      email: r.email,
      role: r.role,
      joined_at: r.joinedAt.toISOString(),
    })),
  };
}
