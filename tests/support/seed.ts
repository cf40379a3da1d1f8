import { sql } from "drizzle-orm";
import type { Database } from "../../src/server/db/client";
import { taskDependencies, tasks } from "../../src/server/db/schema/index";

/**
 * Inserts a complete tree (as a finished decomposition would leave it) below a new root: `fanout`
 * children per node down to `depth` levels. 7 and 4 give 2,801 nodes, the size of a large plan. Returns the root id.
 */
export async function seedTree(
  database: Database,
  userId: string,
  opts: {
    fanout?: number;
    depth?: number;
    description?: string;
    /** Gives leaves estimate ranges and chains siblings with dependencies (two in three wait for the one before). */
    plan?: boolean;
    /** Stops at this many nodes, the last level cut short (10 x 4 with 10,000 gives a 10,000-node plan). */
    maxNodes?: number;
  } = {},
): Promise<{ rootId: string; count: number; dependencies: number }> {
  const fanout = opts.fanout ?? 7;
  const depth = opts.depth ?? 4;
  const [root] = await database.db
    .insert(tasks)
    .values({ userId, description: opts.description ?? "Seeded project", status: "completed", depth: 0 })
    .returning({ id: tasks.id });
  let level = [root!.id];
  let count = 1;
  let dependencies = 0;
  for (let d = 1; d <= depth; d++) {
    const values = level.flatMap((parentId) =>
      Array.from({ length: fanout }, (_, i) => ({
        userId,
        parentId,
        rootTaskId: root!.id,
        depth: d,
        position: i + 1,
        description: `Level ${d} task ${i + 1}`,
        status: i % 3 === 0 ? ("completed" as const) : ("pending" as const),
        complexityScore: ((i * 3 + d) % 10) + 1,
        storyPoints: [1, 2, 3, 5, 8, 13][i % 6]!,
        isAtomic: d === depth,
        ...(opts.plan && d === depth
          ? {
              estimateLowHours: 1 + (i % 4),
              estimatedHours: 2 + (i % 4) * 2,
              estimateHighHours: 4 + (i % 4) * 4,
            }
          : {}),
      })),
    );
    if (opts.maxNodes !== undefined) values.splice(opts.maxNodes - count);
    const inserted: string[] = [];
    for (let i = 0; i < values.length; i += 500) {
      const rows = await database.db
        .insert(tasks)
        .values(values.slice(i, i + 500))
        .returning({ id: tasks.id });
      inserted.push(...rows.map((r) => r.id));
    }
    count += inserted.length;
    if (opts.plan) {
      const edges = inserted.flatMap((id, k) =>
        k % fanout !== 0 && k % 3 !== 0
          ? [{ taskId: id, dependsOnId: inserted[k - 1]!, rootTaskId: root!.id, source: "planner" as const }]
          : [],
      );
      dependencies += edges.length;
      for (let i = 0; i < edges.length; i += 500)
        await database.db.insert(taskDependencies).values(edges.slice(i, i + 500));
    }
    level = inserted;
  }
  await database.rows(sql`analyze tasks`);
  return { rootId: root!.id, count, dependencies };
}
