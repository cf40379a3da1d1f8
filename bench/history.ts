/**
 * The plan's history (plan/revisions.ts) on large plans: the server time of a PATCH (which records a
 * revision in its transaction), the bytes one edit's revision row stores, and the time of restoring a
 * revision 40 edits back, at 2,801 and 10,000 nodes. The byte figures read the revision rows as they are
 * stored, whatever their columns, so the same bench measures a snapshot per revision and a change set.
 */
import { performance } from "node:perf_hooks";
import { and, eq, sql } from "drizzle-orm";
import { tasks } from "../src/server/db/schema/index";
import { registerUser, TestClient } from "../tests/support/http-client";
import { seedTree } from "../tests/support/seed";
import { startTestServer } from "../tests/support/server";
import { AS_IN_USE, percentile } from "./stats";

type Row = Record<string, string>;

const EDITS = 45;
const BACK = 40;

const serverMs = (res: Response, started: number) =>
  Number(res.headers.get("server-timing")?.match(/dur=([\d.]+)/)?.[1] ?? performance.now() - started);

export async function benchHistory(databaseUrl?: string): Promise<Row[]> {
  const server = await startTestServer(
    { LOG_LEVEL: "silent", ...AS_IN_USE },
    { databaseUrl: databaseUrl ?? null },
  );
  try {
    const client = new TestClient(server.url);
    const owner = await registerUser(client);
    const call = async (method: string, path: string, body: unknown) => {
      const started = performance.now();
      const res = await fetch(`${server.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${owner.access_token}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 200)}`);
      return { ms: serverMs(res, started), json: JSON.parse(text) as Record<string, unknown> };
    };
    const rows: Row[] = [];
    for (const size of [
      { fanout: 7, depth: 4 },
      { fanout: 10, depth: 4, maxNodes: 10_000 },
    ]) {
      const { rootId, count } = await seedTree(server.deps.database, owner.user.id, { plan: true, ...size });
      const leaves = await server.deps.db
        .select({ id: tasks.id })
        .from(tasks)
        .where(and(eq(tasks.rootTaskId, rootId), eq(tasks.isAtomic, true), eq(tasks.status, "pending")))
        .limit(EDITS);
      // The first edit also records the baseline; it is not measured.
      await call("PATCH", `/api/tasks/${leaves[0]!.id}`, { story_points: 8 });
      const patchMs: number[] = [];
      for (let i = 0; i < EDITS; i++) {
        const body = i % 2 ? { story_points: [3, 5][i % 4 === 1 ? 0 : 1] } : { description: `Edited ${i}` };
        patchMs.push((await call("PATCH", `/api/tasks/${leaves[i % leaves.length]!.id}`, body)).ms);
      }
      // The stored size of each edit's revision row (TOAST-compressed) and its length as JSON text.
      const [stored] = await server.deps.database.rows<{ bytes: number; text: number }>(
        sql`select
            percentile_cont(0.5) within group (order by pg_column_size(r.*))::int as bytes,
            percentile_cont(0.5) within group (order by octet_length(to_jsonb(r)::text))::int as text
          from (select * from task_revisions where root_task_id = ${rootId}
                order by seq desc limit ${EDITS}) r`,
      );
      const restoreMs: number[] = [];
      for (let i = 0; i < 3; i++) {
        const list = (await call("GET", `/api/tasks/${rootId}/revisions`, undefined)).json.revisions as {
          revision_id: string;
        }[];
        const target = list[BACK]!;
        restoreMs.push(
          (await call("POST", `/api/tasks/${rootId}/revisions/${target.revision_id}/restore`, {})).ms,
        );
      }
      rows.push({
        database: server.deps.database.driver,
        nodes: count.toLocaleString("en"),
        "bytes per edit (stored)": stored!.bytes.toLocaleString("en"),
        "bytes per edit (JSON text)": stored!.text.toLocaleString("en"),
        "PATCH p50 ms": percentile(patchMs, 50).toFixed(1),
        "PATCH p99 ms": percentile(patchMs, 99).toFixed(1),
        [`restore ${BACK} back, median of 3, ms`]: percentile(restoreMs, 50).toFixed(1),
      });
    }
    return rows;
  } finally {
    await server.stop();
  }
}
