import { defineConfig } from "vitest/config";

/**
 * The integration suites that touch a database, and so run a second time on PostgreSQL
 * (TEST_DATABASE_URL set). The rest (the fakes' own suites, suites that spawn the
 * app on a PGlite folder of their own, pure HTTP or harness suites) behave the same on either pass and
 * run once, on the PGlite pass.
 *
 * Kept by hand on purpose; tests/unit/postgres-pass.test.ts reads every suite's source and fails when
 * one that starts a test server or opens a database is missing here (or one listed here no longer does).
 */
export const postgresSuites = [
  "tests/integration/actuals.test.ts",
  "tests/integration/tree-compact.test.ts",
  "tests/integration/agent-api.test.ts",
  "tests/integration/api-tokens.test.ts",
  "tests/integration/auth-google-oidc-provider.test.ts",
  "tests/integration/auth-google.test.ts",
  "tests/integration/auth-ip-limit.test.ts",
  "tests/integration/auth-limits.test.ts",
  "tests/integration/auth-refresh-grace.test.ts",
  "tests/integration/auth-rest.test.ts",
  "tests/integration/auth-throttle.test.ts",
  "tests/integration/auth-verify-email.test.ts",
  "tests/integration/bad-input.test.ts",
  "tests/integration/claims.test.ts",
  "tests/integration/teams.test.ts",
  "tests/integration/team-plans.test.ts",
  "tests/integration/comments.test.ts",
  "tests/integration/activity.test.ts",
  "tests/integration/repository-github.test.ts",
  "tests/integration/approval.test.ts",
  "tests/integration/blog-posts.test.ts",
  "tests/integration/blog-site.test.ts",
  "tests/integration/blog-subscriptions.test.ts",
  "tests/integration/cli.test.ts",
  "tests/integration/compression.test.ts",
  "tests/integration/decomposition-edits.test.ts",
  "tests/integration/decomposition-grounding.test.ts",
  "tests/integration/decomposition-llm.test.ts",
  "tests/integration/decomposition-long.test.ts",
  "tests/integration/decomposition-multiprocess.pg.test.ts",
  "tests/integration/decomposition-needs-attention.test.ts",
  "tests/integration/decomposition-providers.test.ts",
  "tests/integration/edge.test.ts",
  "tests/integration/engine-statements.test.ts",
  "tests/integration/eval-agent.test.ts",
  "tests/integration/export-runner.test.ts",
  "tests/integration/exports-github-site.test.ts",
  "tests/integration/exports-jira-site.test.ts",
  "tests/integration/exports-jira.test.ts",
  "tests/integration/exports-sync.test.ts",
  "tests/integration/exports-trello-github.test.ts",
  "tests/integration/exports-trello-site.test.ts",
  "tests/integration/github-trello-tracker-rules.test.ts",
  "tests/integration/hostile-input.test.ts",
  "tests/integration/jira-tracker-rules.test.ts",
  "tests/integration/job-payloads.test.ts",
  "tests/integration/mcp-agent-planning.test.ts",
  "tests/integration/mcp.test.ts",
  "tests/integration/model-providers.test.ts",
  "tests/integration/outbound-guard.test.ts",
  "tests/integration/plan-locks.pg.test.ts",
  "tests/integration/plan-order.test.ts",
  "tests/integration/plan-quality.test.ts",
  "tests/integration/plan-size.test.ts",
  "tests/integration/tree-cache.test.ts",
  "tests/integration/process.test.ts",
  "tests/integration/reading-review.test.ts",
  "tests/integration/realtime.test.ts",
  "tests/integration/replan.test.ts",
  "tests/integration/requirements.test.ts",
  "tests/integration/revisions-as-changes.test.ts",
  "tests/integration/server-rendering.test.ts",
  "tests/integration/session-sockets.test.ts",
  "tests/integration/settings.test.ts",
  "tests/integration/socket-liveness.test.ts",
  "tests/integration/tasks-rest.test.ts",
  "tests/integration/tasks-trpc.test.ts",
  "tests/integration/token-sockets.pg.test.ts",
  "tests/integration/team-live.pg.test.ts",
  "tests/integration/token-sockets.test.ts",
  "tests/integration/tracker-changes.test.ts",
  "tests/integration/trpc.test.ts",
  "tests/integration/usage-limits.test.ts",
  "tests/integration/webhook-replay.test.ts",
  "tests/integration/rate-budgets.test.ts",
  "tests/integration/mcp-eras.test.ts",
];

// With TEST_DATABASE_URL set, the integration project is the PostgreSQL pass: only the suites above.
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: ["src/**/*.test.ts", "tests/unit/**/*.test.ts"],
          environment: "node",
          // One module graph per worker (the planner, schemas and the eval corpus are imported once).
          isolate: false,
        },
      },
      {
        test: {
          name: "integration",
          // Suites that need several processes on one PostgreSQL (*.pg.test.ts) join only the PostgreSQL pass.
          include: onPostgres
            ? postgresSuites
            : ["tests/integration/**/*.test.ts", "tests/fakes/**/*.test.ts"],
          exclude: onPostgres ? [] : ["tests/integration/**/*.pg.test.ts"],
          // The schema is migrated once per run; each test server starts from a copy of it. The server is
          // bundled once per run for the suites that start it as a process.
          globalSetup: ["tests/support/database-template.ts", "tests/support/app-bundle.ts"],
          environment: "node",
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // Two cores. The PGlite pass is bound by CPU (PGlite runs in the worker), so two files at a time;
          // the PostgreSQL pass waits on the database often enough that a third one gains about 25%.
          maxWorkers: onPostgres ? 3 : 2,
          // One module graph per worker: each file would otherwise import the whole app again.
          isolate: false,
          setupFiles: ["tests/support/fail-on-console-error.ts"],
        },
      },
    ],
  },
});
