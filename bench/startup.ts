/**
 * Start-up and sign-in figures on this machine (reported in issue notes, never asserted in tests), from
 * the compiled server as `npm start` runs it (decision 025), on PGlite, as a child process:
 * - cold start to /readyz (spawn to the first 200) on a new data folder and on an existing one, the
 *   median (and range) of BENCH_STARTUP_RUNS runs (default 5), with the process's CPU time by then,
 *   which a busy machine disturbs less than the wall time;
 * - where the time goes: each phase of the server's "atomize listening" line, median;
 * - RSS once the process has idled a few seconds after a start;
 * - the TypeScript source through tsx (how `npm start` ran before issue 15, and `npm run dev` still
 *   does), on the existing folder, for comparison;
 * - sign-in times.
 * The data folders sit inside the project, as the default ./.data does: on these machines creating a
 * file under /tmp costs about ten times as much, and a new folder is some 1,100 files.
 * `node --import tsx bench/startup.ts` runs this part alone.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
// @ts-expect-error: a plain ES module script without types (scripts/build-server.mjs)
import { buildPgliteSeed, buildServer } from "../scripts/build-server.mjs";
import { type AppProcess, spawnApp } from "../tests/support/process";
import { freePort } from "../tests/support/server";
import { waitUntil } from "../tests/support/wait";
import { percentile } from "./stats";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 5);
const IDLE_MS = 3_000;
const TICK_MS = 10; // Linux's USER_HZ: /proc/<pid>/stat counts CPU time in hundredths of a second

async function timed<T>(fn: () => Promise<T>) {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

/** The process's CPU time so far (all its threads), from /proc; NaN where there is none. */
function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return Number.NaN;
  }
}

function rssMb(pid: number): number {
  const m = readFileSync(`/proc/${pid}/status`, "utf8").match(/VmRSS:\s+(\d+) kB/);
  return m ? Number(m[1]) / 1024 : Number.NaN;
}

type Start = { app: AppProcess; ms: number; cpuMs: number; phases: Record<string, number> };

/** Starts the server and measures spawn to the first 200 from /readyz, polled every few milliseconds. */
async function start(command: [string, ...string[]], env: Record<string, string>): Promise<Start> {
  const t = performance.now();
  const app = spawnApp(env, { command, cwd: root });
  await waitUntil(
    async () => {
      if (app.child.exitCode !== null) throw new Error(`the server exited:\n${app.output()}`);
      return fetch(`${app.url}/readyz`).then(
        (r) => r.status === 200,
        () => false,
      );
    },
    { timeoutMs: 120_000, intervalMs: 2, message: () => `the server was not ready:\n${app.output()}` },
  );
  const ms = performance.now() - t;
  const cpu = cpuMs(app.child.pid!);
  const line = await waitUntil(() => app.output().match(/^.*"msg":"atomize listening".*$/m)?.[0], {
    message: "the start-up line",
  });
  return { app, ms, cpuMs: cpu, phases: JSON.parse(line).startup };
}

async function stop(app: AppProcess) {
  app.child.kill("SIGTERM");
  await app.exited;
}

const median = (xs: number[]) => percentile(xs, 50);
const summary = (xs: number[]) =>
  `${median(xs).toFixed(0)} (${Math.min(...xs).toFixed(0)}-${Math.max(...xs).toFixed(0)})`;
function phaseMedians(starts: Start[]): string {
  const names = [...new Set(starts.flatMap((s) => Object.keys(s.phases)))];
  return names.map((n) => `${n} ${median(starts.map((s) => s.phases[n] ?? 0)).toFixed(0)}`).join(" · ");
}

export async function benchStartup(): Promise<Record<string, string>> {
  // What `npm run build` makes of the server (the seed is kept when current).
  const outdir = path.join(root, "dist", "server");
  await buildServer(outdir);
  await buildPgliteSeed(outdir);
  const built: [string, ...string[]] = [process.execPath, path.join(outdir, "main.js")];
  const source: [string, ...string[]] = [process.execPath, "--import", "tsx", "src/server/main.ts"];

  const scratch = path.join(root, "node_modules", ".cache", "atomize-bench");
  mkdirSync(scratch, { recursive: true });
  const dataDir = mkdtempSync(path.join(scratch, "startup-"));
  try {
    const port = await freePort();
    const env = { PORT: String(port), DATA_DIR: dataDir, HOST: "127.0.0.1", LOG_LEVEL: "info" };
    const fresh: Start[] = [];
    const existing: Start[] = [];
    for (let i = 0; i < RUNS; i++) {
      rmSync(dataDir, { recursive: true, force: true });
      const first = await start(built, env);
      fresh.push(first);
      await stop(first.app);
      const again = await start(built, env);
      existing.push(again);
      await stop(again.app);
    }
    const results: Record<string, string> = {};
    for (const [label, starts] of [
      ["new data folder", fresh],
      ["existing data folder", existing],
    ] as const) {
      results[`${label}: spawn to /readyz (ms, median of ${RUNS} and range)`] = summary(
        starts.map((s) => s.ms),
      );
      results[`${label}: the server's CPU time by then (ms)`] = summary(starts.map((s) => s.cpuMs));
      results[`${label}: phases (ms, median)`] = phaseMedians(starts);
    }

    const tsx: Start[] = [];
    for (let i = 0; i < Math.min(RUNS, 3); i++) {
      const s = await start(source, env);
      tsx.push(s);
      await stop(s.app);
    }
    results[`TypeScript source through tsx, existing folder: to /readyz, CPU (ms, median of ${tsx.length})`] =
      `${summary(tsx.map((s) => s.ms))}, CPU ${summary(tsx.map((s) => s.cpuMs))}`;

    const { app } = await start(built, env);
    await sleep(IDLE_MS);
    results[`server RSS ${IDLE_MS / 1000} s after a start, idle (MB)`] = rssMb(app.child.pid!).toFixed(0);

    const base = app.url;
    const json = { "content-type": "application/json" };
    const email = `bench.${Date.now()}@example.com`;
    const password = "benchmark password";
    await fetch(`${base}/api/auth/register`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ email, password }),
    });
    const login = await fetch(`${base}/api/auth/login`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ email, password }),
    });
    const { access_token } = (await login.json()) as { access_token: string };

    const logins: number[] = [];
    for (let i = 0; i < 30; i++) {
      logins.push(
        await timed(() =>
          fetch(`${base}/api/auth/login`, {
            method: "POST",
            headers: json,
            body: JSON.stringify({ email, password }),
          }).then((r) => r.text()),
        ),
      );
    }
    results["POST /api/auth/login p50 / p95 (ms, argon2id verify)"] =
      `${percentile(logins, 50).toFixed(1)} / ${percentile(logins, 95).toFixed(1)}`;

    const mes: number[] = [];
    for (let i = 0; i < 300; i++) {
      mes.push(
        await timed(() =>
          fetch(`${base}/api/auth/me`, { headers: { authorization: `Bearer ${access_token}` } }).then((r) =>
            r.text(),
          ),
        ),
      );
    }
    results["GET /api/auth/me p50 / p95 (ms, session check)"] =
      `${percentile(mes, 50).toFixed(2)} / ${percentile(mes, 95).toFixed(2)}`;
    results["server RSS after the run (MB)"] = rssMb(app.child.pid!).toFixed(0);

    await stop(app);
    return results;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const [k, v] of Object.entries(await benchStartup())) console.info(`${k.padEnd(72)} ${v}`);
}
