import { eq } from "drizzle-orm";
import { teamInvitations, teamMembers, teams, users } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { hashSecret } from "../../lib/secret-tokens";

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
      .where(eq(teamInvitations.tokenHash, hashSecret(token.slice(0, 200))))
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
