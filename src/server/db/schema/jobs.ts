import { sql } from "drizzle-orm";
import { bigserial, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

/** Durable work queue: claimed with SELECT ... FOR UPDATE SKIP LOCKED and a lease (lockedUntil). */
export const jobs = pgTable(
  "jobs",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    kind: text().notNull(),
    payload: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    status: text({ enum: ["queued", "running", "done", "failed", "cancelled"] })
      .notNull()
      .default("queued"),
    attempts: integer().notNull().default(0),
    maxAttempts: integer().notNull().default(5),
    runAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lockedBy: text(),
    lockedUntil: timestamp({ withTimezone: true }),
    lastError: text(),
    dedupeKey: text(),
    /** Jobs that belong together (one decomposition: the root task id), so the last one can finish the group. */
    groupKey: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("jobs_ready_idx").on(t.status, t.runAt),
    index("jobs_group_idx").on(t.groupKey, t.status),
    uniqueIndex("jobs_dedupe_idx").on(t.dedupeKey).where(sql`${t.status} in ('queued', 'running')`),
  ],
);
