import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { tasks } from "./tasks";
import { users } from "./users";

/** Third-party secrets, encrypted at rest (AES-256-GCM); `publicData` holds only what may be shown. */
export const integrationCredentials = pgTable(
  "integration_credentials",
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    provider: text({ enum: ["trello", "jira", "github"] }).notNull(),
    secretCiphertext: text().notNull(),
    publicData: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("integration_credentials_user_provider_idx").on(t.userId, t.provider)],
);

export const exports = pgTable(
  "exports",
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    taskId: uuid().references(() => tasks.id, { onDelete: "set null" }),
    kind: text().notNull(),
    status: text().notNull().default("queued"),
    step: text(),
    progress: integer().notNull().default(0),
    message: text(),
    config: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    /** What has been created remotely so far, so a retry resumes instead of duplicating. */
    state: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    result: jsonb().$type<Record<string, unknown>>(),
    error: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("exports_user_idx").on(t.userId, t.createdAt.desc())],
);

/**
 * A language-model provider for planning (issue 10): the instance's (set by an admin, `userId` null) or one
 * user's own. The API key is sealed with the credentials vault and never sent back; environment variables
 * (OPENAI_BASE_URL / OPENAI_API_KEY / LLM_MODEL) take precedence over the instance row.
 */
export const modelProviders = pgTable(
  "model_providers",
  {
    id: uuid().primaryKey().defaultRandom(),
    /** Null for the instance-wide provider. */
    userId: uuid().references(() => users.id, { onDelete: "cascade" }),
    baseUrl: text().notNull(),
    model: text().notNull(),
    /** Sealed API key; null for endpoints that need none (a local Ollama). */
    secretCiphertext: text(),
    concurrency: integer().notNull().default(4),
    updatedBy: uuid().references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("model_providers_user_idx").on(t.userId).where(sql`${t.userId} is not null`),
    uniqueIndex("model_providers_instance_idx").on(sql`(true)`).where(sql`${t.userId} is null`),
  ],
);
