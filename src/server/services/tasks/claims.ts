import { sql } from "drizzle-orm";
import type { z } from "zod";
import { CLAIM_MINUTES_DEFAULT, claimOf, claimSentence } from "../../../shared/claims";
import type { ClaimResult, claimInput } from "../../../shared/schemas/claims";
import { resultRows } from "../../db/client";
import { tasks } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { getOwnedRow } from "../../plan/owned";
import { hasChildren, loadTaskRow, type TaskRow } from "../../plan/rows";
import { publishTaskChange } from "./edit";
import { getTask } from "./tasks";

/**
 * Claims on leaves (issue 41): a person or a coding agent takes a ready leaf for a while, so no one else
 * is given it. A claim is one conditional update of the task's row, so of two claimers of the same leaf
 * exactly one wins, on PostgreSQL as on PGlite; the next-task claim (agent-view.ts) takes the first free
 * ready leaf with FOR UPDATE SKIP LOCKED. A claim runs out by itself (claimed_until), is renewed by
 * claiming again, and ends when the task is done or its holder lets it go.
 */

/** Who claims: a person in the app, or one of their coding agents (each has its own token). */
export type Claimer = { userId: string; name: string; token: { id: string; name: string } | null };

/** The claimer a call comes from: its user, and the token when a script or an agent made it. */
export function claimerOf(
  user: { id: string; fullName: string; username: string },
  apiToken: { id: string; name: string } | null,
): Claimer {
  return {
    userId: user.id,
    name: user.fullName.trim() || user.username,
    token: apiToken ? { id: apiToken.id, name: apiToken.name } : null,
  };
}

/** The columns a claim by `claimer` for `minutes` sets. */
export function claimSet(claimer: Claimer, minutes: number) {
  return sql`claimed_by = ${claimer.userId}, claimed_token = ${claimer.token?.id ?? null},
    claimed_holder = ${claimer.name}, claimed_agent = ${claimer.token?.name ?? null},
    claimed_until = now() + make_interval(mins => ${minutes})`;
}

/** Whether the row's claim (if any) is this claimer's: the same person, and the same agent or none. */
export function heldBy(
  row: { claimedBy: string | null; claimedToken: string | null },
  claimer: Claimer,
): boolean {
  return row.claimedBy === claimer.userId && row.claimedToken === (claimer.token?.id ?? null);
}

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
  const [won] = resultRows<{ id: string }>(
    await deps.db.execute(sql`update ${tasks} set ${claimSet(claimer, minutes)}
      where id = ${row.id} and status <> 'completed'
        and (claimed_until is null or claimed_until <= now()
          or (claimed_by = ${claimer.userId} and claimed_token is not distinct from ${claimer.token?.id ?? null}::uuid))
      returning id`),
  );
  const now = (await loadTaskRow(deps.db, row.id))!;
  if (!won) {
    const claim = claimOf(now);
    throw new AppError(
      "CONFLICT",
      claim
        ? `Someone else works on this task: ${claimSentence(claim)}. Take another one (claim_next_task), or ask them.`
        : "This task changed while it was being claimed: claim it again.",
    );
  }
  await publishTaskChange(deps, claimer.userId, await getTask(deps, claimer.userId, row.id), row.status);
  return { task_id: row.id, ...claimOf(now)! };
}

/**
 * Lets a claim go: the holder's own, or any on the caller's plan (a person frees what their agent left).
 * Nothing to let go is not an error: the answer is the task as it is.
 */
export async function releaseClaim(deps: Deps, claimer: Claimer, id: string) {
  const row = await getOwnedRow(deps, claimer.userId, id);
  await deps.db.execute(sql`update ${tasks} set claimed_by = null, claimed_token = null, claimed_holder = null,
      claimed_agent = null, claimed_until = null where id = ${row.id} and claimed_until is not null`);
  const task = await getTask(deps, claimer.userId, row.id);
  await publishTaskChange(deps, claimer.userId, task, row.status);
  return task;
}
