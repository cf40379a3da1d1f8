import { sql } from "drizzle-orm";
import type { z } from "zod";
import { CLAIM_MINUTES_DEFAULT, type ClaimRow, claimOf } from "../../../shared/claims";
import type { ClaimedNext, claimInput } from "../../../shared/schemas/claims";
import { resultRows } from "../../db/client";
import { taskClaims, tasks } from "../../db/schema/index";
import type { Deps } from "../../deps";
import {
  type ClaimsRead,
  heldByOthers,
  leafProgress,
  memo,
  planAt,
  planningState,
  refOf,
  subtreeIds,
  taskWithTitles,
} from "./agent-view";
import { activeClaims, announceClaim, type Claimer, insertClaim } from "./claims";
import { expireClaims } from "./expire-claims";
import { ownedPlanVersion } from "./tree-reads";

/** A list of task ids as one PostgreSQL array parameter (ids are checked UUIDs). */
const uuidArray = (ids: readonly string[]) => sql`${`{${ids.join(",")}}`}::uuid[]`;

/** Ready leaves tried per claim statement, in order (claim_next_task). */
const CLAIM_WINDOW = 64;

/**
 * Whether leaf `t` likely changes a file a leaf claimed now does (issue 42): both name it with high or
 * medium confidence. Such a leaf is passed over, so two agents do not work in one file at once; two
 * callers at the same instant may still pick two such leaves (neither sees the other's claim yet).
 */
function collidesWithClaimed(rootId: string) {
  return sql`(t.files is not null and exists (
    select 1 from ${taskClaims} k2 join ${tasks} t2 on t2.id = k2.task_id
      cross join lateral jsonb_array_elements(t2.files) b
      cross join lateral jsonb_array_elements(t.files) a
    where k2.root_task_id = ${rootId} and k2.until > now() and t2.files is not null
      and a->>'path' = b->>'path' and a->>'confidence' <> 'low' and b->>'confidence' <> 'low'))`;
}

/**
 * Claims the next ready leaf nobody started or holds, in the order next_task gives (critical path first),
 * for the caller (issue 41). Atomic: the leaf is taken with FOR UPDATE SKIP LOCKED in one statement, so
 * concurrent callers each get a different leaf, and one a claimer committed meanwhile is read again and
 * passed over. None free: `task` is null and the message says why.
 */
export async function claimNextTask(
  deps: Deps,
  claimer: Claimer,
  id: string,
  input: z.output<typeof claimInput>,
): Promise<ClaimedNext> {
  const { root: rootId, version } = await ownedPlanVersion(deps, claimer.userId, id);
  const plan = await planAt(deps, rootId, version);
  const inside = subtreeIds(plan, id);
  const ready = plan.ready.filter((r) => inside.has(r));
  const candidates = ready.filter((r) => plan.byId.get(r)?.status === "pending");
  const minutes = input.minutes ?? CLAIM_MINUTES_DEFAULT;
  await expireClaims(deps, rootId);
  let claimed: (ClaimRow & { taskId: string }) | undefined;
  // One statement: the first free ready leaf, locked with SKIP LOCKED (a leaf another call holds now is
  // passed over), and its claim. A leaf another claimer committed to after this statement's snapshot is
  // locked all the same (its task row did not change): the claim's key refuses it, and the next is tried.
  // Candidates go in windows of CLAIM_WINDOW, in order: the statement's parameters stay small (sending
  // every ready leaf of a big plan with each call was most of a call's cost), and a window whose leaves are
  // all taken moves on to the next.
  // The statement also reads the plan's claims held now (as they were when it began: without the one it
  // takes, which is the caller's), for the answer's held_by_others, saving a read under contention.
  const lost: string[] = [];
  let claimsNow: ClaimsRead | undefined;
  let from = 0;
  for (let attempt = 0; from < candidates.length && !claimed && attempt < 50; attempt++) {
    const window = candidates.slice(from, from + CLAIM_WINDOW);
    const list = uuidArray(window);
    const [row] = resultRows<
      { picked: string | null; held: ClaimsRead } & Partial<ClaimRow & { taskId: string }>
    >(
      await deps.db.execute(sql`with pick as (
          select t.id from ${tasks} t
          where t.id = any(${list}) and t.status = 'pending'
            and not exists (select 1 from ${taskClaims} k where k.task_id = t.id and k.until > now())
            and not ${collidesWithClaimed(rootId)}
            ${lost.length ? sql`and t.id <> all(${uuidArray(lost)})` : sql``}
          order by array_position(${list}, t.id) limit 1
          for update of t skip locked),
        won as (${insertClaim(sql`select pick.id, ${rootId}::uuid, ${claimer.userId}::uuid,
          ${claimer.token?.id ?? null}::uuid, ${claimer.name}, ${claimer.token?.name ?? null}, now(),
          now() + make_interval(mins => ${minutes}) from pick`)})
        select pick.id::text as "picked", won.*, (select coalesce(json_agg(json_build_object(
            'taskId', c.task_id, 'userId', c.user_id, 'tokenId', c.token_id, 'holder', c.holder,
            'agent', c.agent, 'until', c.until)), '[]') from ${taskClaims} c
          where c.root_task_id = ${rootId} and c.until > now()) as held
        from (select 1) one left join pick on true left join won on true`),
    );
    claimsNow = row?.held;
    if (!row?.picked) from += CLAIM_WINDOW;
    else if (row.taskId) claimed = row as ClaimRow & { taskId: string };
    else lost.push(row.picked);
  }
  const held = heldByOthers(claimsNow ?? (await activeClaims(deps.db, rootId)), ready, claimer);
  const progress = memo(plan, `progress:${id}`, () => leafProgress(plan, id));
  const root = plan.byId.get(rootId)!;
  const planning = planningState(root, plan.children.has(rootId));
  // Free leaves passed over only because they share files with claimed ones (issue 42).
  const colliding =
    !claimed && candidates.length > 0
      ? Number(
          resultRows<{ n: number }>(
            await deps.db.execute(sql`select count(*)::int as n from ${tasks} t
              where t.id = any(${uuidArray(candidates.slice(0, 500))}) and t.status = 'pending'
                and not exists (select 1 from ${taskClaims} k where k.task_id = t.id and k.until > now())`),
          )[0]?.n ?? 0,
        )
      : 0;
  let message: string;
  if (claimed) {
    message = `Claimed for you until ${claimOf(claimed)!.claimed_until.slice(11, 16)} UTC: set it in_progress, do it, then completed (which ends the claim).`;
  } else if (colliding > 0) {
    message = `The ${colliding} ready task${colliding === 1 ? "" : "s"} left would change files that claimed tasks change: ask again when one is done.`;
  } else if (held.size > 0) {
    message = `Every ready task is taken: ${held.size} held by others. Ask again when one is done.`;
  } else if (ready.length > 0) {
    message = "Every ready task is already in progress: nothing is free to claim.";
  } else if (planning) {
    message = `${planning}; ask again in a moment.`;
  } else if (progress.leaves_done === progress.leaves_total) {
    message = "Everything in this plan is done.";
  } else {
    message = "Nothing is ready: the remaining tasks wait for work not done yet.";
  }
  const heldIds = [...held.keys()].slice(0, 10);
  const task = await taskWithTitles(deps, plan, claimed?.taskId, heldIds);
  if (claimed) {
    const until = `${claimOf(claimed)!.claimed_until.slice(11, 16)} UTC`;
    await announceClaim(
      deps,
      claimer.userId,
      { id: claimed.taskId, rootTaskId: rootId },
      `Claimed by ${claimOf(claimed)!.claimed_by}`,
      { summary: `took “${task?.title ?? "a task"}” as the next task, until ${until}` },
    );
  }
  return {
    project_id: id,
    task,
    claim: claimed ? claimOf(claimed) : null,
    message,
    held_by_others: heldIds.map((r) => ({
      ...refOf(plan.byId.get(r)!),
      claimed_by: held.get(r)!.claimed_by,
      claimed_until: held.get(r)!.claimed_until,
    })),
    progress,
  };
}
