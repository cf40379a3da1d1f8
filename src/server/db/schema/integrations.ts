import { sql } from "drizzle-orm";
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { EXPORT_KINDS } from "../../../shared/schemas/integrations";
import { taskRef, tasks } from "./tasks";
import { userRef, users } from "./users";

/** Third-party secrets, encrypted at rest (AES-256-GCM); `publicData` holds only what may be shown. */
export const integrationCredentials = pgTable(
  "integration_credentials",
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: userRef(),
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
    userId: userRef(),
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

/**
 * What an export made for each task (issue 13's two-way sync): the JIRA issue, Trello card or GitHub
 * issue, with its key and link, so the tree links to it, "Sync now" and webhooks bring its status back,
 * and an export of the same tree to the same place updates it instead of creating another.
 */
export const remoteItems = pgTable(
  "remote_items",
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: userRef(),
    /** Null once the task was deleted: the next export to the same place marks the item removed there. */
    taskId: uuid().references(() => tasks.id, { onDelete: "set null" }),
    rootTaskId: taskRef(),
    kind: text({ enum: EXPORT_KINDS }).notNull(),
    /** When an export marked it removed (its task was deleted): it is left alone from then on. */
    removedAt: timestamp({ withTimezone: true }),
    /** Where it lives: "<site origin>|<project key>" (JIRA), the board id (Trello), "owner/repo" (GitHub, lower case). */
    target: text().notNull(),
    /** The service's id for it: the issue key (JIRA), the card id (Trello), the issue number (GitHub). */
    remoteId: text().notNull(),
    /** What people read: "MKT-12", "#34", the card's short link. */
    remoteKey: text().notNull(),
    /** The service's id of its parent there, when the service keeps one (GitHub's sub-issue parent). */
    remoteParent: text(),
    url: text().notNull(),
    /** The status last seen there, in the service's words ("Done", "closed", the list's name). */
    remoteStatus: text(),
    syncedAt: timestamp({ withTimezone: true }),
    /**
     * The service's own id of the place it lives in, where it has one that outlives renames (a GitHub
     * repository's numeric id): webhooks match on it.
     */
    containerId: text(),
    /**
     * The item as it was there after the last export or accepted/rejected change, in the service's words
     * (title, text, story points, parent's remote id): a later difference there is a person's edit, brought
     * back for review (services/exports/tracker-changes.ts).
     */
    baseline: jsonb().$type<RemoteBaseline>(),
    /** When `baseline` was taken: a task edited in Atomize after it conflicts with an edit there. */
    baselineAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("remote_items_task_target_idx").on(t.taskId, t.kind, t.target),
    index("remote_items_lookup_idx").on(t.kind, t.target, t.remoteId),
    index("remote_items_root_idx").on(t.rootTaskId),
  ],
);

/** What an item said there when Atomize last wrote or reviewed it. */
export type RemoteBaseline = {
  title: string;
  text: string;
  story_points: number | null;
  /** The parent's remote id there; undefined when the service keeps no parent for it. */
  parent?: string | null;
  /** The task's description in Atomize when this was taken: what `text` says, before Atomize's additions. */
  description?: string;
};

/**
 * A change people made on JIRA, GitHub or Trello, brought back for review (services/exports/tracker-changes.ts):
 * one field of one item (or an item added or closed there), open until someone takes theirs or keeps ours.
 */
export const trackerChanges = pgTable(
  "tracker_changes",
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: userRef(),
    rootTaskId: taskRef(),
    /** The item it concerns; null for an item added there, which no export made. */
    remoteItemId: uuid().references(() => remoteItems.id, { onDelete: "cascade" }),
    kind: text({ enum: EXPORT_KINDS }).notNull(),
    target: text().notNull(),
    /** The item's id there (for an added item, the one to link when it is accepted). */
    remoteId: text().notNull(),
    remoteKey: text().notNull(),
    url: text().notNull(),
    field: text({
      enum: ["title", "description", "story_points", "parent", "status", "added", "closed"],
    }).notNull(),
    theirs: jsonb().$type<unknown>(),
    ours: jsonb().$type<unknown>(),
    /** Atomize's task changed since the item's baseline too: neither side is applied without a choice. */
    conflict: boolean().notNull().default(false),
    status: text({ enum: ["open", "accepted", "rejected", "superseded"] })
      .notNull()
      .default("open"),
    /** When it changed there, by the service's clock when it says. */
    changedAt: timestamp({ withTimezone: true }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    resolvedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index("tracker_changes_root_idx").on(t.rootTaskId, t.status),
    uniqueIndex("tracker_changes_open_idx")
      .on(t.rootTaskId, t.kind, t.target, t.remoteId, t.field)
      .where(sql`${t.status} = 'open'`),
  ],
);

/**
 * A GitHub pull request whose description closes an exported issue with a keyword ("Closes #12"), one row
 * per pull request and task it closes (services/exports/github/pull-requests.ts): what "Sync now" last saw
 * in the repository, replaced whole at each sync, for the Requirements view.
 */
export const linkedPullRequests = pgTable(
  "linked_pull_requests",
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: userRef(),
    rootTaskId: taskRef(),
    /** The task whose exported issue the pull request closes. */
    taskId: taskRef(),
    /** "owner/repo", lower case, as remote_items.target. */
    repository: text().notNull(),
    number: integer().notNull(),
    title: text().notNull(),
    url: text().notNull(),
    state: text({ enum: ["open", "closed", "merged"] }).notNull(),
    /** When the sync that found it ran. */
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /**
     * The pull request's own `updated_at` when this was recorded: a delivery older than it is stale and
     * changes nothing (issue 39), as issue deliveries are ordered by theirs. Null: recorded before it was kept.
     */
    remoteUpdatedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex("linked_pull_requests_plan_pr_task_idx").on(t.rootTaskId, t.repository, t.number, t.taskId),
  ],
);

/** A user's webhook endpoint for one service: /api/webhooks/{kind}/{id}, signed with the sealed secret. */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: userRef(),
    kind: text({ enum: EXPORT_KINDS }).notNull(),
    /** The signing secret, sealed with the credentials vault (shown to its owner to paste into the service). */
    secretCiphertext: text().notNull(),
    lastDeliveryAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("webhook_endpoints_user_kind_idx").on(t.userId, t.kind)],
);

/**
 * For each remote item, when (by the service's own clock: GitHub's `updated_at`, JIRA's `timestamp`,
 * Trello's `action.date`) the status a webhook last applied to it changed there; a delivery older than this
 * is stale. Webhook bookkeeping, kept apart from what the export records in remote_items.
 */
export const remoteItemChanges = pgTable("remote_item_changes", {
  remoteItemId: uuid()
    .primaryKey()
    .references(() => remoteItems.id, { onDelete: "cascade" }),
  changedAt: timestamp({ withTimezone: true }).notNull(),
});

/**
 * The deliveries an endpoint has taken, by the service's delivery id, kept for a window
 * (services/exports/webhooks.ts): a retried or replayed delivery is answered without being applied again.
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    webhookId: uuid()
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    /** GitHub's X-GitHub-Delivery, JIRA's X-Atlassian-Webhook-Identifier (with its site), Trello's action id. */
    deliveryId: text().notNull(),
    receivedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.webhookId, t.deliveryId] }),
    index("webhook_deliveries_received_idx").on(t.receivedAt),
  ],
);

/**
 * A third-party service's rate budget shared by every job and process of the instance (issue 43): the
 * times of the requests sent under one key (a token's hash and the limit's name) within its window, taken
 * one at a time by `takeBudget` (lib/rate-budget.ts) under the row's lock.
 */
export const rateBudgets = pgTable("rate_budgets", {
  key: text().primaryKey(),
  times: timestamp({ withTimezone: true }).array().notNull(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
