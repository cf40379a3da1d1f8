import { eq, sql } from "drizzle-orm";
import type { PgUpdateSetSource } from "drizzle-orm/pg-core";
import { resultRows, type Tx } from "../db/client";
import { tasks } from "../db/schema/index";

/**
 * Plan locks: this is the only module that takes them.
 *
 * The rule: **every write to a plan takes its root row's lock first**, in the transaction that writes.
 * That covers a split inserting children and their dependencies, a composer's pass, a person's edit,
 * move or new dependency, a revision recorded or restored, a re-plan accepted, a run stopped, and the
 * completion of a split (which checks whether the plan's last split is done). With one lock per plan
 * taken first, the plan's writers commit one at a time, in the order they asked, and no two of them can
 * each hold a row the other needs (no deadlock); a check made under the lock (is this split still
 * wanted? would this dependency close a cycle?) still holds when the transaction commits.
 *
 * The lock is `select … for no key update`, not `for update`. It excludes the other holders just the same,
 * but lets other transactions insert rows that refer to the locked row: their foreign-key checks take a
 * key-share lock, which `for no key update` does not block. With `for update`, two splits each citing
 * the other's node waited on each other, and PostgreSQL aborted one as a deadlock
 * (tests/integration/plan-locks.pg.test.ts). An `update` of the row takes the same lock.
 *
 * A node's own row is locked after its root's (lockNodeForSplit), so the order is always root first.
 */

/** Locks one task row (a plan's root, for the rule above) for the rest of the transaction. */
export async function lockTaskRow(tx: Tx, id: string): Promise<void> {
  await tx.execute(sql`select id from ${tasks} where id = ${id} for no key update`);
}

/** What a plan's lock reads of its root: its status, and who plans it ("agent" for a coding agent). */
export type PlanState = { status: string; planner: string | null };

/** Locks a plan's root row and reads its state as last committed (undefined when the plan is gone). */
export async function lockPlanStatus(tx: Tx, rootId: string): Promise<PlanState | undefined> {
  const [row] = resultRows<PlanState>(
    await tx.execute(sql`select status, planner from ${tasks} where id = ${rootId} for no key update`),
  );
  return row;
}

/**
 * Locks a plan's root row by updating it (an update takes the same lock), and reads its status: one
 * statement where a split's completion adds its token usage to the root.
 */
export async function lockPlanUpdating(
  tx: Tx,
  rootId: string,
  set: PgUpdateSetSource<typeof tasks>,
): Promise<PlanState | undefined> {
  const [row] = await tx
    .update(tasks)
    .set(set)
    .where(eq(tasks.id, rootId))
    .returning({ status: tasks.status, planner: tasks.planner });
  return row;
}

/**
 * Locks a node's row as lockTaskRow does and says whether it has children already (split by an earlier
 * run), in one statement. With `rootId` (a node below the root), the root's row is locked first, in the
 * same statement: the splits of one plan then commit one at a time, in the order they asked, instead of
 * all waiting at their end for the root row their completion updates (decision 026).
 *
 * The answer comes from the statement's snapshot: on PostgreSQL, a statement that waited for another
 * transaction's lock still sees the rows as they were when it began, so it can miss the children that
 * transaction wrote. The engine splits a node in one job at a time, so its answer holds; a writer that
 * may race another on the same node (coding agents) looks again in a statement of its own once the lock
 * is held (engine/split.ts, `recheck`).
 */
export async function lockNodeForSplit(tx: Tx, id: string, rootId?: string): Promise<boolean> {
  const rows = resultRows<{ id: string; split: boolean }>(
    await tx.execute(sql`select t.id, exists (select 1 from ${tasks} c where c.parent_id = t.id) as split
      from ${tasks} t where t.id in (${id}, ${rootId ?? id})
      order by t.id = ${id} for no key update of t`),
  );
  return Boolean(rows.find((r) => r.id === id)?.split);
}

/**
 * Locks the children of one parent (after the root's lock) and reads their places, for a task added
 * among them: two additions at the same place then get distinct positions.
 */
export async function lockChildren(tx: Tx, parentId: string): Promise<{ id: string; position: number }[]> {
  return tx
    .select({ id: tasks.id, position: tasks.position })
    .from(tasks)
    .where(eq(tasks.parentId, parentId))
    .orderBy(tasks.position, tasks.createdAt)
    .for("update");
}
