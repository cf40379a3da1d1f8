import { sql } from "drizzle-orm";
import type { TestServer } from "./server";
import { waitUntil } from "./wait";

/**
 * Waits until no job (of `groupKey`, a root task's id, when given) is queued or running: a retry is
 * queued again, so past this point nothing more runs for it. Work is queued in the transaction of the
 * request that causes it, so once that request has answered, this is a positive sign that its effects
 * are all in, and what has not happened by now will not.
 */
export async function waitForJobsIdle(
  server: TestServer,
  groupKey?: string,
  timeoutMs = 10_000,
): Promise<void> {
  const busy = async () =>
    (
      await server.deps.database.rows<{ n: number }>(
        sql`select count(*)::int as n from jobs where status in ('queued', 'running')
            and (${groupKey ?? null}::text is null or group_key = ${groupKey ?? null})`,
      )
    )[0]!.n;
  let last = -1;
  await waitUntil(
    async () => {
      last = await busy();
      return last === 0;
    },
    {
      timeoutMs,
      message: () => `jobs${groupKey ? ` of ${groupKey}` : ""} idle; ${last} still queued or running`,
    },
  );
}
