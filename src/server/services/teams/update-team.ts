import { count, eq } from "drizzle-orm";
import type { z } from "zod";
import type { Team, updateTeamInput } from "../../../shared/schemas/teams";
import { teamMembers, teams } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { managerOf, teamOf } from "./teams";

/** Renames a team, or sets whether its new plans need an approval before export (owners and admins). */
export async function updateTeam(
  deps: Deps,
  userId: string,
  teamId: string,
  input: z.output<typeof updateTeamInput>,
): Promise<Team> {
  const role = await managerOf(deps, userId, teamId, "change the team's settings");
  const [row] = await deps.db
    .update(teams)
    .set({
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.requires_approval !== undefined ? { requiresApproval: input.requires_approval } : {}),
    })
    .where(eq(teams.id, teamId))
    .returning();
  const [n] = await deps.db.select({ n: count() }).from(teamMembers).where(eq(teamMembers.teamId, teamId));
  return teamOf(row!, role, n?.n ?? 0);
}
