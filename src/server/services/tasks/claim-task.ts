import { sql } from "drizzle-orm";
import type { z } from "zod";
import { CLAIM_MINUTES_DEFAULT, type ClaimRow, claimOf, claimSentence } from "../../../shared/claims";
import type { ClaimResult, claimInput } from "../../../shared/schemas/claims";
import { resultRows } from "../../db/client";
import { tasks } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { quoted } from "../../plan/activity";
import { getOwnedRow } from "../../plan/owned";
import { hasChildren, type TaskRow } from "../../plan/rows";
import { activeClaims, announceClaim, type Claimer, claimValues, heldBy, insertClaim } from "./claims";
import { expireClaims } from "./expire-claims";

async function leafToClaim(deps: Deps, userId: string, id: string): Promise<TaskRow> {
  const row = await getOwnedRow(deps, userId, id);
  if (await hasChildren(deps.db, row.id))
    throw new AppError(
      "CONFLICT",
      "Only a task without subtasks can be claimed: claim one of its subtasks (next_task names the one to take).",
    );
  if (row.status === "completed")
    throw new AppError("CONFLICT", "This task is done: there is nothing to claim.");
  return row;
}

/**
 * Claims a leaf, or renews the caller's claim on it; refused with 409 naming the holder when someone else
 * holds it, and when the leaf waits for work not done yet.
 */
export async function claimTask(
  deps: Deps,
  claimer: Claimer,
  id: string,
  input: z.output<typeof claimInput>,
): Promise<ClaimResult> {
  const row = await leafToClaim(deps, claimer.userId, id);
  const rootId = row.rootTaskId ?? row.id;
  const waiting = resultRows<{ description: string }>(
    await deps.db.execute(sql`with recursive up(id) as (
        select ${row.id}::uuid union all select t.parent_id from ${tasks} t join up on t.id = up.id
        where t.parent_id is not null)
      select left(d.description, 200) as description from task_dependencies e
        join ${tasks} d on d.id = e.depends_on_id
      where e.root_task_id = ${rootId} and e.task_id in (select id from up) and d.status <> 'completed'
      limit 3`),
  );
  if (waiting.length > 0) {
    throw new AppError(
      "CONFLICT",
      `This task is not ready: it waits for “${waiting[0]!.description.split("\n")[0]}”${waiting.length > 1 ? " and more" : ""}. Claim a ready task (claim_next_task takes the next one).`,
    );
  }
  const minutes = input.minutes ?? CLAIM_MINUTES_DEFAULT;
  await expireClaims(deps, rootId);
  const [mine] = await activeClaims(deps.db, rootId, [row.id]);
  const renewing = mine !== undefined && heldBy(mine, claimer);
  const [won] = resultRows<ClaimRow>(
    await deps.db.execute(insertClaim(claimValues(claimer, row.id, rootId, minutes))),
  );
  if (!won) {
    const [held] = await activeClaims(deps.db, rootId, [row.id]);
    const claim = held ? claimOf(held) : null;
    throw new AppError(
      "CONFLICT",
      claim
        ? `Someone else works on this task: ${claimSentence(claim)}. Take another one (claim_next_task), or ask them.`
        : "This task changed while it was being claimed: claim it again.",
    );
  }
  const claim = claimOf(won)!;
  const until = `${claim.claimed_until.slice(11, 16)} UTC`;
  await announceClaim(deps, claimer.userId, row, `Claimed by ${claim.claimed_by}`, {
    summary: renewing
      ? `renewed their claim on ${quoted(row.description)} until ${until}`
      : `claimed ${quoted(row.description)} until ${until}`,
  });
  return { task_id: row.id, ...claim };
}
