import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { jobs } from "../../src/server/db/schema/index";
import { startTestServer, type TestServer } from "../support/server";
import { waitUntil } from "../support/wait";

// Issue 11: job payloads are typed JSON, checked when a job is claimed.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.stop());

/** The job's row once it has finished one way or the other. */
function settled(id: number) {
  return waitUntil(
    async () => {
      const [row] = await server.deps.db.select().from(jobs).where(eq(jobs.id, id));
      return row && (row.status === "failed" || row.status === "done") ? row : null;
    },
    { message: `job ${id} to settle` },
  );
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
