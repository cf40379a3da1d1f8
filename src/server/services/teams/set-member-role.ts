import { and, eq } from "drizzle-orm";
import type { z } from "zod";
import type { setRoleInput } from "../../../shared/schemas/teams";
import { teamMembers } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { listMembers } from "./list-members";
import { LAST_OWNER, lockedRoles, refuseUnlessManager } from "./teams";

export async function setMemberRole(
  deps: Deps,
  actorId: string,
  teamId: string,
  targetId: string,
  input: z.output<typeof setRoleInput>,
) {
  await deps.db.transaction(async (tx) => {
    const { actor, target, owners } = await lockedRoles(tx, teamId, actorId, targetId);
    refuseUnlessManager(actor, "change roles");
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
