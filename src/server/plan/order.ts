import { asc, eq, or } from "drizzle-orm";
import type { TaskDependencies } from "../../shared/schemas/schedule";
import type { DbOrTx } from "../db/client";
import { taskDependencies } from "../db/schema/index";

/**
 * Forecast runs per schedule, by the plan's size: 1,000 for a small plan, fewer for a large one (107 for
 * 2,801 nodes, never under 20), so the work per request stays bounded (about 300,000 node-steps) and a
 * schedule well under 100 ms. A large plan's finish varies less (it adds up many independent leaves), so
 * fewer runs give as steady a P50/P90; the answer says how many ran.
 */
export function simulationsFor(nodes: number): number {
  return Math.max(20, Math.min(1000, Math.floor(300_000 / Math.max(1, nodes))));
}

/** What a task waits for and what waits for it. */
export async function dependenciesOf(db: DbOrTx, taskId: string): Promise<TaskDependencies> {
  const rows = await db
    .select({ taskId: taskDependencies.taskId, dependsOnId: taskDependencies.dependsOnId })
    .from(taskDependencies)
    .where(or(eq(taskDependencies.taskId, taskId), eq(taskDependencies.dependsOnId, taskId)))
    .orderBy(asc(taskDependencies.createdAt));
  return {
    task_id: taskId,
    depends_on: rows.filter((r) => r.taskId === taskId).map((r) => r.dependsOnId),
    blocks: rows.filter((r) => r.dependsOnId === taskId).map((r) => r.taskId),
  };
}

/** Leaves of one wave that likely change the same file (issue 42): each file once per wave. */
export function collisionsIn(
  waves: string[][],
  files: Map<string, string[]>,
): { wave: number; path: string; task_ids: string[] }[] {
  const out: { wave: number; path: string; task_ids: string[] }[] = [];
  waves.forEach((wave, w) => {
    const byPath = new Map<string, string[]>();
    for (const id of wave) for (const p of files.get(id) ?? []) byPath.set(p, [...(byPath.get(p) ?? []), id]);
    for (const [path, ids] of byPath) if (ids.length > 1) out.push({ wave: w, path, task_ids: ids });
  });
  return out;
}
