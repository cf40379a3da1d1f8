/**
 * Several processes on one PostgreSQL (issue 45, item 3): 200 users, each in a loop reading their
 * dashboard (GET /api/tasks), their plan's tree (GET /api/tasks/{id}/tree) and editing one of its tasks
 * (PATCH story points), for 60 s, through nginx with deploy/nginx.conf in front of 1 process and then of 3
 * processes of the same build. Reported: requests a second, p50/p95 latency per kind, errors. Then the same
 * load on 3 processes with one of them killed (SIGKILL) half-way: the errors the kill caused, and data lost,
 * checked after the run against the database: every edit answered 200 must be there (a leaf may hold a
 * later edit whose answer the kill cut off, never an older one).
 *
 * All 200 users come from one address (this process), so the per-address bound on whole-plan reads is
 * lifted (HEAVY_REQUESTS_PER_CLIENT=0), as real users behind their own addresses never share one; and the
 * answers are not checked against their schemas, as in production (AS_IN_USE). Needs PostgreSQL
 * (BENCH_DATABASE_URL) and nginx; the load comes from this one Node process, on the same two cores.
 *
 *   node --import tsx bench/scale-out.ts   (BENCH_SCALE_USERS, BENCH_SCALE_SECONDS to change the load)
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import postgres from "postgres";
import { openDatabase } from "../src/server/db/client";
import { STORY_POINTS } from "../src/shared/schemas/tasks";
import { startNginx } from "../tests/support/nginx";
import { type AppProcess, spawnApp, waitForReady } from "../tests/support/process";
import { seedTree } from "../tests/support/seed";
import { createScratchDatabase, freePort } from "../tests/support/server";
import { AS_IN_USE, percentile } from "./stats";

type Row = Record<string, string | number>;
const USERS = Number(process.env.BENCH_SCALE_USERS ?? 200);
const SECONDS = Number(process.env.BENCH_SCALE_SECONDS ?? 60);
const KINDS = ["dashboard", "tree", "edit"] as const;
type Kind = (typeof KINDS)[number];
type User = { token: string; rootId: string; leaves: string[] };

/** Edits per leaf: the last one answered 200, and any later ones whose answer never came. */
type Edits = Map<string, { acked: number | null; unanswered: number[] }>;

async function registerAll(base: string, n: number): Promise<{ id: string; token: string }[]> {
  const out: { id: string; token: string }[] = [];
  const stamp = Date.now().toString(36);
  for (let i = 0; i < n; i += 10) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(10, n - i) }, async (_, j) => {
        const res = await fetch(`${base}/api/auth/register`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: base },
          body: JSON.stringify({
            email: `load.${stamp}.${i + j}@example.com`,
            password: "a benchmark passphrase",
          }),
        });
        const body = (await res.json()) as { access_token: string; user: { id: string } };
        if (res.status !== 201) throw new Error(`register: ${res.status} ${JSON.stringify(body)}`);
        return { id: body.user.id, token: body.access_token };
      }),
    );
    out.push(...batch);
  }
  return out;
}

async function runLoad(
  base: string,
  users: User[],
  seconds: number,
  edits: Edits,
  midway?: () => Promise<void>,
) {
  const latencies: Record<Kind, number[]> = { dashboard: [], tree: [], edit: [] };
  const errors: Record<string, number> = {};
  const end = performance.now() + seconds * 1000;
  let killAt = midway ? performance.now() + (seconds * 1000) / 2 : Number.POSITIVE_INFINITY;
  let counter = 0;
  const timed = async (kind: Kind, url: string, init?: RequestInit) => {
    const start = performance.now();
    try {
      const res = await fetch(url, init);
      await res.arrayBuffer();
      if (res.ok) latencies[kind].push(performance.now() - start);
      else errors[`${kind} ${res.status}`] = (errors[`${kind} ${res.status}`] ?? 0) + 1;
      return res.ok;
    } catch (err) {
      const key = `${kind} ${(err as Error).cause ? ((err as Error).cause as Error).message : (err as Error).message}`;
      errors[key] = (errors[key] ?? 0) + 1;
      return false;
    }
  };
  const started = performance.now();
  const loops = users.map(async (u) => {
    const auth = { authorization: `Bearer ${u.token}` };
    while (performance.now() < end) {
      if (performance.now() >= killAt && midway) {
        killAt = Number.POSITIVE_INFINITY;
        void midway();
      }
      await timed("dashboard", `${base}/api/tasks?page_size=20`, { headers: auth });
      await timed("tree", `${base}/api/tasks/${u.rootId}/tree`, { headers: auth });
      const leaf = u.leaves[counter % u.leaves.length]!;
      const value = STORY_POINTS[counter++ % STORY_POINTS.length]!;
      const record = edits.get(leaf) ?? { acked: null, unanswered: [] };
      edits.set(leaf, record);
      const ok = await timed("edit", `${base}/api/tasks/${leaf}`, {
        method: "PATCH",
        headers: { ...auth, "content-type": "application/json", origin: base },
        body: JSON.stringify({ story_points: value }),
      });
      if (ok) record.acked = value;
      else record.unanswered.push(value);
      if (ok) record.unanswered = [];
    }
  });
  await Promise.all(loops);
  const elapsed = (performance.now() - started) / 1000;
  return { latencies, errors, elapsed };
}

async function dataLost(sql: postgres.Sql, edits: Edits): Promise<number> {
  const ids = [...edits.keys()];
  const rows = await sql<{ id: string; story_points: number | null }[]>`
    select id, story_points from tasks where id = any(${ids}::uuid[])`;
  const stored = new Map(rows.map((r) => [r.id, r.story_points]));
  let lost = 0;
  for (const [id, e] of edits) {
    if (e.acked === null) continue;
    const now = stored.get(id);
    if (now !== e.acked && !e.unanswered.includes(now as number)) lost++;
  }
  return lost;
}

export async function benchScaleOut(pgUrl: string): Promise<Row[]> {
  const rows: Row[] = [];
  for (const scenario of [
    { processes: 1, kill: false },
    { processes: 3, kill: false },
    { processes: 3, kill: true },
  ]) {
    const scratch = await createScratchDatabase(pgUrl);
    const dataDir = mkdtempSync(path.join(tmpdir(), "atomize-bench-scale-"));
    const sql = postgres(scratch.url, { max: 1, onnotice: () => {} });
    const apps: AppProcess[] = [];
    let proxy: Awaited<ReturnType<typeof startNginx>> | undefined;
    try {
      const env = {
        HOST: "127.0.0.1",
        DATABASE_URL: scratch.url,
        DATA_DIR: dataDir,
        CREDENTIALS_KEY: Buffer.alloc(32, 8).toString("base64"),
        LOG_LEVEL: "error",
        TRUST_PROXY: "true",
        HEAVY_REQUESTS_PER_CLIENT: "0",
        REGISTRATIONS_PER_IP_PER_HOUR: "100000",
        ANONYMOUS_WRITES_PER_IP_PER_HOUR: "100000",
        ...AS_IN_USE,
      };
      for (let i = 0; i < scenario.processes; i++)
        apps.push(spawnApp({ ...env, PORT: String(await freePort()) }));
      await Promise.all(apps.map((a) => waitForReady(a)));
      proxy = await startNginx(apps.map((a) => Number(new URL(a.url).port)));
      const registered = await registerAll(proxy.url, USERS);
      const db = await openDatabase({ databaseUrl: scratch.url, poolSize: 4 });
      const users: User[] = [];
      for (const r of registered) {
        const { rootId } = await seedTree(db, r.id, { fanout: 4, depth: 2, plan: true });
        const leaves = await sql<
          { id: string }[]
        >`select id from tasks where root_task_id = ${rootId} and depth = 2`;
        users.push({ token: r.token, rootId, leaves: leaves.map((l) => l.id) });
      }
      await db.close();
      const edits: Edits = new Map();
      const victim = apps[apps.length - 1]!;
      const { latencies, errors, elapsed } = await runLoad(
        proxy.url,
        users,
        SECONDS,
        edits,
        scenario.kill
          ? async () => {
              victim.child.kill("SIGKILL");
              await victim.exited;
            }
          : undefined,
      );
      await sleep(500);
      const total = KINDS.reduce((n, k) => n + latencies[k].length, 0);
      const row: Row = {
        processes: scenario.processes,
        "one killed half-way": scenario.kill ? "yes" : "no",
        users: USERS,
        seconds: Math.round(elapsed),
        "requests/s": Math.round(total / elapsed),
      };
      for (const k of KINDS) {
        row[`${k} p50 ms`] = Math.round(percentile(latencies[k], 50));
        row[`${k} p95 ms`] = Math.round(percentile(latencies[k], 95));
      }
      row.errors = Object.values(errors).reduce((a, b) => a + b, 0);
      row["errors by kind"] = JSON.stringify(errors);
      row["edits answered 200"] = latencies.edit.length;
      row["data lost"] = await dataLost(sql, edits);
      rows.push(row);
      console.info(JSON.stringify(row));
    } finally {
      for (const a of apps) if (a.child.exitCode === null) a.child.kill("SIGTERM");
      await Promise.all(apps.map((a) => a.exited));
      await proxy?.stop();
      await sql.end();
      await scratch.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const pgUrl =
    process.env.BENCH_DATABASE_URL ??
    process.env.DATABASE_URL ??
    "postgres://postgres@127.0.0.1:5432/postgres";
  console.table(await benchScaleOut(pgUrl));
}
