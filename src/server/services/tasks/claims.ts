import { type SQL, sql } from "drizzle-orm";
import type { ClaimRow } from "../../../shared/claims";
import { type DbOrTx, resultRows } from "../../db/client";
import { taskClaims } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { type Actor, currentActor } from "../../plan/access";
import { recordActivity } from "../../plan/activity";

/**
 * Claims on leaves (issue 41): a person or a coding agent takes a ready leaf for a while, so no one else
 * is given it. A claim is a row of task_claims, keyed by the task: of two claimers of one leaf exactly one
 * inserts it (the other's insert finds it and changes nothing), on PostgreSQL as on PGlite. The next-task
 * claim (agent-view.ts) locks the first free ready leaf with FOR UPDATE SKIP LOCKED, so concurrent callers
 * go to different leaves without waiting. A claim runs out by itself (`until`), is renewed by claiming
 * again, and ends when the task is done or is let go. Claims are not the plan: they change no version.
 */

/** Who claims: a person in the app, or one of their coding agents (each has its own token). */
export type Claimer = { userId: string; name: string; token: { id: string; name: string } | null };

/** The values of a claim by `claimer` on a task of plan `rootId`, for `minutes` from now. */
export function claimValues(claimer: Claimer, taskId: string, rootId: string, minutes: number) {
  return sql`values (${taskId}::uuid, ${rootId}::uuid, ${claimer.userId}::uuid, ${claimer.token?.id ?? null}::uuid,
    ${claimer.name}, ${claimer.token?.name ?? null}, now(), now() + make_interval(mins => ${minutes}))`;
}

/**
 * Inserts the claim unless someone else holds the task now: the key decides between two claimers at
 * once, and a claim run out, or the claimer's own, is replaced. The claim's row when it was taken.
 */
export function insertClaim(values: SQL) {
  return sql`insert into ${taskClaims} as k (task_id, root_task_id, user_id, token_id, holder, agent, claimed_at, until)
    ${values}
    on conflict (task_id) do update set user_id = excluded.user_id, token_id = excluded.token_id,
      holder = excluded.holder, agent = excluded.agent, claimed_at = excluded.claimed_at, until = excluded.until
    where k.until <= now() or (k.user_id = excluded.user_id and k.token_id is not distinct from excluded.token_id)
    returning k.task_id::text as "taskId", k.user_id::text as "userId", k.holder, k.agent, k.until`;
}

/** Whether a claim is this claimer's: the same person, and the same agent or none. */
export function heldBy(row: { userId: string; tokenId: string | null }, claimer: Claimer): boolean {
  return row.userId === claimer.userId && row.tokenId === (claimer.token?.id ?? null);
}

/** The claims held now on a plan's tasks (all of them, or these). */
export async function activeClaims(
  db: DbOrTx,
  rootId: string,
  ids?: readonly string[],
): Promise<(ClaimRow & { taskId: string; tokenId: string | null })[]> {
  return resultRows(
    await db.execute(sql`select task_id::text as "taskId", user_id::text as "userId", token_id::text as "tokenId",
        holder, agent, until from ${taskClaims}
      where root_task_id = ${rootId} and until > now()
        ${ids ? sql`and task_id = any(${`{${ids.join(",")}}`}::uuid[])` : sql``}`),
  );
}

/**
 * Tells every open view of the plan that a claim changed (the claims query refetches), and says it in the
 * plan's activity, by the caller unless `actor` says otherwise (null: the product, a claim that ran out).
 */
export async function announceClaim(
  deps: Deps,
  userId: string,
  task: { id: string; rootTaskId: string | null },
  message: string,
  activity: { summary: string; actor?: Actor | null },
) {
  const rootId = task.rootTaskId ?? task.id;
  await recordActivity(
    deps.db,
    { rootId, taskId: task.id, kind: "claim", summary: activity.summary },
    activity.actor === undefined ? currentActor() : activity.actor,
  );
  await deps.events.publish({ type: "task.updated", userId, taskId: task.id, rootTaskId: rootId, message });
}
