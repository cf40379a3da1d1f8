import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type AppProcess, spawnApp, waitForReady } from "./process";
import { freePort, startTestServer, type TestServer, testDatabaseUrl } from "./server";

/**
 * Two processes on one PostgreSQL, for the suites that check what crosses between them (LISTEN/NOTIFY):
 * a test server in this process, and the app spawned as its own process on the same database, with the
 * credentials key every process sharing a database must share. PGlite has one process: these suites run
 * in the PostgreSQL pass only (*.pg.test.ts).
 */
export function twoProcesses(name: string, env: Record<string, string> = {}) {
  const dataDir = mkdtempSync(path.join(tmpdir(), `atomize-${name}-`));
  const CREDENTIALS_KEY = Buffer.alloc(32, 9).toString("base64");
  let server: TestServer | undefined;
  let other: AppProcess | undefined;
  return {
    async start(): Promise<{ server: TestServer; other: AppProcess }> {
      if (!testDatabaseUrl) throw new Error("TEST_DATABASE_URL must point at PostgreSQL for this suite");
      server = await startTestServer({ ...env, CREDENTIALS_KEY });
      other = spawnApp({
        HOST: "127.0.0.1",
        PORT: String(await freePort()),
        DATABASE_URL: server.deps.config.DATABASE_URL!,
        DATA_DIR: dataDir,
        JOBS_ENABLED: "false",
        OLLAMA_URL: "",
        ...env,
        CREDENTIALS_KEY,
      });
      await waitForReady(other);
      return { server, other };
    },
    async stop() {
      if (other && other.child.exitCode === null) {
        other.child.kill("SIGTERM");
        await other.exited;
      }
      await server?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
