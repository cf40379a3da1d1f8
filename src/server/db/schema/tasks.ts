import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import type { ReplanChange, ReplanProposal, RevisionKind } from "../../../shared/schemas/replan";
import type { RepositoryMap, TaskFile } from "../../../shared/schemas/repository-map";
import { DEPENDENCY_SOURCES } from "../../../shared/schemas/schedule";
import { type StoredTaskOptions, TASK_STATUSES } from "../../../shared/schemas/tasks";
import { teams } from "./teams";
import { userRef, users } from "./users";

export const tasks = pgTable(
  "tasks",
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: userRef(),
    parentId: uuid().references((): AnyPgColumn => tasks.id, { onDelete: "cascade" }),
    /** Null on a root; every descendant points at its root so a whole tree loads with one indexed query. */
    rootTaskId: uuid().references((): AnyPgColumn => tasks.id, { onDelete: "cascade" }),
    depth: integer().notNull().default(0),
    /** Order among siblings. */
    position: real().notNull().default(0),
    description: text().notNull(),
    status: text({ enum: TASK_STATUSES }).notNull().default("pending"),
    complexityScore: real(),
    storyPoints: integer(),
    implementationDetails: text(),
    isAtomic: boolean().notNull().default(false),
    rejectionReason: text(),
    /** Why a decomposition failed, in words the user can act on. */
    failureReason: text(),
    /** A subtask whose split kept failing: kept as a leaf so the rest of the plan completes. */
    needsAttention: boolean().notNull().default(false),
    /** Why a flagged subtask could not be split, in words the user can act on. */
    attentionReason: text(),
    context: jsonb().$type<Record<string, unknown>>(),
    additionalContext: jsonb().$type<Record<string, unknown>>(),
    predictions: jsonb().$type<Record<string, unknown>>(),
    /** Creation options: max_depth, max_subtasks, complexity_threshold, use_context, requires_approval, tech_preferences. */
    options: jsonb().$type<StoredTaskOptions>(),
    /**
     * On a root: the reading a person checked before planning (issue 38; engine/reading/review.ts
     * `StoredReading`). The planners plan from it instead of reading the description again; null when
     * the project was planned without a check.
     */
    reading: jsonb().$type<Record<string, unknown>>(),
    planner: text(),
    model: text(),
    warnings: jsonb().$type<string[]>().notNull().default([]),
    /** On a root: the linked repository's bounded summary (context_fetch), given to every later stage. */
    repositorySummary: text(),
    /** The files a leaf most likely touches, ranked from its words against the repository map. */
    files: jsonb().$type<TaskFile[]>(),
    /** 2-5 testable acceptance criteria of this node (every leaf has them). */
    acceptanceCriteria: jsonb().$type<string[]>().notNull().default([]),
    /** Ids of the stated requirements (R1, R2, ... extracted from the description) this node covers. */
    requirementIds: jsonb().$type<string[]>().notNull().default([]),
    /** The planner's estimate in developer-hours (the likely value); a leaf is meant to be at most about two days (16 h). */
    estimatedHours: real(),
    /** The optimistic and pessimistic ends of the estimate's range (low <= likely <= high), in developer-hours. */
    estimateLowHours: real(),
    estimateHighHours: real(),
    /** Who estimated: "rule" (the offline planner's heuristic), "model", or "person" after an edit. */
    estimateSource: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp({ withTimezone: true }),
    /** A leaf's first move to in progress (issue 33): the start of its working time. */
    startedAt: timestamp({ withTimezone: true }),
    /** The hours the finished work took: entered, or the working time from start to finish (shared/actuals.ts). */
    actualHours: real(),
    /** "person" when entered (kept over any later working time), "working_time" when computed. */
    actualSource: text({ enum: ["person", "working_time"] }),
    /** When a person last changed the node's content or place: a re-plan leaves it alone until unlocked. */
    editedAt: timestamp({ withTimezone: true }),
    /** When an export last created it in JIRA, Trello or GitHub: a re-plan leaves it alone until unlocked. */
    exportedAt: timestamp({ withTimezone: true }),
    /**
     * The team the plan belongs to (issue 41), on every node of it: its members see and, by role, change
     * it. Set on a root; a node inserted into a plan takes its root's (migration 0026's trigger).
     */
    teamId: uuid().references((): AnyPgColumn => teams.id, { onDelete: "set null" }),
  },
  (t) => [
    index("tasks_team_top_level_idx").on(t.teamId, t.createdAt.desc()).where(sql`${t.parentId} is null`),
    index("tasks_user_top_level_idx").on(t.userId, t.createdAt.desc()).where(sql`${t.parentId} is null`),
    index("tasks_root_idx").on(t.rootTaskId),
    index("tasks_parent_idx").on(t.parentId, t.position),
  ],
);

/** A row's task (its root or a node): required, and deleted with the task. */
export const taskRef = () =>
  uuid()
    .notNull()
    .references(() => tasks.id, { onDelete: "cascade" });

/**
 * A claim on a leaf (issue 41): who works on it until when, so two people or agents are never given the
 * same task. The holder is a user, and the access token it came with (each coding agent has its own). A
 * claim past its time holds nothing and is replaced by the next claimer. One row per task: the key decides
 * between two claimers (services/tasks/claims.ts). Not part of the plan: a claim changes no plan version.
 */
export const taskClaims = pgTable(
  "task_claims",
  {
    taskId: taskRef().primaryKey(),
    rootTaskId: taskRef(),
    userId: userRef(),
    /** The access token of the agent that claimed it; null for a person in the app. */
    tokenId: uuid(),
    /** The holder's name when it claimed, and the agent's (its token's name) when an agent did. */
    holder: text().notNull(),
    agent: text(),
    claimedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    until: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index("task_claims_root_idx").on(t.rootTaskId, t.until)],
);

/**
 * "task_id waits for depends_on_id": both in the same tree, neither an ancestor of the other, and no
 * cycle once a parent's dependencies are applied to its descendants (plan/graph.ts).
 */
export const taskDependencies = pgTable(
  "task_dependencies",
  {
    taskId: taskRef(),
    dependsOnId: taskRef(),
    /** The tree both belong to, so a whole plan's dependencies load with one indexed query. */
    rootTaskId: taskRef(),
    /** Who added it: a planner's proposal or a person. */
    source: text({ enum: DEPENDENCY_SOURCES }).notNull().default("person"),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.taskId, t.dependsOnId] }),
    index("task_dependencies_root_idx").on(t.rootTaskId),
    index("task_dependencies_depends_on_idx").on(t.dependsOnId),
  ],
);

export const epics = pgTable(
  "epics",
  {
    id: uuid().primaryKey().defaultRandom(),
    rootTaskId: taskRef(),
    /** The id the planner gave the epic (stories refer to it). */
    key: text().notNull(),
    title: text().notNull(),
    description: text().notNull().default(""),
    priority: integer().notNull().default(3),
    position: integer().notNull().default(0),
  },
  (t) => [index("epics_root_idx").on(t.rootTaskId, t.position)],
);

export const userStories = pgTable(
  "user_stories",
  {
    id: uuid().primaryKey().defaultRandom(),
    rootTaskId: taskRef(),
    key: text().notNull(),
    epicKey: text(),
    actor: text().notNull(),
    action: text().notNull(),
    benefit: text().notNull().default(""),
    acceptanceCriteria: jsonb().$type<string[]>().notNull().default([]),
    storyPoints: integer(),
    priority: text().notNull().default("should_have"),
    position: integer().notNull().default(0),
  },
  (t) => [index("user_stories_root_idx").on(t.rootTaskId, t.position)],
);

/** Event-model metadata of a root task. */
export const eventModels = pgTable("event_models", {
  rootTaskId: taskRef().primaryKey(),
  markdown: text().notNull().default(""),
  events: jsonb().$type<unknown[]>().notNull().default([]),
  commands: jsonb().$type<unknown[]>().notNull().default([]),
  readModels: jsonb().$type<unknown[]>().notNull().default([]),
  userInteractions: jsonb().$type<unknown[]>().notNull().default([]),
  automations: jsonb().$type<unknown[]>().notNull().default([]),
  swimlanes: jsonb().$type<unknown[]>().notNull().default([]),
  chapters: jsonb().$type<unknown[]>().notNull().default([]),
  /** Set when a person edits the model: a decomposition that finishes later never overwrites the edit. */
  userEditedAt: timestamp({ withTimezone: true }),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/** A re-plan's proposed changes, kept until accepted or superseded (services/tasks/replan.ts). */
export const replanProposals = pgTable(
  "replan_proposals",
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: userRef(),
    taskId: taskRef(),
    rootTaskId: taskRef(),
    guidance: text(),
    planner: text().notNull(),
    /** The re-planned subtree's fingerprint when proposed: accepting after it changed is refused (409). */
    baseFingerprint: text().notNull(),
    status: text({ enum: ["open", "accepted", "stale"] })
      .$type<ReplanProposal["status"]>()
      .notNull()
      .default("open"),
    changes: jsonb().$type<ReplanChange[]>().notNull(),
    keptLocked: jsonb().$type<ReplanProposal["kept_locked"]>().notNull().default([]),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("replan_proposals_root_idx").on(t.rootTaskId, t.createdAt)],
);

/** One node of a revision's snapshot of the plan. */
export type SnapshotNode = {
  id: string;
  parent_id: string | null;
  position: number;
  depth: number;
  description: string;
  implementation_details: string | null;
  acceptance_criteria: string[];
  requirement_ids: string[];
  story_points: number | null;
  complexity_score: number | null;
  estimated_hours: number | null;
  estimate_low_hours: number | null;
  estimate_high_hours: number | null;
  estimate_source: string | null;
  is_atomic: boolean;
  status: string;
  completed_at: string | null;
  edited_at: string | null;
  exported_at: string | null;
  /**
   * The work recorded on it (issue 40: a restore brought a deleted task back without the hours entered
   * on it). Absent from snapshots kept before migration 0023.
   */
  started_at?: string | null;
  actual_hours?: number | null;
  actual_source?: "person" | "working_time" | null;
};
export type PlanSnapshot = {
  nodes: SnapshotNode[];
  edges: SnapshotEdge[];
};

/** One dependency of a snapshot or a change set. */
export type SnapshotEdge = { task_id: string; depends_on_id: string; source: "planner" | "person" };

/**
 * What one revision changed (plan/revisions.ts): per node that differs from the previous revision, its
 * snapshot fields before (null: it was added) and after (null: it was removed); per dependency, added or
 * removed.
 */
export type RevisionChanges = {
  nodes: { id: string; before: SnapshotNode | null; after: SnapshotNode | null }[];
  edges: (SnapshotEdge & { op: "added" | "removed" })[];
};

/** The plan's revisions: what each accepted re-plan, move, edit or restore changed (plan/revisions.ts). */
export const taskRevisions = pgTable(
  "task_revisions",
  {
    id: uuid().primaryKey().defaultRandom(),
    /** Orders revisions made in one transaction (the baseline and the first change share a timestamp). */
    seq: integer().generatedAlwaysAsIdentity(),
    rootTaskId: taskRef(),
    /** The task the change was made on (no foreign key: the task may be gone since). */
    taskId: uuid(),
    kind: text().$type<RevisionKind>().notNull(),
    summary: text().notNull(),
    /** The whole plan: only on revisions saved before issue 32 (a restore reads it as it is). */
    snapshot: jsonb().$type<PlanSnapshot>(),
    /** What this revision changed and how to undo it (empty on a baseline); null on the older snapshots. */
    changes: jsonb().$type<RevisionChanges>(),
    /** How many tasks the plan had at this revision (listed without reading the changes). */
    taskCount: integer().notNull().default(0),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("task_revisions_root_idx").on(t.rootTaskId, t.seq)],
);

/**
 * The plan's nodes as of its newest revision (their snapshot fields as jsonb): the next revision stores
 * only the rows that differ from these, and a restore undoes changes backwards from here.
 */
export const planStateNodes = pgTable(
  "plan_state_nodes",
  {
    rootTaskId: taskRef(),
    /** No foreign key: the task may have been deleted since the newest revision. */
    taskId: uuid().notNull(),
    node: jsonb().$type<SnapshotNode>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.rootTaskId, t.taskId] })],
);

/** The plan's dependencies as of its newest revision (see planStateNodes). */
export const planStateEdges = pgTable(
  "plan_state_edges",
  {
    rootTaskId: taskRef(),
    taskId: uuid().notNull(),
    dependsOnId: uuid().notNull(),
    source: text({ enum: DEPENDENCY_SOURCES }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.rootTaskId, t.taskId, t.dependsOnId, t.source] })],
);

/**
 * Notes on a task (issue 14): what a person or a coding agent learned while doing it, newest last. Not
 * part of the plan's revisions: a restore keeps the notes of every task it keeps.
 */
export const taskNotes = pgTable(
  "task_notes",
  {
    id: uuid().primaryKey().defaultRandom(),
    taskId: taskRef(),
    rootTaskId: taskRef(),
    body: text().notNull(),
    /** The personal access token's name when a script or agent wrote it; null from the app. */
    tokenName: text(),
    /** Who wrote it (issue 41: notes are a plan's comments); null for notes from before, or a deleted account. */
    authorId: uuid().references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    editedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index("task_notes_task_idx").on(t.taskId, t.createdAt)],
);

/**
 * The tasks of a plan that changed since its newest revision, kept by triggers on tasks (migration 0016;
 * only for plans with a kept state): the next revision compares just these with the kept state, so its
 * cost follows the change, not the plan. No foreign key: a deleted task or plan leaves its mark behind
 * until the next revision (or never, for a deleted plan: two uuids).
 */
export const planStateDirty = pgTable(
  "plan_state_dirty",
  {
    rootTaskId: uuid().notNull(),
    taskId: uuid().notNull(),
  },
  (t) => [primaryKey({ columns: [t.rootTaskId, t.taskId] })],
);

/**
 * The tasks of a plan whose dependencies (either way) changed since its newest revision, kept by triggers
 * on task_dependencies (migration 0019; only for plans with a kept state): the next revision compares
 * just their dependencies with the kept ones. No foreign key, as plan_state_dirty.
 */
export const planStateDirtyEdges = pgTable(
  "plan_state_dirty_edges",
  {
    rootTaskId: uuid().notNull(),
    taskId: uuid().notNull(),
  },
  (t) => [primaryKey({ columns: [t.rootTaskId, t.taskId] })],
);

/**
 * What a plan's version is made of (migration 0022): every transaction that writes a row the plan's tree
 * shows (tasks, dependencies, remote items, epics, stories, event model) leaves one row here, by
 * statement-level triggers, keyed by its transaction id so that writers never wait on one another. The
 * plan's version is its base (plan_versions) plus the count of these rows: it grows with every commit
 * that touched the plan, and only then, whatever order writers commit in. Read caches key on it
 * (services/tasks/tree-cache.ts). No foreign key, as plan_state_dirty: the root's own deletion clears them.
 */
export const planChanges = pgTable(
  "plan_changes",
  {
    rootTaskId: uuid().notNull(),
    tx: bigint({ mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.rootTaskId, t.tx] })],
);

/** The part of a plan's version folded out of plan_changes (see planChanges). */
export const planVersions = pgTable("plan_versions", {
  rootTaskId: uuid().primaryKey(),
  base: bigint({ mode: "number" }).notNull().default(0),
});

/**
 * Reviews of a plan that needs approval before it leaves Atomize (issue 41): who decided what, and the
 * plan's newest revision when they did. An approval goes stale when a later revision (an edit, a re-plan,
 * a restore) changes the plan.
 */
export const planReviews = pgTable(
  "plan_reviews",
  {
    id: uuid().primaryKey().defaultRandom(),
    rootTaskId: taskRef(),
    reviewerId: uuid().references(() => users.id, { onDelete: "set null" }),
    decision: text({ enum: ["approve", "request_changes"] }).notNull(),
    comment: text().notNull().default(""),
    /** The plan's newest revision when reviewed (null: none yet). */
    revisionSeq: integer(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("plan_reviews_root_idx").on(t.rootTaskId, t.createdAt)],
);

/**
 * What happened to a plan, by whom (issue 41): edits, status, claims (and claims that ran out), comments,
 * reviews, exports and tracker changes taken, by people and by agents (the token's name). Kept as long as
 * the plan; the realtime events (task_events) are a week's stream, this is the record.
 */
export const planActivity = pgTable(
  "plan_activity",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    rootTaskId: taskRef(),
    /** The node it was about: no foreign key, so a deletion's entry outlives the node. */
    taskId: uuid(),
    actorId: uuid().references(() => users.id, { onDelete: "set null" }),
    /** The actor's name then (null: the product itself, e.g. a claim that ran out), and the agent's token name. */
    actorName: text(),
    agent: text(),
    kind: text().notNull(),
    summary: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("plan_activity_root_idx").on(t.rootTaskId, t.id)],
);

/**
 * A project's repository map (issue 42; shared/schemas/repository-map.ts), when it plans a change to that
 * code: apart from the task rows, which every access check reads, since a map runs to megabytes.
 */
export const repositoryMaps = pgTable("repository_maps", {
  rootTaskId: taskRef().primaryKey(),
  map: jsonb().$type<RepositoryMap>().notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * Repository maps read from GitHub, by repository and tree (issue 42): a second plan of the same code
 * reads none of it again. Dropped after a week (server.ts housekeeping).
 */
export const repositoryMapCache = pgTable("repository_map_cache", {
  /** "owner/name@tree-sha". */
  key: text().primaryKey(),
  map: jsonb().$type<RepositoryMap>().notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
