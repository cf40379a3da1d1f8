/**
 * Start-up and sign-in figures on this machine (reported in issue notes, never asserted
 * in tests). Runs the real server as a child process on PGlite.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { spawnApp, waitForReady } from "../tests/support/process";
import { freePort } from "../tests/support/server";
import { percentile } from "./stats";

async function timed<T>(fn: () => Promise<T>) {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

export async function benchStartup(): Promise<Record<string, string>> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "atomize-bench-"));
  try {
    const port = await freePort();
    const env = { PORT: String(port), DATA_DIR: dataDir, HOST: "127.0.0.1", LOG_LEVEL: "warn" };
    const results: Record<string, string> = {};

    let app = spawnApp(env);
    results["cold start to /readyz, fresh PGlite (ms)"] = (await waitForReady(app)).toFixed(0);
    app.child.kill("SIGTERM");
    await app.exited;
    app = spawnApp(env);
    results["start to /readyz, existing PGlite (ms)"] = (await waitForReady(app)).toFixed(0);

    const base = `http://127.0.0.1:${port}`;
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

    const rss = await fetch(`${base}/readyz`).then(() => app.child.pid);
    const status = await import("node:fs/promises").then((fs) =>
      fs.readFile(`/proc/${rss}/status`, "utf8").catch(() => ""),
    );
    const vmRss = status.match(/VmRSS:\s+(\d+) kB/)?.[1];
    if (vmRss) results["server RSS after the run (MB)"] = (Number(vmRss) / 1024).toFixed(0);

    app.child.kill("SIGTERM");
    await app.exited;
    return results;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
