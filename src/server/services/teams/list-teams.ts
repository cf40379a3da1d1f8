import { asc, eq, sql } from "drizzle-orm";
import type { Team } from "../../../shared/schemas/teams";
import { teamMembers, teams } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { teamOf } from "./teams";

/** The caller's teams, with their role and how many members each has. */
export async function listTeams(deps: Deps, userId: string): Promise<{ teams: Team[] }> {
  const rows = await deps.db
    .select({
      id: teams.id,
      name: teams.name,
      requiresApproval: teams.requiresApproval,
      createdAt: teams.createdAt,
      role: teamMembers.role,
      members: sql<number>`(select count(*)::int from ${teamMembers} m where m.team_id = ${teams.id})`,
    })
    .from(teamMembers)
    .innerJoin(teams, eq(teams.id, teamMembers.teamId))
    .where(eq(teamMembers.userId, userId))
    .orderBy(asc(teams.name), asc(teams.id));
  return { teams: rows.map((r) => teamOf(r, r.role, Number(r.members))) };
}
