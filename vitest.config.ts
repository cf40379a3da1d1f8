import { defineConfig } from "vitest/config";

/**
 * Which suites run on which database: a rule on the suite's own name, here and nowhere else.
 * - `*.test.ts` runs once, on PGlite (the embedded default). PGlite is PostgreSQL itself, compiled to
 *   WebAssembly: the same parser, planner and executor, so a suite about sign-in, exports or limits
 *   asserts the same thing on either.
 * - `*.db.test.ts` runs on PGlite and again on PostgreSQL (TEST_DATABASE_URL set). Name a suite so when
 *   what it asserts depends on what differs between the two: several connections at once (claims,
 *   locks, counters and leases raced by concurrent requests, the job queue), signals between connections
 *   (LISTEN/NOTIFY: live events), or values read through raw SQL, which each driver maps in its own way
 *   (tree reads, requirements, sessions, teams).
 * - `*.pg.test.ts` runs on PostgreSQL only: several processes or servers on one database, which PGlite
 *   (one process owns its folder) cannot be.
 * Suites that start the app as a process of its own live in tests/processes/: their own phase, after
 * the rest, with waits on what the process prints or answers and ceilings, not budgets, for a slow machine.
 */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const onDatabase = (folders: string[]) => ({
  include: folders.flatMap((f) =>
    onPostgres ? [`${f}/**/*.db.test.ts`, `${f}/**/*.pg.test.ts`] : [`${f}/**/*.test.ts`],
  ),
  exclude: onPostgres ? [] : ["**/*.pg.test.ts"],
});

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
          ...onDatabase(["tests/integration", "tests/fakes"]),
          // The schema is migrated once per run; each test server starts from a copy of it.
          globalSetup: ["tests/support/database-template.ts"],
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
      {
        test: {
          name: "processes",
          ...onDatabase(["tests/processes"]),
          // The schema as above, and the server bundled once per run: each suite here runs that JavaScript
          // as `npm start` does instead of compiling TypeScript at every start (tests/support/process.ts).
          globalSetup: ["tests/support/database-template.ts", "tests/support/app-bundle.ts"],
          environment: "node",
          // Above PROCESS_CEILING_MS (tests/support/process.ts), so that a wait that never ends reports what
          // it waited for; a test of several waits may take several of them on a loaded machine.
          testTimeout: 300_000,
          hookTimeout: 300_000,
          // Each suite runs Node processes of its own beside its worker.
          maxWorkers: 2,
          isolate: false,
          setupFiles: ["tests/support/fail-on-console-error.ts"],
        },
      },
      {
        test: {
          // `npm run test:container`: the Dockerfile built and its image run here (tests/container/).
          name: "container",
          include: ["tests/container/**/*.test.ts"],
          environment: "node",
          // The first build makes the base image and installs every package: minutes, once.
          testTimeout: 300_000,
          hookTimeout: 900_000,
          setupFiles: ["tests/support/fail-on-console-error.ts"],
        },
      },
    ],
  },
});
