import { and, count, desc, eq, isNull, sql } from "drizzle-orm";
import type { z } from "zod";
import { UUID_PATTERN } from "../../../shared/ids";
import type { listTasksInput, Progress, TaskList } from "../../../shared/schemas/tasks";
import { planStateOf, workStateOf } from "../../../shared/work-state";
import { tasks } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { visibleTo } from "../../plan/owned";
import { loadLeafProgress, progressOf } from "../../plan/progress";
import type { TaskRow } from "../../plan/rows";
import { dependsOnLists } from "../../plan/rows";
import { childrenCount, descendantsCount } from "./read";
import { toTask } from "./serialize";

export async function listTasks(
  deps: Deps,
  userId: string,
  input: z.output<typeof listTasksInput>,
): Promise<TaskList> {
  const scope =
    input.team === undefined
      ? visibleTo(userId)
      : input.team === "personal"
        ? and(eq(tasks.userId, userId), isNull(tasks.teamId))
        : UUID_PATTERN.test(input.team)
          ? and(visibleTo(userId), eq(tasks.teamId, input.team))
          : sql`false`;
  const where = input.top_level_only ? and(scope, isNull(tasks.parentId)) : scope;
  const rows = await deps.db
    .select({
      row: tasks,
      children: childrenCount,
      descendants: descendantsCount,
      total: sql<number>`count(*) over ()::int`,
    })
    .from(tasks)
    .where(where)
    .orderBy(desc(tasks.createdAt), desc(tasks.id))
    .limit(input.page_size)
    .offset((input.page - 1) * input.page_size);
  const total = rows[0]?.total ?? (await deps.db.select({ n: count() }).from(tasks).where(where))[0]!.n;
  const [dependsOn, progress] = await Promise.all([
    dependsOnLists(
      deps.db,
      rows.map((r) => r.row.id),
    ),
    loadLeafProgress(
      deps.db,
      userId,
      rows.map((r) => r.row),
    ),
  ]);
  return {
    tasks: rows.map((r) => ({
      ...toTask(r.row, {
        children: r.children,
        descendants: r.descendants,
        dependsOn: dependsOn.get(r.row.id) ?? [],
      }),
      ...projectStates(r.row, progress.get(r.row.id) ?? progressOf(0, 0)),
    })),
    total,
    page: input.page,
    page_size: input.page_size,
  };
}

/** A list item's progress, and for a project its plan's and its work's states apart (shared/work-state.ts). */
function projectStates(row: TaskRow, progress: Progress) {
  const root = row.parentId === null;
  return {
    progress,
    plan_state: root ? planStateOf(row.status) : null,
    work_state: root ? workStateOf(progress) : null,
  };
}
