import { and, eq, isNull } from "drizzle-orm";
import { UUID_PATTERN } from "../../../shared/ids";
import { teamInvitations } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { listInvitations } from "./list-invitations";
import { managerOf } from "./teams";

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
