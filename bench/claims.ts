/**
 * Claims for parallel agents (issue 41), against the real process (the run's bundle or the sources), on
 * PGlite and PostgreSQL: 20 coding agents, each with its own token, call claim_next_task
 * (POST /api/projects/{id}/claim-next) at the same moment on a 2,801-node plan (7 × 4, with dependencies),
 * round after round, each finishing what it took before the next round, as agents that take the next task
 * when they finish one would. Reports whether any leaf went to two agents, and the latency of a call under
 * that contention: round trip and the server's own time (Server-Timing). Goal (issue 41): no leaf claimed
 * twice; p95 under 50 ms on PostgreSQL.
 * Knobs: BENCH_CLAIMS_AGENTS (default 20), BENCH_CLAIMS_COMPLETE=0 (claim without finishing), BENCH_POOL
 * (the pool's size), BENCH_CLAIMS_PROFILE_DIR (a CPU profile of the measured process).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { openDatabase } from "../src/server/db/client";
import { entryPointArgs, spawnApp, waitForReady } from "../tests/support/process";
import { seedTree } from "../tests/support/seed";
import { createScratchDatabase, freePort } from "../tests/support/server";
import { percentile } from "./stats";

const AGENTS = Number(process.env.BENCH_CLAIMS_AGENTS ?? 20);
const ROUNDS = 10;
const COMPLETE = process.env.BENCH_CLAIMS_COMPLETE !== "0";

async function json(res: Response) {
  const body = (await res.json()) as Record<string, unknown>;
  if (!res.ok) throw new Error(`${res.status} ${JSON.stringify(body).slice(0, 200)}`);
  return body;
}

export async function benchClaims(pgUrl?: string): Promise<Record<string, string>[]> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "atomize-bench-claims-"));
  const scratch = pgUrl ? await createScratchDatabase(pgUrl) : null;
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = {
    PORT: String(port),
    HOST: "127.0.0.1",
    PUBLIC_URL: base,
    DATA_DIR: dataDir,
    ...(scratch ? { DATABASE_URL: scratch.url } : {}),
    CREDENTIALS_KEY: Buffer.alloc(32, 7).toString("base64"),
    LOG_LEVEL: "error",
    API_TOKEN_REQUESTS_PER_MINUTE: "100000",
    API_TOKENS_PER_USER: "50",
    ...(process.env.BENCH_POOL ? { DATABASE_POOL_SIZE: process.env.BENCH_POOL } : {}),
    ...(process.env.BENCH_CLAIMS_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_CLAIMS_NODE_OPTIONS } : {}),
  };
  try {
    let app = spawnApp(env);
    await waitForReady(app, 60_000);
    const reg = await json(
      await fetch(`${base}/api/auth/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          email: `claims.${Date.now()}@example.com`,
          password: "a benchmark passphrase",
        }),
      }),
    );
    const tokens: string[] = [];
    for (let i = 0; i < AGENTS; i++) {
      const made = await json(
        await fetch(`${base}/api/tokens`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${reg.access_token}` },
          body: JSON.stringify({ name: `agent-${i}`, scope: "write", expires_in_days: 30 }),
        }),
      );
      tokens.push(made.token as string);
    }
    // PGlite lives in the process: seed with the process stopped, on its data folder.
    app.child.kill("SIGTERM");
    await app.exited;
    const db = await openDatabase(scratch ? { databaseUrl: scratch.url, poolSize: 2 } : { dataDir });
    const { rootId, count } = await seedTree(db, (reg.user as { id: string }).id, { plan: true });
    await db.close();
    // BENCH_CLAIMS_PROFILE_DIR: the measured process writes a CPU profile there (NODE_OPTIONS refuses it).
    const profile = process.env.BENCH_CLAIMS_PROFILE_DIR;
    app = spawnApp(
      env,
      profile
        ? {
            command: [process.execPath, "--cpu-prof", `--cpu-prof-dir=${profile}`, ...entryPointArgs("main")],
          }
        : {},
    );
    await waitForReady(app, 60_000);
    try {
      const post = async (token: string, url: string, body: unknown) => {
        const t0 = performance.now();
        const res = await fetch(`${base}${url}`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
          body: JSON.stringify(body),
        });
        const answer = (await json(res)) as { task: { id: string } | null };
        const server = Number(res.headers.get("server-timing")?.match(/dur=([\d.]+)/)?.[1] ?? Number.NaN);
        return { ms: performance.now() - t0, server, answer };
      };
      // Warm-up: the plan's first read and each token's first use.
      await Promise.all(
        tokens.map((t) =>
          fetch(`${base}/api/tasks/${rootId}/next`, { headers: { authorization: `Bearer ${t}` } }),
        ),
      );
      const ms: number[] = [];
      const serverMs: number[] = [];
      const taken = new Map<string, number>();
      let empty = 0;
      for (let round = 0; round < ROUNDS; round++) {
        const calls = await Promise.all(tokens.map((t) => post(t, `/api/projects/${rootId}/claim-next`, {})));
        for (const c of calls) {
          ms.push(c.ms);
          serverMs.push(c.server);
          if (!c.answer.task) empty++;
          else taken.set(c.answer.task.id, (taken.get(c.answer.task.id) ?? 0) + 1);
        }
        if (COMPLETE)
          await Promise.all(
            calls.flatMap((c, i) =>
              c.answer.task
                ? [post(tokens[i]!, `/api/tasks/${c.answer.task.id}/status`, { status: "completed" })]
                : [],
            ),
          );
      }
      return [
        {
          database: pgUrl ? "postgresql" : "pglite",
          plan: `${count} nodes`,
          calls: String(ms.length),
          "leaves claimed": String(taken.size),
          "claimed twice": String([...taken.values()].filter((n) => n > 1).length),
          "none free": String(empty),
          "p50 / p95 ms (round trip)": `${percentile(ms, 50).toFixed(1)} / ${percentile(ms, 95).toFixed(1)}`,
          "p50 / p95 ms (server)": `${percentile(serverMs, 50).toFixed(1)} / ${percentile(serverMs, 95).toFixed(1)}`,
        },
      ];
    } finally {
      app.child.kill("SIGTERM");
      await app.exited;
    }
  } finally {
    await scratch?.drop().catch(() => {});
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const pgUrl = process.env.BENCH_DATABASE_URL;
  const rows = await benchClaims();
  if (pgUrl) rows.push(...(await benchClaims(pgUrl)));
  console.table(rows);
}
