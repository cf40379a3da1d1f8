import { and, eq } from "drizzle-orm";
import { teamMembers } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { LAST_OWNER, lockedRoles, refuseUnlessManager } from "./teams";

/** Removes a member (an owner or admin), or the caller leaves. The last owner can do neither. */
export async function removeMember(deps: Deps, actorId: string, teamId: string, targetId: string) {
  await deps.db.transaction(async (tx) => {
    const { actor, target, owners } = await lockedRoles(tx, teamId, actorId, targetId);
    if (actorId !== targetId) {
      refuseUnlessManager(actor, "remove members");
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
