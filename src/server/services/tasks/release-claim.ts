import { eq } from "drizzle-orm";
import { byline } from "../../../shared/claims";
import type { PlanClaims } from "../../../shared/schemas/claims";
import { taskClaims } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { quoted } from "../../plan/activity";
import { getOwnedRow } from "../../plan/owned";
import { announceClaim, type Claimer, heldBy } from "./claims";
import { listClaims } from "./list-claims";

/**
 * Lets a claim go: the holder's own, or any on the caller's plan (a person frees what their agent left).
 * Nothing to let go is not an error: the answer is the task as it is.
 */
export async function releaseClaim(deps: Deps, claimer: Claimer, id: string): Promise<PlanClaims> {
  const row = await getOwnedRow(deps, claimer.userId, id);
  const rootId = row.rootTaskId ?? row.id;
  const gone = await deps.db.delete(taskClaims).where(eq(taskClaims.taskId, row.id)).returning();
  const [was] = gone;
  if (was) {
    const theirs = heldBy(was, claimer) ? "" : `${byline(was.holder, was.agent)}'s claim on `;
    await announceClaim(deps, claimer.userId, row, "Claim let go", {
      summary: `let go of ${theirs}${quoted(row.description)}`,
    });
  }
  return listClaims(deps, claimer.userId, rootId);
}
