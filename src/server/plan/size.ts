import { eq, or, sql } from "drizzle-orm";
import { tasks } from "../db/schema/index";
import type { Deps } from "../deps";
import { AppError } from "../errors";

/**
 * How big one plan may grow (issue 39): PLAN_MAX_NODES tasks, the project included. Every path that adds
 * tasks checks it inside its own transaction before writing: a split (the engine's or a coding agent's),
 * a task added by hand, an accepted re-plan and a restored revision. Past it the change is refused with
 * 422 naming the limit, and nothing is written.
 */

type Reader = Pick<Deps["db"], "select">;

/** The plan's tasks now, the project included. */
export async function planSize(db: Reader, rootId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(tasks)
    .where(or(eq(tasks.rootTaskId, rootId), eq(tasks.id, rootId)));
  return row?.n ?? 0;
}

/** The message a refused change carries. */
export const planFullMessage = (max: number, size: number, adding: number) =>
  `A plan holds at most ${max.toLocaleString("en")} tasks (PLAN_MAX_NODES); it has ${size.toLocaleString("en")}, and this would add ${adding.toLocaleString("en")}.`;

/** Refuses (422) adding `adding` tasks to the plan when it would pass `max`. */
export async function assertPlanRoom(db: Reader, rootId: string, adding: number, max: number): Promise<void> {
  if (adding <= 0) return;
  const size = await planSize(db, rootId);
  if (size + adding > max) throw new AppError("UNPROCESSABLE_CONTENT", planFullMessage(max, size, adding));
}
