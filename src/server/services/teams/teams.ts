import { createHash, randomBytes } from "node:crypto";
import { and, asc, count, eq, gt, isNull, sql } from "drizzle-orm";
import type { z } from "zod";
import { UUID_PATTERN } from "../../../shared/ids";
import {
  type createTeamInput,
  INVITATION_DAYS,
  type inviteInput,
  type setRoleInput,
  type Team,
  type TeamRole,
  type updateTeamInput,
} from "../../../shared/schemas/teams";
import { resultRows, type Tx } from "../../db/client";
import { teamInvitations, teamMembers, teams, users } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { escapeHtml } from "../../lib/escape-html";

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

const TEAM_NOT_FOUND = "Team not found";
const MANAGERS: readonly TeamRole[] = ["owner", "admin"];

const hashOf = (token: string) => createHash("sha256").update(token).digest("hex");

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

async function managerOf(deps: Deps, userId: string, teamId: string, what: string): Promise<TeamRole> {
  const role = await roleIn(deps, userId, teamId);
  if (!MANAGERS.includes(role))
    throw new AppError("FORBIDDEN", `Only the team's owners and admins can ${what}; you are a ${role}.`);
  return role;
}

function teamOf(
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

/** With the team's row locked: its members' roles, the actor's and the target's. */
async function lockedRoles(tx: Tx, teamId: string, actorId: string, targetId: string) {
  await tx.execute(sql`select 1 from ${teams} where id = ${teamId} for update`);
  const rows = await tx
    .select({ userId: teamMembers.userId, role: teamMembers.role })
    .from(teamMembers)
    .where(eq(teamMembers.teamId, teamId));
  const roleOf = new Map(rows.map((r) => [r.userId, r.role]));
  const actor = roleOf.get(actorId);
  if (!actor) throw new AppError("NOT_FOUND", TEAM_NOT_FOUND);
  const target = roleOf.get(targetId);
  if (!target) throw new AppError("NOT_FOUND", "That person is not a member of this team.");
  return { actor, target, owners: rows.filter((r) => r.role === "owner").length };
}

const LAST_OWNER = "A team needs an owner: make another member an owner first.";

export async function setMemberRole(
  deps: Deps,
  actorId: string,
  teamId: string,
  targetId: string,
  input: z.output<typeof setRoleInput>,
) {
  if (!UUID_PATTERN.test(teamId)) throw new AppError("NOT_FOUND", TEAM_NOT_FOUND);
  if (!UUID_PATTERN.test(targetId))
    throw new AppError("NOT_FOUND", "That person is not a member of this team.");
  await deps.db.transaction(async (tx) => {
    const { actor, target, owners } = await lockedRoles(tx, teamId, actorId, targetId);
    if (!MANAGERS.includes(actor))
      throw new AppError(
        "FORBIDDEN",
        `Only the team's owners and admins can change roles; you are a ${actor}.`,
      );
    if ((input.role === "owner" || target === "owner") && actor !== "owner" && input.role !== target)
      throw new AppError("FORBIDDEN", "Only an owner can make someone an owner or change an owner's role.");
    if (target === "owner" && input.role !== "owner" && owners <= 1)
      throw new AppError("CONFLICT", LAST_OWNER);
    await tx
      .update(teamMembers)
      .set({ role: input.role })
      .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, targetId)));
  });
  return listMembers(deps, actorId, teamId);
}

/** Removes a member (an owner or admin), or the caller leaves. The last owner can do neither. */
export async function removeMember(deps: Deps, actorId: string, teamId: string, targetId: string) {
  if (!UUID_PATTERN.test(teamId)) throw new AppError("NOT_FOUND", TEAM_NOT_FOUND);
  if (!UUID_PATTERN.test(targetId))
    throw new AppError("NOT_FOUND", "That person is not a member of this team.");
  await deps.db.transaction(async (tx) => {
    const { actor, target, owners } = await lockedRoles(tx, teamId, actorId, targetId);
    if (actorId !== targetId) {
      if (!MANAGERS.includes(actor))
        throw new AppError(
          "FORBIDDEN",
          `Only the team's owners and admins can remove members; you are a ${actor}.`,
        );
      if (target === "owner" && actor !== "owner")
        throw new AppError("FORBIDDEN", "Only an owner can remove an owner.");
    }
    if (target === "owner" && owners <= 1)
      throw new AppError(
        "CONFLICT",
        actorId === targetId
          ? "You are the team's last owner: make another member an owner before you leave."
          : LAST_OWNER,
      );
    await tx.delete(teamMembers).where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, targetId)));
  });
  // Their open channels of the team's plans close, in every process (services/tasks/events.ts).
  await deps.events.publish({
    type: "team.member_removed",
    userId: targetId,
    taskId: null,
    rootTaskId: null,
    teamId,
    message: actorId === targetId ? "You left a team" : "You were removed from a team",
    data: { team_id: teamId },
  });
}

/** The teams a person is in. */
export async function teamIdsOf(deps: Pick<Deps, "db">, userId: string): Promise<string[]> {
  const rows = await deps.db
    .select({ id: teamMembers.teamId })
    .from(teamMembers)
    .where(eq(teamMembers.userId, userId));
  return rows.map((r) => r.id);
}

function invitationOf(row: typeof teamInvitations.$inferSelect) {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
  };
}

/**
 * Invites an address to the team (owners and admins): a link valid INVITATION_DAYS days, e-mailed and
 * answered once. An open invitation to the same address is replaced. Whether the address has an account
 * is never said: the invitation is the same either way.
 */
export async function invite(
  deps: Deps,
  actorId: string,
  teamId: string,
  input: z.output<typeof inviteInput>,
) {
  await managerOf(deps, actorId, teamId, "invite people");
  const email = input.email.toLowerCase();
  const token = `inv_${randomBytes(32).toString("base64url")}`;
  const { row, team } = await deps.db.transaction(async (tx) => {
    const [team] = resultRows<{ name: string }>(
      await tx.execute(sql`select name from ${teams} where id = ${teamId} for update`),
    );
    const [sent] = await tx
      .select({ n: count() })
      .from(teamInvitations)
      .where(
        and(eq(teamInvitations.teamId, teamId), gt(teamInvitations.createdAt, sql`now() - interval '1 day'`)),
      );
    if ((sent?.n ?? 0) >= INVITATIONS_PER_TEAM_PER_DAY)
      throw new AppError(
        "TOO_MANY_REQUESTS",
        `A team can send at most ${INVITATIONS_PER_TEAM_PER_DAY} invitations a day: try again tomorrow.`,
      );
    const [members] = await tx.select({ n: count() }).from(teamMembers).where(eq(teamMembers.teamId, teamId));
    if ((members?.n ?? 0) >= MEMBERS_PER_TEAM)
      throw new AppError("CONFLICT", `A team has at most ${MEMBERS_PER_TEAM} members.`);
    const [already] = await tx
      .select({ userId: teamMembers.userId })
      .from(teamMembers)
      .innerJoin(users, eq(users.id, teamMembers.userId))
      .where(and(eq(teamMembers.teamId, teamId), sql`lower(${users.email}) = ${email}`));
    if (already) throw new AppError("CONFLICT", "That address belongs to a member of this team already.");
    await tx
      .update(teamInvitations)
      .set({ revokedAt: new Date() })
      .where(
        and(
          eq(teamInvitations.teamId, teamId),
          sql`lower(${teamInvitations.email}) = ${email}`,
          isNull(teamInvitations.acceptedAt),
          isNull(teamInvitations.revokedAt),
        ),
      );
    const [row] = await tx
      .insert(teamInvitations)
      .values({
        teamId,
        email,
        role: input.role,
        tokenHash: hashOf(token),
        invitedBy: actorId,
        expiresAt: sql`now() + make_interval(days => ${INVITATION_DAYS})`,
      })
      .returning();
    return { row: row!, team: team! };
  });
  const url = `${deps.config.publicOrigin}/invitations/${token}`;
  const emailed = await sendInvitation(deps, email, team.name, url);
  return { ...invitationOf(row), token, url, emailed };
}

async function sendInvitation(deps: Deps, to: string, teamName: string, url: string): Promise<boolean> {
  const subject = `You are invited to the team “${teamName.slice(0, 80)}” on Atomize`;
  const text = [
    `You are invited to plan with the team “${teamName}” on Atomize.`,
    "",
    `Accept: ${url}`,
    "",
    `The link works for ${INVITATION_DAYS} days, once, for the account of this address. If you did not expect it, you can ignore this e-mail.`,
  ].join("\n");
  const html = [
    `<p>You are invited to plan with the team “${escapeHtml(teamName)}” on Atomize.</p>`,
    `<p><a href="${escapeHtml(url)}">Accept the invitation</a></p>`,
    `<p>The link works for ${INVITATION_DAYS} days, once, for the account of this address. If you did not expect it, you can ignore this e-mail.</p>`,
  ].join("\n");
  try {
    await deps.mailer.send({ to, subject, text, html });
    return true;
  } catch (err) {
    deps.log.warn("could not send a team invitation", { err });
    return false;
  }
}

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

export async function revokeInvitation(deps: Deps, actorId: string, teamId: string, invitationId: string) {
  await managerOf(deps, actorId, teamId, "withdraw invitations");
  if (!UUID_PATTERN.test(invitationId)) throw new AppError("NOT_FOUND", "Invitation not found");
  const [row] = await deps.db
    .update(teamInvitations)
    .set({ revokedAt: new Date() })
    .where(
      and(
        eq(teamInvitations.id, invitationId),
        eq(teamInvitations.teamId, teamId),
        isNull(teamInvitations.acceptedAt),
        isNull(teamInvitations.revokedAt),
      ),
    )
    .returning();
  if (!row) throw new AppError("NOT_FOUND", "Invitation not found (or already used or withdrawn)");
  return listInvitations(deps, actorId, teamId);
}

/**
 * Accepts an invitation: the caller's verified address must be the invited one. Used, withdrawn, expired
 * or someone else's: refused with a sentence, nothing changed. Someone already in the team keeps their role.
 */
export async function acceptInvitation(deps: Deps, userId: string, token: string) {
  const [me] = await deps.db
    .select({ email: users.email, verified: users.emailVerifiedAt })
    .from(users)
    .where(eq(users.id, userId));
  const accepted = await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ inv: teamInvitations, teamName: teams.name })
      .from(teamInvitations)
      .innerJoin(teams, eq(teams.id, teamInvitations.teamId))
      .where(eq(teamInvitations.tokenHash, hashOf(token.slice(0, 200))))
      .for("update");
    if (!row) throw new AppError("NOT_FOUND", "This invitation link is not valid: ask for a new one.");
    const inv = row.inv;
    if (inv.revokedAt) throw new AppError("CONFLICT", "This invitation was withdrawn: ask for a new one.");
    if (inv.acceptedAt) throw new AppError("CONFLICT", "This invitation was used already.");
    if (inv.expiresAt.getTime() <= Date.now())
      throw new AppError("CONFLICT", "This invitation has expired: ask for a new one.");
    if (!me?.verified)
      throw new AppError(
        "FORBIDDEN",
        "Verify your e-mail address first (Settings → Account sends the link), then accept the invitation.",
      );
    if (me.email.toLowerCase() !== inv.email.toLowerCase())
      throw new AppError(
        "FORBIDDEN",
        "This invitation was sent to another address: sign in with the account of that address to accept it.",
      );
    await tx.insert(teamMembers).values({ teamId: inv.teamId, userId, role: inv.role }).onConflictDoNothing();
    await tx
      .update(teamInvitations)
      .set({ acceptedAt: new Date(), acceptedBy: userId })
      .where(eq(teamInvitations.id, inv.id));
    return { team_id: inv.teamId, team_name: row.teamName, role: inv.role };
  });
  // Their open dashboards carry the team's plans from now on (services/tasks/events.ts).
  await deps.events.publish({
    type: "team.member_added",
    userId,
    taskId: null,
    rootTaskId: null,
    teamId: accepted.team_id,
    message: `You joined ${accepted.team_name}`,
    data: { team_id: accepted.team_id },
  });
  return accepted;
}
