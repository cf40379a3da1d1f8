import { and, count, isNull } from "drizzle-orm";
import type { z } from "zod";
import { statsGroupOf, type statsInput, type TaskStats } from "../../../shared/schemas/tasks";
import { planStateOf, projectStatsGroup, workStateOf } from "../../../shared/work-state";
import { tasks } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { visibleTo } from "../../plan/owned";
import { loadLeafProgress, progressOf } from "../../plan/progress";

export async function getTaskStats(
  deps: Deps,
  userId: string,
  input: z.output<typeof statsInput>,
): Promise<TaskStats> {
  const stats: TaskStats = { total: 0, completed: 0, in_progress: 0, pending: 0, rejected: 0, failed: 0 };
  if (input.top_level_only) {
    // Projects count by their work (issue 40): a root is "completed" once it is planned, not done.
    const roots = await deps.db
      .select({ id: tasks.id, parentId: tasks.parentId, status: tasks.status })
      .from(tasks)
      .where(and(visibleTo(userId), isNull(tasks.parentId)));
    const progress = await loadLeafProgress(deps.db, userId, roots);
    for (const r of roots) {
      stats.total += 1;
      stats[projectStatsGroup(planStateOf(r.status), workStateOf(progress.get(r.id) ?? progressOf(0, 0)))] +=
        1;
    }
    return stats;
  }
  const rows = await deps.db
    .select({ status: tasks.status, n: count() })
    .from(tasks)
    .where(visibleTo(userId))
    .groupBy(tasks.status);
  for (const r of rows) {
    stats.total += r.n;
    const group = statsGroupOf(r.status);
    if (group) stats[group] += r.n;
  }
  return stats;
}
