import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobs, taskDependencies, tasks } from "../../src/server/db/schema/index";
import { lockTaskRow } from "../../src/server/plan/locks";
import { registerUser, TestClient } from "../support/http-client";
import { startTestServer, type TestServer, testDatabaseUrl } from "../support/server";
import { waitUntil } from "../support/wait";

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

describe("stopping a plan while one of its splits commits", () => {
  /**
   * A split holds its plan's root row from its first statement to its commit, and commits its children's
   * jobs with them. `act` (delete, reject, restart) starts while such a split is open; the split then
   * commits one more job of the plan. That job must end cancelled: it stayed queued when the plan's jobs
   * were cancelled before its root was locked (a restart then queues its own new run, which is not it).
   */
  async function stopDuringSplit(
    status: "processing" | "submitted",
    act: (client: TestClient, id: string) => Promise<{ status: number }>,
  ) {
    const client = new TestClient(server.url);
    const { user } = await registerUser(client);
    const [root] = await server.deps.db
      .insert(tasks)
      .values({ userId: user.id, description: "A plan being split", status })
      .returning();
    const id = root!.id;
    let answer: Promise<{ status: number }> | undefined;
    let splitJob: number | undefined;
    await server.deps.db.transaction(async (split) => {
      await lockTaskRow(split, id);
      answer = act(client, id);
      // The request is now waiting for the split's lock (a lock wait on the tasks table).
      await waitUntil(
        async () =>
          (
            await server.deps.database.rows<{ n: number }>(
              sql`select count(*)::int as n from pg_locks l join pg_class c on c.oid = l.relation
                where not l.granted and c.relname = 'tasks'
                union all select count(*)::int from pg_locks where not granted and locktype = 'transactionid'`,
            )
          ).some((r) => r.n > 0),
        { message: "the request waiting for the split's lock" },
      );
      const [job] = await split
        .insert(jobs)
        .values({ kind: "decompose.node", groupKey: id, payload: { rootId: id, nodeId: id } })
        .returning({ id: jobs.id });
      splitJob = job!.id;
    });
    expect((await answer!).status).toBe(200);
    const [job] = await server.deps.db
      .select({ status: jobs.status })
      .from(jobs)
      .where(eq(jobs.id, splitJob!));
    expect(job?.status).toBe("cancelled");
  }

  it("deleting the project cancels the jobs the split committed", () =>
    stopDuringSplit("processing", (client, id) => client.request("DELETE", `/api/tasks/${id}`)));

  it("rejecting the plan cancels them", () =>
    stopDuringSplit("submitted", (client, id) =>
      client.post(`/api/tasks/${id}/reject`, { reason: "Not this way" }),
    ));

  it("restarting the decomposition cancels them before it plans again", () =>
    stopDuringSplit("processing", (client, id) => client.post(`/api/tasks/${id}/restart-decomposition`)));
});

it("two writers of one plan never wait on its version, and each commit moves it on once", async () => {
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
  const versionOf = async () => {
    const [row] = await server.deps.database.rows<{ v: number }>(
      sql`select (select count(*)::int from plan_changes where root_task_id = ${root!.id})
        + coalesce((select base from plan_versions where root_task_id = ${root!.id}), 0)::int as v`,
    );
    return row!.v;
  };
  const before = await versionOf();
  // A holds its write to "Billing" open while B writes "Invoices" and commits: with one counter row per
  // plan, B would wait for A (and two such writers that then cross would deadlock).
  await server.deps.db.transaction(async (tx) => {
    await tx.update(tasks).set({ description: "Billing v2" }).where(eq(tasks.id, a!.id));
    await tx.update(tasks).set({ position: 5 }).where(eq(tasks.id, a!.id));
    await server.deps.db.transaction(async (other) => {
      await other.execute(sql`set local lock_timeout = '2s'`);
      await other.update(tasks).set({ description: "Invoices v2" }).where(eq(tasks.id, b!.id));
    });
    expect(await versionOf()).toBe(before + 1);
  });
  // A's two statements are one commit.
  expect(await versionOf()).toBe(before + 2);
});
