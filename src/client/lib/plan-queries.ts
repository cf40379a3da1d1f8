/**
 * Which of the `tasks` queries a change makes stale, in one place (issue 40: the Plan tab's accuracy chart
 * and burn-up kept "No finished tasks" after a task was marked done, because the hand-kept lists missed
 * `actuals` and `scopeChanges`). Every `tasks` query is in exactly one family here; a unit test
 * (tests/unit/plan-queries.test.ts) fails when a new query is in none.
 */

/** What shows a plan: any change to a task, its order, its hours or its links makes these stale. */
export const PLAN_QUERIES = [
  "get",
  "tree",
  "treeCompact",
  "reading",
  "dependencies",
  "schedule",
  "actuals",
  "scopeChanges",
  "getReplan",
  "revisions",
  "trackerChanges",
  "notes",
  "requirements",
  "claims",
  "reviews",
  "activity",
] as const;

/** The `agent` router's queries the web app shows, which a change to a plan makes stale too. */
export const AGENT_PLAN_QUERIES = ["planningStatus"] as const;

/** What shows the user's projects: the dashboard's list and counts. */
export const LIST_QUERIES = ["list", "stats"] as const;

/** The monthly allowance: it changes when a project is created, not when a plan does. */
export const USAGE_QUERIES = ["usage"] as const;

export type TasksQuery =
  | (typeof PLAN_QUERIES)[number]
  | (typeof LIST_QUERIES)[number]
  | (typeof USAGE_QUERIES)[number];
