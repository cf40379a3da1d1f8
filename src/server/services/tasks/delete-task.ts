import { eq, sql } from "drizzle-orm";
import { resultRows } from "../../db/client";
import { tasks } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { stopPlan } from "../../engine/jobs";
import { getOwnedRow } from "../../plan/owned";
import { beginRevision, recordRevision, revisionTitle } from "../../plan/revisions";

/** Deletes a task and its whole subtree (and a root's epics, stories and event model) in one transaction. */
export async function deleteTask(deps: Deps, userId: string, id: string): Promise<{ deleted: number }> {
  const row = await getOwnedRow(deps, userId, id);
  const rootId = row.rootTaskId ?? row.id;
  // Deleting a plan while its last split commits can meet that split's job bookkeeping in PostgreSQL's
  // deadlock detector, which aborts one of the two and asks for it to be tried again: so it is.
  const result = await retryOnDeadlock(() =>
    deps.db.transaction(async (tx) => {
      // Deleting a project stops its decomposition in every process.
      if (!row.parentId) await stopPlan(deps.jobs, row.id, tx);
      else await beginRevision(tx, rootId);
      // Foreign keys cascade parent -> children, so one statement removes the subtree atomically.
      const [counted] = resultRows<{ n: number }>(
        await tx.execute(sql`with recursive sub(id) as (
          select id from ${tasks} where id = ${id}
          union all select t.id from ${tasks} t join sub on t.parent_id = sub.id)
        select count(*)::int as n from sub`),
      );
      await tx.delete(tasks).where(eq(tasks.id, id));
      const n = counted?.n ?? 0;
      if (row.parentId) {
        await recordRevision(tx, {
          rootId,
          taskId: id,
          kind: "remove",
          summary: `Deleted ${revisionTitle(row.description)}${n > 1 ? ` with ${n - 1} subtask${n === 2 ? "" : "s"}` : ""}`,
        });
      }
      return { deleted: counted?.n ?? 0 };
    }),
  );
  await deps.events.publish({
    type: "task.deleted",
    userId,
    taskId: id,
    rootTaskId: rootId,
    // The plan may be gone, and its team with it from the event's trigger: its members' dashboards hear of it.
    ...(row.teamId ? { teamId: row.teamId } : {}),
    data: { parent_id: row.parentId, deleted: result.deleted },
  });
  return result;
}

/** Runs a transaction again (up to three times) when PostgreSQL aborted it to break a deadlock. */
async function retryOnDeadlock<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      const code =
        (err as { code?: unknown; cause?: { code?: unknown } }).code ??
        (err as { cause?: { code?: unknown } }).cause?.code;
      if ((code !== "40P01" && code !== "40001") || attempt >= 3) throw err;
    }
  }
}
