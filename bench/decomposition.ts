/**
 * The decomposition engine's own overhead: the fake model answers every call in 200 ms; a project is
 * decomposed to depth 3 with 5 children per node (levels 1-2 split, level 3 atomic: 1 + 5 + 25 + 125 =
 * 156 nodes, 34 model calls: complexity, 31 splits, the composer's 2).
 *
 * Each row compares the measured wall time (task created -> decomposition.completed) with the call-graph
 * bound (bench/call-graph.ts): what the model calls alone take at that many calls in flight. The call
 * graph is read from the calls the fake received (split calls per depth), not assumed. "critical path"
 * is the bound with unlimited concurrency: complexity, one split per level, compose (5 x 200 ms here).
 *
 * The fake model runs on its own thread (bench/model-worker.ts): a provider is another machine, and a
 * fake on the server's event loop would only read the server's requests once the server's own work
 * let it, which is not engine overhead.
 *
 * Every server first runs one decomposition of the same plan, not measured (modules loaded, the hot code
 * compiled: with a small warm-up plan the first measured run was still 50-100 ms slower than the rest),
 * then BENCH_DECOMPOSITION_RUNS measured ones (default 5); the row shows the median run.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { registerUser, TestClient } from "../tests/support/http-client";
import { startTestServer } from "../tests/support/server";
import { boundRounds, type CallGraph, scheduleRounds } from "./call-graph";
import { startModelWorker, type WorkerRequest } from "./model-worker";
import { AS_IN_USE, percentile } from "./stats";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const LATENCY_MS = 200;
const CHILDREN = 5;
const DEPTH = 3;
/** The configuration's maximum LLM_CONCURRENCY: more than the widest level (25), so "unlimited". */
export const UNLIMITED = 64;

/** The call graph the model saw: split calls per depth (from the prompt's "Depth: d of at most m"). */
function callGraphOf(requests: WorkerRequest[]): CallGraph {
  const levels: number[] = [];
  let composeCalls = 0;
  for (const r of requests) {
    if (r.schemaName === "project_context" || r.schemaName === "event_model") composeCalls++;
    if (r.schemaName !== "subtask_plan") continue;
    const depth = r.depth;
    if (depth === null) throw new Error("a split call without its depth line");
    while (levels.length <= depth) levels.push(0);
    levels[depth]!++;
  }
  return { levels, composeCalls };
}

/**
 * Creates a task and resolves with the milliseconds until its decomposition.completed event (`wall`),
 * and when it was created (`started`, `performance.timeOrigin + performance.now()`, the clock the model
 * worker's arrival times use).
 */
export async function decompose(
  client: TestClient,
  events: { subscribe(l: (e: { type: string; root_task_id: string | null }) => void): () => void },
  body: Record<string, unknown>,
): Promise<{ started: number; wall: number }> {
  const completedAt = new Map<string, number>();
  let rootId = "";
  let finish: () => void = () => {};
  const finished = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const stop = events.subscribe((e) => {
    if (e.type !== "decomposition.completed" || !e.root_task_id) return;
    completedAt.set(e.root_task_id, performance.now());
    if (e.root_task_id === rootId) finish();
  });
  try {
    const started = performance.now();
    const created = await client.post("/api/tasks", body);
    if (created.status !== 201) throw new Error(`task not created: ${created.status}`);
    rootId = created.json.id;
    if (completedAt.has(rootId)) finish();
    await finished;
    return { started: performance.timeOrigin + started, wall: completedAt.get(rootId)! - started };
  } finally {
    stop();
  }
}

/** Levels 0 and 1 are complex enough to split, level 2 is atomic. */
export const PLAN_SHAPE = { subtasks: CHILDREN, complexityByDepth: [9, 9, 3] };

/**
 * The fake model on its own thread, as a provider is on its own machine (see bench/model-worker.ts),
 * and a server that plans with it at `concurrency` calls in flight, with a signed-in client.
 */
export async function startEngineServer(
  concurrency: number,
  databaseUrl: string | null,
  dataDir: string | null = null,
) {
  const llm = await startModelWorker(LATENCY_MS);
  const server = await startTestServer(
    {
      OPENAI_API_KEY: llm.apiKey,
      OPENAI_BASE_URL: llm.url,
      LLM_MODEL: "fake-gpt",
      LLM_CONCURRENCY: String(concurrency),
      LOG_LEVEL: "silent",
      ...AS_IN_USE,
    },
    { databaseUrl, ...(dataDir ? { dataDir } : {}) },
  );
  const client = new TestClient(server.url);
  await registerUser(client);
  return { llm, server, client };
}

/**
 * `onDisk`: PGlite in a data folder (inside the project, as ./.data is), writing through Node's file
 * system as an installation does, instead of in memory.
 */
export async function benchDecomposition(
  databaseUrl: string | null,
  concurrency = 4,
  opts: { onDisk?: boolean } = {},
) {
  const runs = Math.max(1, Number(process.env.BENCH_DECOMPOSITION_RUNS ?? 5));
  const scratch = path.join(root, "node_modules", ".cache", "atomize-bench");
  let dataDir: string | null = null;
  if (opts.onDisk && !databaseUrl) {
    mkdirSync(scratch, { recursive: true });
    dataDir = mkdtempSync(path.join(scratch, "engine-"));
  }
  const { llm, server, client } = await startEngineServer(concurrency, databaseUrl, dataDir);
  const shape = PLAN_SHAPE;
  try {
    const body = (n: number) => ({
      description: `Benchmark ${n}: a marketplace with listings, search, payments and messaging`,
      max_depth: DEPTH,
      max_subtasks: CHILDREN,
    });
    // Warm-up: the same plan, so the measured runs pay neither for loading modules nor for compiling.
    await llm.setPlanShape(shape);
    await decompose(client, server.deps.events, body(0));

    const walls: number[] = [];
    let graph: CallGraph | null = null;
    let calls = 0;
    let maxInFlight = 0;
    for (let run = 1; run <= runs; run++) {
      await llm.reset();
      await llm.setPlanShape(shape);
      walls.push((await decompose(client, server.deps.events, body(run))).wall);
      const stats = await llm.stats();
      graph = callGraphOf(stats.requests);
      calls = stats.answered;
      maxInFlight = Math.max(maxInFlight, stats.maxInFlight);
    }
    const g = graph!;
    const rounds = boundRounds(g, concurrency);
    const scheduled = scheduleRounds(g, concurrency);
    if (scheduled !== rounds) {
      throw new Error(`call-graph bound: ${rounds} rounds by the formula, ${scheduled} in a schedule`);
    }
    const criticalRounds = boundRounds(g, Number.POSITIVE_INFINITY);
    const wallMs = percentile(walls, 50);
    const boundMs = rounds * LATENCY_MS;
    const criticalMs = criticalRounds * LATENCY_MS;
    return {
      database: dataDir ? "pglite (data folder)" : server.deps.database.driver,
      concurrency: concurrency >= UNLIMITED ? `${concurrency} (unlimited)` : concurrency,
      "model calls": calls,
      "max in flight": maxInFlight,
      "bound ms": boundMs,
      "wall ms (median)": Math.round(wallMs),
      ratio: (wallMs / boundMs).toFixed(2),
      "engine ms / round": ((wallMs - boundMs) / rounds).toFixed(0),
      "critical path ms": criticalMs,
      "ratio to critical path": (wallMs / criticalMs).toFixed(2),
      "runs (ms)": walls.map((w) => w.toFixed(0)).join(" "),
    };
  } finally {
    await server.stop();
    await llm.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Every row: concurrency 4, 8 and unlimited on PGlite in memory, 4 and 8 on PGlite in a data folder, and
 * 4, 8 and unlimited on PostgreSQL when it is reachable.
 */
export async function benchDecompositions(pgUrl: string) {
  const rows = [];
  for (const c of [4, 8, UNLIMITED]) rows.push(await benchDecomposition(null, c));
  for (const c of [4, 8]) rows.push(await benchDecomposition(null, c, { onDisk: true }));
  try {
    for (const c of [4, 8, UNLIMITED]) rows.push(await benchDecomposition(pgUrl, c));
  } catch (err) {
    console.warn(`PostgreSQL run skipped (${(err as Error).message}); set BENCH_DATABASE_URL`);
  }
  return rows;
}

// `node --import tsx bench/decomposition.ts` runs this section alone.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const pgUrl =
    process.env.BENCH_DATABASE_URL ??
    process.env.DATABASE_URL ??
    "postgres://postgres@127.0.0.1:5432/postgres";
  console.table(await benchDecompositions(pgUrl));
}
