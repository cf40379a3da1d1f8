import { eq } from "drizzle-orm";
import type { ActivityKind } from "../../shared/schemas/activity";
import { taskTitle } from "../../shared/task-title";
import type { DbOrTx } from "../db/client";
import { planActivity, users } from "../db/schema/index";
import { type Actor, currentActor } from "./access";

/**
 * A plan's activity (issue 41): who did what, when, kept as long as the plan (services/tasks/activity.ts
 * reads it). Each change to a plan says what it did here, in the change's transaction where it has one:
 * every revision (plan/revisions.ts), and progress, claims, comments, reviews, exports and tracker changes
 * taken, where their services make them. Who did it comes from the operation's context (plan/access.ts):
 * a person, and the agent when a token called; nobody for what the product did by itself.
 */

export type ActivityInput = {
  rootId: string;
  taskId: string | null;
  kind: ActivityKind;
  /** What was done, without who: "marked “Set up CI” done". */
  summary: string;
};

/** A task as an activity entry quotes it: its title, at most 80 characters. */
export function quoted(description: string): string {
  return `“${taskTitle(description, 80)}”`;
}

/** A person as the actor of what the product does for them later (an export they started). */
export async function actorById(deps: { db: DbOrTx }, userId: string): Promise<Actor | null> {
  const [row] = await deps.db
    .select({ fullName: users.fullName, username: users.username })
    .from(users)
    .where(eq(users.id, userId));
  return row ? { userId, name: row.fullName.trim() || row.username, agent: null } : null;
}

/** Records entries, by the call's actor unless another is given (null: the product itself). */
export async function recordActivity(
  db: DbOrTx,
  entries: ActivityInput | ActivityInput[],
  actor: Actor | null = currentActor(),
): Promise<void> {
  const list = Array.isArray(entries) ? entries : [entries];
  if (list.length === 0) return;
  await db.insert(planActivity).values(
    list.map((e) => ({
      rootTaskId: e.rootId,
      taskId: e.taskId,
      kind: e.kind,
      summary: e.summary.slice(0, 500),
      actorId: actor?.userId ?? null,
      actorName: actor?.name ?? null,
      agent: actor?.agent ?? null,
    })),
  );
}
