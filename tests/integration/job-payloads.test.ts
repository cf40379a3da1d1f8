import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { jobs } from "../../src/server/db/schema/index";
import { startTestServer, type TestServer } from "../support/server";

// Issue 11: job payloads are typed JSON, checked when a job is claimed.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.stop());

async function settled(id: number) {
  for (let i = 0; i < 200; i++) {
    const [row] = await server.deps.db.select().from(jobs).where(eq(jobs.id, id));
    if (row && (row.status === "failed" || row.status === "done")) return row;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`job ${id} did not settle`);
}

it("fails a job whose payload does not match its kind at once, without running it or retrying", async () => {
  // Written behind the queue's back (an old row, a hand edit): enqueue() itself only takes typed payloads.
  const [row] = await server.deps.db
    .insert(jobs)
    .values({ kind: "export.run", payload: { exportId: 42 }, maxAttempts: 3 })
    .returning();
  const failed = await settled(row!.id);
  expect(failed.status).toBe("failed");
  expect(failed.attempts).toBe(1);
  expect(failed.lastError).toMatch(/^Job \d+ \(export\.run\) has an invalid payload/);
});
