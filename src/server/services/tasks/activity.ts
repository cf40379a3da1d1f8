import { and, desc, eq, lt, sql } from "drizzle-orm";
import type { z } from "zod";
import {
  type ActivityKind,
  type ActivityPage,
  type activityQuery,
  activityText,
} from "../../../shared/schemas/activity";
import { planActivity } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { getOwnedRow } from "../../plan/owned";

/**
 * The activity of a plan, newest first, a page at a time: of the whole plan for its project, of a node and
 * what is under it for any other node.
 */
export async function listActivity(
  deps: Deps,
  userId: string,
  id: string,
  query: z.output<typeof activityQuery>,
): Promise<ActivityPage> {
  const row = await getOwnedRow(deps, userId, id, "read");
  const rootId = row.rootTaskId ?? row.id;
  const under =
    row.rootTaskId === null
      ? sql`true`
      : sql`${planActivity.taskId} in (with recursive sub(id) as (
            select ${row.id}::uuid union all select t.id from tasks t join sub on t.parent_id = sub.id)
          select id from sub)`;
  const rows = await deps.db
    .select()
    .from(planActivity)
    .where(
      and(
        eq(planActivity.rootTaskId, rootId),
        query.before ? lt(planActivity.id, query.before) : undefined,
        under,
      ),
    )
    .orderBy(desc(planActivity.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  return {
    entries: page.map((r) => ({
      id: r.id,
      at: r.createdAt.toISOString(),
      kind: r.kind as ActivityKind,
      task_id: r.taskId,
      actor: r.actorName === null ? null : { id: r.actorId, name: r.actorName },
      agent: r.agent,
      summary: r.summary,
      text: activityText(r),
    })),
    next_before: rows.length > query.limit ? page.at(-1)!.id : null,
  };
}
