import { sql } from "drizzle-orm";
import type { Progress } from "../../shared/schemas/tasks";
import { type DbOrTx, resultRows } from "../db/client";
import { tasks } from "../db/schema/index";
import { visibleToSql } from "./owned";

/**
 * How far tasks' work has got: their leaves done of all their leaves (a task without subtasks is its own
 * leaf). A plan's root is "completed" as soon as it is planned, so the dashboard and the agent views
 * count leaves for the work instead.
 */

export function progressOf(done: number, total: number): Progress {
  return {
    leaves_done: done,
    leaves_total: total,
    percent: total === 0 ? 0 : Math.round((100 * done) / total),
  };
}

type Counts = { top: string; done: number; total: number };

/** The leaf progress of each of `rows` (the user's own tasks), by id; one query for roots, one for subtasks. */
export async function loadLeafProgress(
  db: DbOrTx,
  userId: string,
  rows: { id: string; parentId: string | null }[],
): Promise<Map<string, Progress>> {
  const roots = rows.filter((r) => r.parentId === null).map((r) => sql`${r.id}`);
  const subtasks = rows.filter((r) => r.parentId !== null).map((r) => sql`${r.id}`);
  const [ofRoots, ofSubtasks] = await Promise.all([
    // A plan's rows carry its root's id: the root index finds them without walking the tree.
    roots.length === 0
      ? []
      : resultRows<Counts>(
          await db.execute(sql`
            select coalesce(t.root_task_id, t.id) as top,
                   (count(*) filter (where t.status = 'completed'))::int as done,
                   count(*)::int as total
            from ${tasks} t
            where ${visibleToSql(userId)}
              and coalesce(t.root_task_id, t.id) in (${sql.join(roots, sql`, `)})
              and not exists (select 1 from ${tasks} c where c.parent_id = t.id)
            group by 1`),
        ),
    subtasks.length === 0
      ? []
      : resultRows<Counts>(
          await db.execute(sql`
            with recursive sub(top, id) as (
              select s.id, s.id from ${tasks} s
              where s.id in (${sql.join(subtasks, sql`, `)})
              union all
              select sub.top, c.id from ${tasks} c join sub on c.parent_id = sub.id
            )
            select sub.top,
                   (count(*) filter (where t.status = 'completed'))::int as done,
                   count(*)::int as total
            from sub join ${tasks} t on t.id = sub.id
            where not exists (select 1 from ${tasks} c where c.parent_id = t.id)
            group by 1`),
        ),
  ]);
  const progress = new Map<string, Progress>();
  for (const c of [...ofRoots, ...ofSubtasks]) progress.set(c.top, progressOf(c.done, c.total));
  for (const r of rows) if (!progress.has(r.id)) progress.set(r.id, progressOf(0, 0));
  return progress;
}
