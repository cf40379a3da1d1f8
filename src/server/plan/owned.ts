import { and, eq, or, sql } from "drizzle-orm";
import { UUID_PATTERN } from "../../shared/ids";
import type { TeamRole } from "../../shared/schemas/teams";
import { tasks } from "../db/schema/index";
import type { Deps } from "../deps";
import { AppError } from "../errors";
import { isWrite } from "./access";
import type { TaskRow } from "./rows";

export const TASK_NOT_FOUND = "Task not found";
/** The answer to a task the caller may not see, or that does not exist: the same, so ids cannot be probed. */
export const taskNotFound = () => new AppError("NOT_FOUND", TASK_NOT_FOUND);

export const VIEWER_REFUSAL =
  "You are a viewer in this plan's team: viewers read and comment, they do not change plans. Ask an admin for the member role.";

/**
 * A task the caller may see: theirs, or of a plan of a team they are in (issue 41); 404 whether it does
 * not exist or is someone else's. A change (a mutation: plan/access.ts) by a team's viewer is refused with
 * 403; the plan's creator keeps every right whatever their role.
 */
export async function getOwnedRow(
  deps: Deps,
  userId: string,
  id: string,
  /** "read" where a viewer may act all the same (a comment); otherwise a mutation is a write. */
  need?: "read" | "write",
): Promise<TaskRow> {
  if (!UUID_PATTERN.test(id)) throw taskNotFound();
  const [found] = await deps.db
    .select({
      row: tasks,
      role: sql<TeamRole | null>`(select m.role from team_members m
        where m.team_id = ${tasks.teamId} and m.user_id = ${userId})`,
    })
    .from(tasks)
    .where(
      and(
        eq(tasks.id, id),
        or(
          eq(tasks.userId, userId),
          sql`(${tasks.teamId} is not null and exists (select 1 from team_members m
            where m.team_id = ${tasks.teamId} and m.user_id = ${userId}))`,
        ),
      ),
    )
    .limit(1);
  if (!found) throw taskNotFound();
  const row = found.row;
  const write = need ? need === "write" : isWrite();
  if (row.userId !== userId && found.role === "viewer" && write)
    throw new AppError("FORBIDDEN", VIEWER_REFUSAL);
  return row;
}

/**
 * The rows a user may see (issue 41): their own, and those of their teams' plans. For lists and counts;
 * one plan's rows are read by its root once the root is checked.
 */
export function visibleTo(userId: string) {
  return or(
    eq(tasks.userId, userId),
    sql`(${tasks.teamId} is not null and ${tasks.teamId} in (select m.team_id from team_members m where m.user_id = ${userId}))`,
  )!;
}

/** The same for raw SQL, on a tasks row aliased `t`. */
export function visibleToSql(userId: string) {
  return sql`(t.user_id = ${userId} or (t.team_id is not null and t.team_id in (select m.team_id from team_members m where m.user_id = ${userId})))`;
}
