import { defineConfig } from "vitest/config";

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
          // Suites that need several processes on one PostgreSQL (*.pg.test.ts) join the PostgreSQL pass.
          include: ["tests/integration/**/*.test.ts", "tests/fakes/**/*.test.ts"],
          exclude: process.env.TEST_DATABASE_URL ? [] : ["tests/integration/**/*.pg.test.ts"],
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
