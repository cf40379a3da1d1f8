import { randomBytes } from "node:crypto";
import { and, count, eq, gt, isNull, sql } from "drizzle-orm";
import type { z } from "zod";
import { INVITATION_DAYS, type inviteInput } from "../../../shared/schemas/teams";
import { resultRows } from "../../db/client";
import { teamInvitations, teamMembers, teams, users } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { escapeHtml } from "../../lib/escape-html";
import { hashSecret } from "../../lib/secret-tokens";
import { INVITATIONS_PER_TEAM_PER_DAY, invitationOf, MEMBERS_PER_TEAM, managerOf } from "./teams";

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
        tokenHash: hashSecret(token),
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
