import { and, eq } from "drizzle-orm";
import type { z } from "zod";
import { UUID_PATTERN } from "../../../shared/ids";
import type { setRoleInput } from "../../../shared/schemas/teams";
import { teamMembers } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { listMembers } from "./list-members";
import { LAST_OWNER, lockedRoles, MANAGERS, TEAM_NOT_FOUND } from "./teams";

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
