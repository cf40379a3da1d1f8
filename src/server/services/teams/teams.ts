import { and, eq, sql } from "drizzle-orm";
import { UUID_PATTERN } from "../../../shared/ids";
import type { Team, TeamRole } from "../../../shared/schemas/teams";
import type { Tx } from "../../db/client";
import { type teamInvitations, teamMembers, teams } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";

/**
 * Teams, members and invitations (issue 41; docs/decisions/036-teams.md). Every call checks the caller's
 * role in the team: someone outside it gets 404, as for anything of another user's; a member whose role
 * does not allow the change gets 403 with a sentence. Role changes and removals run with the team's row
 * locked, so two owners demoting each other at once cannot leave a team without one.
 */

/** Teams one person may create, members a team may have, and invitations it may send in a day. */
export const TEAMS_PER_USER = 20;

export const MEMBERS_PER_TEAM = 200;

export const INVITATIONS_PER_TEAM_PER_DAY = 50;

export const TEAM_NOT_FOUND = "Team not found";

export const MANAGERS: readonly TeamRole[] = ["owner", "admin"];

/** The caller's role in a team; 404 when they are not in it (or it does not exist). */
export async function roleIn(
  deps: Deps | { db: Deps["db"] },
  userId: string,
  teamId: string,
): Promise<TeamRole> {
  if (!UUID_PATTERN.test(teamId)) throw new AppError("NOT_FOUND", TEAM_NOT_FOUND);
  const [row] = await deps.db
    .select({ role: teamMembers.role })
    .from(teamMembers)
    .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)));
  if (!row) throw new AppError("NOT_FOUND", TEAM_NOT_FOUND);
  return row.role;
}

export async function managerOf(deps: Deps, userId: string, teamId: string, what: string): Promise<TeamRole> {
  return refuseUnlessManager(await roleIn(deps, userId, teamId), what);
}

/** 403 unless `role` manages the team; otherwise the role. */
export function refuseUnlessManager(role: TeamRole, what: string): TeamRole {
  if (!MANAGERS.includes(role))
    throw new AppError("FORBIDDEN", `Only the team's owners and admins can ${what}; you are a ${role}.`);
  return role;
}

export function teamOf(
  row: { id: string; name: string; requiresApproval: boolean; createdAt: Date },
  role: TeamRole,
  members: number,
): Team {
  return {
    id: row.id,
    name: row.name,
    role,
    members,
    requires_approval: row.requiresApproval,
    created_at: row.createdAt.toISOString(),
  };
}

/** A team's name and its default for new plans' approval (no access check: the caller did it). */
export async function teamSettings(
  db: Deps["db"],
  teamId: string,
): Promise<{ name: string; requiresApproval: boolean } | undefined> {
  const [row] = await db
    .select({ name: teams.name, requiresApproval: teams.requiresApproval })
    .from(teams)
    .where(eq(teams.id, teamId));
  return row;
}

/** With the team's row locked: its members' roles, the actor's and the target's (404 when either is not in it). */
export async function lockedRoles(tx: Tx, teamId: string, actorId: string, targetId: string) {
  if (!UUID_PATTERN.test(teamId)) throw new AppError("NOT_FOUND", TEAM_NOT_FOUND);
  const notMember = () => new AppError("NOT_FOUND", "That person is not a member of this team.");
  if (!UUID_PATTERN.test(targetId)) throw notMember();
  await tx.execute(sql`select 1 from ${teams} where id = ${teamId} for update`);
  const rows = await tx
    .select({ userId: teamMembers.userId, role: teamMembers.role })
    .from(teamMembers)
    .where(eq(teamMembers.teamId, teamId));
  const roleOf = new Map(rows.map((r) => [r.userId, r.role]));
  const actor = roleOf.get(actorId);
  if (!actor) throw new AppError("NOT_FOUND", TEAM_NOT_FOUND);
  const target = roleOf.get(targetId);
  if (!target) throw notMember();
  return { actor, target, owners: rows.filter((r) => r.role === "owner").length };
}

export const LAST_OWNER = "A team needs an owner: make another member an owner first.";

export function invitationOf(row: typeof teamInvitations.$inferSelect) {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
  };
}
