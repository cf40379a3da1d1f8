import { and, desc, isNull, sql } from "drizzle-orm";
import type { z } from "zod";
import type { ProjectList, projectsInput } from "../../../shared/schemas/agent";
import type { TaskStatus } from "../../../shared/schemas/tasks";
import { planStateOf, workStateOf } from "../../../shared/work-state";
import { tasks } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { visibleTo } from "../../plan/owned";
import { loadLeafProgress, progressOf } from "../../plan/progress";
import { titleOf } from "./agent-view";

/** Your projects (root tasks), newest first, with how many of their leaves are done. */
export async function listProjects(
  deps: Deps,
  userId: string,
  input: z.output<typeof projectsInput>,
): Promise<ProjectList> {
  const where = and(visibleTo(userId), isNull(tasks.parentId));
  const roots = await deps.db
    .select({
      id: tasks.id,
      description: tasks.description,
      status: tasks.status,
      createdAt: tasks.createdAt,
      total: sql<number>`count(*) over ()::int`,
    })
    .from(tasks)
    .where(where)
    .orderBy(desc(tasks.createdAt), desc(tasks.id))
    .limit(input.limit);
  const progress = await loadLeafProgress(
    deps.db,
    userId,
    roots.map((r) => ({ id: r.id, parentId: null })),
  );
  return {
    projects: roots.map((r) => {
      const done = progress.get(r.id) ?? progressOf(0, 0);
      return {
        id: r.id,
        title: titleOf(r.description),
        status: r.status as TaskStatus,
        plan_state: planStateOf(r.status),
        work_state: workStateOf(done),
        progress: done,
        created_at: r.createdAt.toISOString(),
      };
    }),
    total: roots[0]?.total ?? 0,
  };
}
