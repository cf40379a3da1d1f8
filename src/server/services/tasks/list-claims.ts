import { claimOf } from "../../../shared/claims";
import type { PlanClaims } from "../../../shared/schemas/claims";
import type { Deps } from "../../deps";
import { getOwnedRow } from "../../plan/owned";
import { activeClaims } from "./claims";

/** The claims held now on the plan of a task of the caller's, for the views that show them. */
export async function listClaims(deps: Deps, userId: string, id: string): Promise<PlanClaims> {
  const row = await getOwnedRow(deps, userId, id);
  const claims = await activeClaims(deps.db, row.rootTaskId ?? row.id);
  return {
    claims: claims.flatMap((c) => {
      const claim = claimOf(c);
      return claim ? [{ task_id: c.taskId, ...claim }] : [];
    }),
  };
}
