import { eq, type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import { byline, CLAIM_MINUTES_DEFAULT, type ClaimRow, claimOf, claimSentence } from "../../../shared/claims";
import type { ClaimResult, claimInput, PlanClaims } from "../../../shared/schemas/claims";
import { type DbOrTx, resultRows } from "../../db/client";
import { taskClaims, tasks } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { type Actor, currentActor } from "../../plan/access";
import { quoted, recordActivity } from "../../plan/activity";
import { getOwnedRow } from "../../plan/owned";
import { hasChildren, type TaskRow } from "../../plan/rows";

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

/**
 * Ends the claims that ran out (of one plan, or of all), each said once in its plan's activity: a claim is
 * deleted by one statement, so of two processes sweeping at once only one reports it. Run before a claim
 * is taken on a plan, and every minute for all plans (server.ts).
 */
export async function expireClaims(deps: Deps, rootId?: string): Promise<number> {
  const gone = resultRows<{
    taskId: string;
    rootTaskId: string;
    userId: string;
    holder: string;
    agent: string | null;
    until: Date | string;
    description: string;
  }>(
    await deps.db.execute(sql`with gone as (
        delete from ${taskClaims} where until <= now() ${rootId ? sql`and root_task_id = ${rootId}` : sql``}
        returning task_id, root_task_id, user_id, holder, agent, until)
      select g.task_id::text as "taskId", g.root_task_id::text as "rootTaskId", g.user_id::text as "userId",
        g.holder, g.agent, g.until, left(t.description, 300) as description
      from gone g join ${tasks} t on t.id = g.task_id`),
  );
  for (const g of gone) {
    const until = new Date(g.until).toISOString().slice(11, 16);
    const who = byline(g.holder, g.agent);
    await announceClaim(deps, g.userId, { id: g.taskId, rootTaskId: g.rootTaskId }, "Claim ran out", {
      summary: `the claim of ${who} on ${quoted(g.description)} ran out at ${until} UTC: it is free again`,
      actor: null,
    });
  }
  return gone.length;
}

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
