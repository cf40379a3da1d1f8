/**
 * Reads that never block the others (issue 39, item 2), against the real process (the run's bundle or
 * the sources), on PGlite and PostgreSQL: as before (no tree cache, no bounds on one client's whole-plan
 * requests), as now (the defaults), and with the cache alone:
 * - another user's dashboard read (GET /api/tasks), alone and while 8 clients read a 10,000-node plan's
 *   whole tree over and over, as fast as they can (no If-None-Match: the worst client);
 * - what a tRPC batch of 20 tree reads costs, and one of 2, against a single read.
 * Goal: the loaded dashboard p95 under 3× its idle p95 and under 250 ms; a 20-read batch no dearer than 2
 * reads. The baseline row puts the same 8 clients on a one-task read: what 8 clients that never pause cost
 * on these two cores whatever they read.
 */
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { openDatabase } from "../src/server/db/client";
import { spawnApp, waitForReady } from "../tests/support/process";
import { seedTree } from "../tests/support/seed";
import { createScratchDatabase, freePort } from "../tests/support/server";
import { percentile } from "./stats";

type Row = Record<string, string>;
const READERS = Number(process.env.BENCH_STALL_READERS ?? 8);
const PLAN_NODES = 10_000;
const SAMPLES = 40;
const LOADED_SECONDS = Number(process.env.BENCH_STALL_SECONDS ?? 30);

async function json(res: Response) {
  const body = (await res.json()) as Record<string, unknown>;
  if (!res.ok) throw new Error(`${res.status} ${JSON.stringify(body).slice(0, 200)}`);
  return body;
}

export async function benchStall(pgUrl?: string): Promise<Row[]> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "atomize-bench-stall-"));
  const scratch = pgUrl ? await createScratchDatabase(pgUrl) : null;
  const database = scratch ? "postgresql" : "pglite";
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = (cacheMb: string, heavyBounds = true) => ({
    PORT: String(port),
    HOST: "127.0.0.1",
    PUBLIC_URL: base,
    DATA_DIR: dataDir,
    ...(scratch ? { DATABASE_URL: scratch.url } : {}),
    CREDENTIALS_KEY: Buffer.alloc(32, 7).toString("base64"),
    LOG_LEVEL: "error",
    API_TOKEN_REQUESTS_PER_MINUTE: "100000",
    TREE_CACHE_MB: cacheMb,
    // Before: no tree cache and no bounds on one client's whole-plan requests.
    ...(heavyBounds ? {} : { HEAVY_REQUESTS_PER_CLIENT: "0", HEAVY_REQUESTS_PER_SECOND: "0" }),
    ...(process.env.BENCH_STALL_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_STALL_NODE_OPTIONS } : {}),
  });
  const rows: Row[] = [];
  try {
    // Two users with write tokens: the reader of the big plan, and the one whose dashboard is timed.
    let app = spawnApp(env("64"));
    await waitForReady(app, 60_000);
    const users: { id: string; token: string }[] = [];
    for (const who of ["reader", "bystander"]) {
      const reg = await json(
        await fetch(`${base}/api/auth/register`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            email: `${who}.${Date.now()}@example.com`,
            password: "a benchmark passphrase",
          }),
        }),
      );
      const made = await json(
        await fetch(`${base}/api/tokens`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${reg.access_token}` },
          body: JSON.stringify({ name: "bench", scope: "write", expires_in_days: 30 }),
        }),
      );
      users.push({ id: (reg.user as { id: string }).id, token: made.token as string });
    }
    // PGlite lives in the process: seed with the process stopped, on its data folder.
    if (!scratch) {
      app.child.kill("SIGTERM");
      await app.exited;
    }
    const db = await openDatabase(scratch ? { databaseUrl: scratch.url, poolSize: 2 } : { dataDir });
    const { rootId, count } = await seedTree(db, users[0]!.id, {
      fanout: 10,
      depth: 4,
      maxNodes: PLAN_NODES,
      plan: true,
    });
    for (let i = 0; i < 20; i++) {
      await seedTree(db, users[1]!.id, { fanout: 3, depth: 2, description: `Bystander project ${i + 1}` });
    }
    await db.close();
    if (scratch) {
      app.child.kill("SIGTERM");
      await app.exited;
    }

    const [reader, bystander] = [users[0]!, users[1]!];
    const get = async (url: string, token: string) => {
      const t0 = performance.now();
      const res = await fetch(`${base}${url}`, { headers: { authorization: `Bearer ${token}` } });
      const bytes = (await res.arrayBuffer()).byteLength;
      return { ms: performance.now() - t0, status: res.status, bytes };
    };
    const dashboard = () => get("/api/tasks?page=1&page_size=20", bystander.token);
    // The readers take brotli as browsers do and never decode it: their own CPU, on the same two cores,
    // is not the server's.
    const agent = new http.Agent({ keepAlive: true, maxSockets: READERS });
    let readerPath = `/api/tasks/${rootId}/tree`;
    const tree = () =>
      new Promise<{ ms: number; bytes: number }>((resolve, reject) => {
        const t0 = performance.now();
        const req = http.get(
          `${base}${readerPath}`,
          { agent, headers: { authorization: `Bearer ${reader.token}`, "accept-encoding": "br" } },
          (res) => {
            let bytes = 0;
            res.on("data", (chunk: Buffer) => {
              bytes += chunk.length;
            });
            res.on("end", () =>
              res.statusCode === 200
                ? resolve({ ms: performance.now() - t0, bytes })
                : reject(new Error(`tree read: ${res.statusCode}`)),
            );
          },
        );
        req.on("error", reject);
      });
    const trpcBatch = (n: number) => {
      const paths = Array.from({ length: n }, () => "tasks.tree").join(",");
      const input = Object.fromEntries(Array.from({ length: n }, (_, i) => [i, { json: { id: rootId } }]));
      return get(`/trpc/${paths}?batch=1&input=${encodeURIComponent(JSON.stringify(input))}`, reader.token);
    };

    for (const [mode, cacheMb, bounds, path] of [
      ["before: no cache, no bounds", "0", false, `/api/tasks/${rootId}/tree`],
      ["after: cache and bounds (defaults)", "64", true, `/api/tasks/${rootId}/tree`],
      ["cache, no bounds", "64", false, `/api/tasks/${rootId}/tree`],
      // The same 8 clients reading one task instead: what any 8 clients that never pause cost here.
      ["baseline: 8 readers of one task", "64", true, `/api/tasks/${rootId}`],
    ] as const) {
      readerPath = path;
      app = spawnApp(env(cacheMb, bounds));
      await waitForReady(app, 60_000);
      try {
        for (let i = 0; i < 5; i++) await dashboard();
        const idle: number[] = [];
        for (let i = 0; i < SAMPLES; i++) idle.push((await dashboard()).ms);
        const single: number[] = [];
        for (let i = 0; i < 3; i++) single.push((await tree()).ms);
        const treeBytes = (await get(`/api/tasks/${rootId}/tree`, reader.token)).bytes;

        let stop = false;
        const treeTimes: number[] = [];
        const loops = Array.from({ length: READERS }, async () => {
          while (!stop) treeTimes.push((await tree()).ms);
        });
        await sleep(500);
        const loaded: number[] = [];
        const until = performance.now() + LOADED_SECONDS * 1000;
        while (loaded.length < SAMPLES && performance.now() < until) {
          loaded.push((await dashboard()).ms);
          await sleep(50);
        }
        stop = true;
        await Promise.all(loops);

        const one = (await trpcBatch(1)).ms;
        const two = await trpcBatch(2);
        const twenty = await trpcBatch(20);
        const p95Idle = percentile(idle, 95);
        const p95Loaded = percentile(loaded, 95);
        rows.push({
          database,
          mode,
          plan: `${count.toLocaleString("en")} nodes, ${(treeBytes / 1e6).toFixed(1)} MB`,
          "one read alone p50 ms": percentile(single, 50).toFixed(0),
          "reads done by 8 readers": `${treeTimes.length}, p50 ${percentile(treeTimes, 50).toFixed(0)} ms`,
          "dashboard idle p50/p95 ms": `${percentile(idle, 50).toFixed(1)} / ${p95Idle.toFixed(1)}`,
          "dashboard loaded p50/p95 ms": `${percentile(loaded, 50).toFixed(1)} / ${p95Loaded.toFixed(1)} (${loaded.length} samples)`,
          "loaded p95 / idle p95": (p95Loaded / p95Idle).toFixed(2),
          "tRPC batch 1 / 2 / 20 reads ms": `${one.toFixed(0)} / ${two.ms.toFixed(0)} (${two.status}) / ${twenty.ms.toFixed(0)} (${twenty.status})`,
        });
      } finally {
        agent.destroy();
        app.child.kill("SIGTERM");
        await app.exited;
      }
    }
  } finally {
    await scratch?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = process.env.BENCH_ONLY_PG ? [] : [...(await benchStall())];
  if (process.env.BENCH_DATABASE_URL) rows.push(...(await benchStall(process.env.BENCH_DATABASE_URL)));
  for (const row of rows) console.info(row);
}
