import { sql } from "drizzle-orm";
import { byline } from "../../../shared/claims";
import { resultRows } from "../../db/client";
import { taskClaims, tasks } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { quoted } from "../../plan/activity";
import { announceClaim } from "./claims";

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
