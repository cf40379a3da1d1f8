/**
 * Task read paths under load: 10,000 tasks across 20 users plus one 2,801-node tree, then the dashboard
 * list page, stats and the full tree, each measured as server time (Server-Timing) and throughput.
 */
import { performance } from "node:perf_hooks";
import { and, eq } from "drizzle-orm";
import { tasks } from "../src/server/db/schema/index";
import { registerUser, TestClient } from "../tests/support/http-client";
import { seedTree } from "../tests/support/seed";
import { startTestServer } from "../tests/support/server";
import { AS_IN_USE, percentile } from "./stats";

type Row = Record<string, string>;

/** Server time one request at a time (latency), then requests/s with `concurrency` in flight. */
async function measure(token: string, url: string, requests: number, concurrency: number) {
  const latency = await run(token, url, requests, 1);
  const load = await run(token, url, requests, concurrency);
  return { p50: latency.p50, p99: latency.p99, rps: load.rps };
}

async function run(token: string, url: string, requests: number, concurrency: number) {
  const serverMs: number[] = [];
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < requests) {
      next += 1;
      const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
      serverMs.push(Number(res.headers.get("server-timing")?.match(/dur=([\d.]+)/)?.[1]));
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  return { p50: percentile(serverMs, 50), p99: percentile(serverMs, 99), rps: requests / seconds };
}

/** Server time of `requests` writes one after another (each request from `next()`). */
async function write(token: string, requests: number, next: () => [string, string, unknown]) {
  const serverMs: number[] = [];
  const started = performance.now();
  for (let i = 0; i < requests; i++) {
    const [method, url, body] = next();
    const res = await fetch(url, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${method} ${url}: ${res.status}`);
    serverMs.push(Number(res.headers.get("server-timing")?.match(/dur=([\d.]+)/)?.[1]));
  }
  const seconds = (performance.now() - started) / 1000;
  return { p50: percentile(serverMs, 50), p99: percentile(serverMs, 99), rps: requests / seconds };
}

export async function benchTasks(databaseUrl: string | undefined): Promise<Row[]> {
  const server = await startTestServer(
    { LOG_LEVEL: "silent", ...AS_IN_USE },
    { databaseUrl: databaseUrl ?? null },
  );
  try {
    const clients = await Promise.all(
      Array.from({ length: 20 }, async () => registerUser(new TestClient(server.url))),
    );
    // 20 users x 500 tasks: 50 projects each with 9 subtasks.
    for (const c of clients) {
      const roots = await server.deps.db
        .insert(tasks)
        .values(
          Array.from({ length: 50 }, (_, i) => ({
            userId: c.user.id,
            description: `Project ${i}`,
            status: (["pending", "completed", "in_progress", "rejected"] as const)[i % 4]!,
          })),
        )
        .returning({ id: tasks.id });
      await server.deps.db.insert(tasks).values(
        roots.flatMap((r) =>
          Array.from({ length: 9 }, (_, i) => ({
            userId: c.user.id,
            parentId: r.id,
            rootTaskId: r.id,
            depth: 1,
            position: i + 1,
            description: `Step ${i}`,
          })),
        ),
      );
    }
    const owner = clients[0]!;
    const { rootId, dependencies } = await seedTree(server.deps.database, owner.user.id, { plan: true });
    const base = server.url;
    const token = owner.access_token;
    const rows: Row[] = [];
    const add = (name: string, r: { p50: number; p99: number; rps: number }) =>
      rows.push({
        database: server.deps.database.driver,
        endpoint: name,
        "p50 ms": r.p50.toFixed(2),
        "p99 ms": r.p99.toFixed(2),
        "req/s": r.rps.toFixed(0),
      });
    await measure(token, `${base}/api/tasks?page=1&page_size=9`, 50, 4); // warm-up
    add(
      "GET /api/tasks (dashboard page)",
      await measure(token, `${base}/api/tasks?page=2&page_size=9`, 600, 4),
    );
    add("GET /api/tasks/stats", await measure(token, `${base}/api/tasks/stats`, 600, 4));
    await measure(token, `${base}/api/tasks/${rootId}/tree`, 5, 1);
    add(
      "GET /api/tasks/{id}/tree (2,801 nodes)",
      await measure(token, `${base}/api/tasks/${rootId}/tree`, 60, 2),
    );
    await measure(token, `${base}/api/tasks/${rootId}/schedule?team_size=5`, 5, 1);
    add(
      `GET /api/tasks/{id}/schedule?team_size=5 (2,801 nodes, ${dependencies.toLocaleString("en")} dependencies)`,
      await measure(token, `${base}/api/tasks/${rootId}/schedule?team_size=5`, 60, 2),
    );
    for (const team of [1, 5, 20]) {
      const res = await fetch(`${base}/api/tasks/${rootId}/schedule?team_size=${team}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const s = (await res.json()) as {
        critical_path: string[];
        critical_path_hours: number;
        forecast: { p50_days: number; p90_days: number; simulations: number };
      };
      console.info(
        `  forecast (${server.deps.database.driver}, 2,801 nodes, team of ${team}): P50 ${s.forecast.p50_days} / P90 ${s.forecast.p90_days} working days; critical path ${s.critical_path.length} tasks, ${s.critical_path_hours} h; ${s.forecast.simulations} simulations`,
      );
    }
    // Writes on the same plan: every edit saves the whole tree as a revision in its transaction.
    const [leaf] = await server.deps.db
      .select({ id: tasks.id })
      .from(tasks)
      .where(and(eq(tasks.rootTaskId, rootId), eq(tasks.isAtomic, true), eq(tasks.status, "pending")))
      .limit(1);
    const [branch] = await server.deps.db
      .select({ id: tasks.id })
      .from(tasks)
      .where(and(eq(tasks.parentId, rootId)))
      .limit(1);
    let points = 0;
    add(
      "PATCH /api/tasks/{id} (2,801-node plan, revision saved)",
      await write(token, 30, () => [
        "PATCH",
        `${base}/api/tasks/${leaf!.id}`,
        { story_points: [3, 5][points++ % 2] },
      ]),
    );
    add(
      'POST /api/tasks/{id}/replan (offline, "less detail" on a 400-node branch)',
      await write(token, 10, () => [
        "POST",
        `${base}/api/tasks/${branch!.id}/replan`,
        { guidance: "less detail" },
      ]),
    );
    return rows;
  } finally {
    await server.stop();
  }
}
