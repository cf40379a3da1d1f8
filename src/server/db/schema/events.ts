import { sql } from "drizzle-orm";
import { bigserial, index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { userRef } from "./users";

/**
 * Realtime events, persisted so late joiners get an event history and subscribers can resume from the
 * last id they saw. Not tied to tasks by a foreign key: a task.deleted event outlives its task.
 */
export const taskEvents = pgTable(
  "task_events",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    userId: userRef(),
    rootTaskId: uuid(),
    /** The plan's team when it was published (set by a trigger from the plan), so teammates' channels carry it. */
    teamId: uuid(),
    taskId: uuid(),
    type: text().notNull(),
    data: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("task_events_root_idx").on(t.rootTaskId, t.id),
    index("task_events_user_idx").on(t.userId, t.id),
    index("task_events_team_idx").on(t.teamId, t.id).where(sql`${t.teamId} is not null`),
  ],
);
