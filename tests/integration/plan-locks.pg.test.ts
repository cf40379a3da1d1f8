import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { taskDependencies, tasks } from "../../src/server/db/schema/index";
import { lockTaskRow } from "../../src/server/services/tasks/plan-rows";
import { registerUser, TestClient } from "../support/http-client";
import { startTestServer, type TestServer, testDatabaseUrl } from "../support/server";

// Runs only in the PostgreSQL pass (vitest.config.ts includes *.pg.test.ts when TEST_DATABASE_URL is set):
// it needs two connections at once, which PGlite does not have.
let server: TestServer;
beforeAll(async () => {
  if (!testDatabaseUrl) throw new Error("TEST_DATABASE_URL must point at PostgreSQL for this suite");
  server = await startTestServer({ JOBS_ENABLED: "false" });
});
afterAll(() => server?.stop());

it("a task locked by a split still takes rows that refer to it, while a second lock on it waits", async () => {
  const client = new TestClient(server.url);
  const { user } = await registerUser(client);
  const [root] = await server.deps.db
    .insert(tasks)
    .values({ userId: user.id, description: "Plan" })
    .returning();
  const [a, b] = await server.deps.db
    .insert(tasks)
    .values(
      ["Billing", "Invoices"].map((description, i) => ({
        userId: user.id,
        parentId: root!.id,
        rootTaskId: root!.id,
        depth: 1,
        position: i,
        description,
      })),
    )
    .returning();

  await server.deps.db.transaction(async (tx) => {
    await lockTaskRow(tx, a!.id);
    // Another connection, as another split citing "Billing": its foreign-key check must not wait for
    // the lock (with `for update` it did, and two such splits deadlocked).
    await server.deps.db.transaction(async (other) => {
      await other.execute(sql`set local lock_timeout = '2s'`);
      await other
        .insert(taskDependencies)
        .values({ taskId: b!.id, dependsOnId: a!.id, rootTaskId: root!.id, source: "planner" });
    });
    // A second split of the same task still waits for the first.
    const second = server.deps.db.transaction(async (other) => {
      await other.execute(sql`set local lock_timeout = '300ms'`);
      await lockTaskRow(other, a!.id);
    });
    await expect(second).rejects.toThrow();
  });
  const rows = await server.deps.database.rows<{ n: number }>(
    sql`select count(*)::int as n from task_dependencies where task_id = ${b!.id}`,
  );
  expect(rows[0]!.n).toBe(1);
});
