import { sql } from "drizzle-orm";
import { authThrottle } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";

export type RateLimit = {
  /** Names the counter and its subject, e.g. `register:ip:203.0.113.9`. */
  key: string;
  max: number;
  windowMs: number;
};

/**
 * Counts one use of a fixed-window limit and refuses the use past `max` with 429 + Retry-After; returns
 * the use's number in its window (1 for the first).
 * One atomic upsert per call: concurrent requests (in any process) each get their own count, so a burst
 * of N parallel requests gets exactly `max` through, never more.
 */
export async function consumeRateLimit(
  deps: Pick<Deps, "db">,
  limit: RateLimit,
  message = "Too many requests. Please try again later.",
): Promise<number> {
  const windowStart = sql`now() - make_interval(secs => ${limit.windowMs / 1000})`;
  const [row] = await deps.db
    .insert(authThrottle)
    .values({ key: limit.key, failures: 1, windowStartedAt: sql`now()` })
    .onConflictDoUpdate({
      target: authThrottle.key,
      set: {
        failures: sql`case when ${authThrottle.windowStartedAt} <= ${windowStart} then 1 else ${authThrottle.failures} + 1 end`,
        windowStartedAt: sql`case when ${authThrottle.windowStartedAt} <= ${windowStart} then now() else ${authThrottle.windowStartedAt} end`,
      },
    })
    .returning({ count: authThrottle.failures, startedAt: authThrottle.windowStartedAt });
  if (!row || row.count <= limit.max) return row?.count ?? 1;
  const seconds = Math.max(1, Math.ceil((row.startedAt.getTime() + limit.windowMs - Date.now()) / 1000));
  throw new AppError("TOO_MANY_REQUESTS", message, { headers: { "Retry-After": String(seconds) } });
}

/** The per-address key of an anonymous action; callers without a known address share one bucket. */
export function perAddress(action: string, ip: string | null | undefined): string {
  return `${action}:ip:${ip ?? "unknown"}`;
}
