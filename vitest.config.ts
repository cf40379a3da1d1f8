import { defineConfig } from "vitest/config";
import { postgresSuites } from "./tests/postgres-pass";

// With TEST_DATABASE_URL set, the integration project is the PostgreSQL pass: only the suites that touch
// a database (tests/postgres-pass.ts, checked by tests/unit/postgres-pass.test.ts), each test server on a
// copy of a database migrated once per run (tests/support/postgres-template.ts).
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: ["src/**/*.test.ts", "tests/unit/**/*.test.ts"],
          environment: "node",
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
          globalSetup: onPostgres ? ["tests/support/postgres-template.ts"] : [],
          environment: "node",
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // Each file starts its own server and database; two cores, so two at a time.
          maxWorkers: 2,
          setupFiles: ["tests/support/fail-on-console-error.ts"],
        },
      },
    ],
  },
});
