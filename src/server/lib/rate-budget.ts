import { createHash } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "drizzle-orm";
import { type DbOrTx, resultRows } from "../db/client";
import { rateBudgets } from "../db/schema/index";

/**
 * Rate budgets shared by every job and every process of the instance (issue 43): a service's limit on one
 * token (Trello's 100 requests per 10 s, its 100 per 900 s on /1/members, GitHub's content-creating
 * requests per hour) holds for all that token's exports and syncs together, not for each on its own.
 *
 * A budget is a sliding log: the times of the requests sent under its key within the window, one row a
 * key. Taking one is a single upsert under the row's lock (PostgreSQL's ON CONFLICT DO UPDATE; PGlite runs
 * one statement at a time), so two processes taking the last place at once cannot both have it. A request
 * is counted when it is taken, before it is sent; the window's margin keeps a server that counts by
 * arrival from seeing one too many.
 */

export type Budget = { key: string; limit: number; windowMs: number };

/** Past the window, so a server counting by arrival time never sees one request too many. */
const MARGIN_MS = 100;

/** A budget's key for a secret (a token): its name and a short hash, never the secret. */
export function budgetKey(name: string, secret: string): string {
  return `${name}:${createHash("sha256").update(secret).digest("hex").slice(0, 16)}`;
}

/**
 * Takes one place in the budget: 0 when taken, otherwise how many milliseconds until the oldest
 * request in the window leaves it (nothing is taken then).
 */
export async function takeBudget(db: DbOrTx, budget: Budget): Promise<number> {
  const window = `${budget.windowMs + MARGIN_MS} milliseconds`;
  const [row] = resultRows<{ taken: boolean; wait_ms: number | string | null }>(
    await db.execute(sql`with kept as (
        select coalesce(array_agg(t order by t), '{}') as times,
          count(*)::int as n, min(t) as oldest
        from ${rateBudgets} b, unnest(b.times) t
        where b.key = ${budget.key} and t > clock_timestamp() - ${window}::interval),
      taken as (
        insert into ${rateBudgets} as b (key, times, updated_at)
        values (${budget.key}, array[clock_timestamp()], clock_timestamp())
        on conflict (key) do update set
          times = array(select t from unnest(b.times) t where t > clock_timestamp() - ${window}::interval
            order by t) || clock_timestamp(),
          updated_at = clock_timestamp()
        where (select count(*) from unnest(b.times) t
          where t > clock_timestamp() - ${window}::interval) < ${budget.limit}
        returning 1)
      select exists (select 1 from taken) as taken,
        ceil(extract(epoch from ((select oldest from kept) + ${window}::interval - clock_timestamp())) * 1000)
          as wait_ms`),
  );
  if (row?.taken) return 0;
  return Math.max(1, Number(row?.wait_ms ?? budget.windowMs));
}

/** Waits until each budget has a place, and takes them (in order). `onWait` hears each pause. */
export async function waitForBudgets(
  db: DbOrTx,
  budgets: readonly Budget[],
  signal?: AbortSignal,
  onWait?: (ms: number) => Promise<void> | void,
): Promise<void> {
  for (const budget of budgets) {
    for (;;) {
      signal?.throwIfAborted();
      const waitMs = await takeBudget(db, budget);
      if (waitMs === 0) break;
      await onWait?.(waitMs);
      await sleep(waitMs, undefined, { signal });
    }
  }
}

/** Forgets budgets no request used for a day (a sweep). */
export async function purgeRateBudgets(db: DbOrTx): Promise<void> {
  await db.execute(sql`delete from ${rateBudgets} where updated_at < now() - interval '1 day'`);
}
