import { and, asc, eq, gt, isNull, sql } from "drizzle-orm";
import { teamInvitations } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { invitationOf, managerOf } from "./teams";

export async function listInvitations(deps: Deps, actorId: string, teamId: string) {
  await managerOf(deps, actorId, teamId, "see invitations");
  const rows = await deps.db
    .select()
    .from(teamInvitations)
    .where(
      and(
        eq(teamInvitations.teamId, teamId),
        isNull(teamInvitations.acceptedAt),
        isNull(teamInvitations.revokedAt),
        gt(teamInvitations.expiresAt, sql`now()`),
      ),
    )
    .orderBy(asc(teamInvitations.createdAt));
  return { invitations: rows.map(invitationOf) };
}
