import { count, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import type { createTeamInput, Team } from "../../../shared/schemas/teams";
import { teamMembers, teams, users } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { TEAMS_PER_USER, teamOf } from "./teams";

export async function createTeam(
  deps: Deps,
  userId: string,
  input: z.output<typeof createTeamInput>,
): Promise<Team> {
  return deps.db.transaction(async (tx) => {
    // One at a time per person, so the count holds.
    await tx.execute(sql`select 1 from ${users} where id = ${userId} for update`);
    const [made] = await tx.select({ n: count() }).from(teams).where(eq(teams.createdBy, userId));
    if ((made?.n ?? 0) >= TEAMS_PER_USER)
      throw new AppError("CONFLICT", `You can create at most ${TEAMS_PER_USER} teams.`);
    const [row] = await tx.insert(teams).values({ name: input.name, createdBy: userId }).returning();
    await tx.insert(teamMembers).values({ teamId: row!.id, userId, role: "owner" });
    return teamOf(row!, "owner", 1);
  });
}
