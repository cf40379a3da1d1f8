import { randomBytes } from "node:crypto";
import { createWriteStream, mkdtempSync, rmSync, type WriteStream } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { loadConfig } from "../../src/server/config";
import { createLogger, type Logger } from "../../src/server/lib/logger";
import { type RunningServer, startServer } from "../../src/server/server";
import { PGLITE_DUMP_ENV, seedPgliteDataDir, TEMPLATE_DB_ENV } from "./database-template";
import { leasePglite } from "./pglite-pool";

/** Which database the integration suite runs on: PGlite by default, PostgreSQL when TEST_DATABASE_URL is set. */
export const testDatabaseUrl = process.env.TEST_DATABASE_URL || undefined;
export const databaseKind = testDatabaseUrl ? "postgres" : "pglite";

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * A fresh PostgreSQL database on the test server, dropped again by the returned function. In a vitest
 * run of the PostgreSQL pass it is a copy of the run's migrated template (tests/support/database-template.ts),
 * so the server's own migration has nothing left to do; elsewhere (benchmarks), or with `empty`, it starts
 * with no tables.
 */
export async function createScratchDatabase(
  baseUrl: string,
  opts: { empty?: boolean } = {},
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `atomize_t_${randomBytes(6).toString("hex")}`;
  const template = opts.empty ? undefined : process.env[TEMPLATE_DB_ENV];
  if (template !== undefined && !/^atomize_template_[0-9a-f]+$/.test(template)) {
    throw new Error(`unexpected ${TEMPLATE_DB_ENV}: ${template}`);
  }
  const admin = postgres(baseUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(template ? `create database ${name} template ${template}` : `create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const a = postgres(baseUrl, { max: 1, onnotice: () => {} });
      await a.unsafe(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
}

/**
 * With ATOMIZE_LOG_CAPTURE_DIR set (scripts/test-all.sh sets it), every test server logs at debug level
 * into that folder, and scripts/check-logs.mjs then proves no secret was logged during the whole run.
 */
let captureStream: WriteStream | undefined;
export function testLogger(level: Parameters<typeof createLogger>[0]): Logger {
  const dir = process.env.ATOMIZE_LOG_CAPTURE_DIR;
  if (!dir) return createLogger(level);
  captureStream ??= createWriteStream(
    path.join(dir, `vitest-${process.pid}-${randomBytes(4).toString("hex")}.log`),
    {
      flags: "a",
    },
  );
  const stream = captureStream;
  return createLogger("debug", {}, (line) => stream.write(`${line}\n`));
}

export type TestServer = RunningServer & { stop(): Promise<void>; dataDir: string };

/**
 * Starts the real server (HTTP + WebSocket) on a free port with its own database: an in-memory PGlite
 * or a scratch PostgreSQL database. `env` overrides configuration as the environment would.
 */
export async function startTestServer(
  env: Record<string, string> = {},
  opts: { clientDir?: string; dataDir?: string; keepData?: boolean; databaseUrl?: string | null } = {},
): Promise<TestServer> {
  const port = await freePort();
  // `databaseUrl: null` forces PGlite; a URL forces PostgreSQL; by default TEST_DATABASE_URL decides.
  const postgresUrl = opts.databaseUrl === undefined ? testDatabaseUrl : (opts.databaseUrl ?? undefined);
  const scratch = postgresUrl ? await createScratchDatabase(postgresUrl) : undefined;
  const dataDir = opts.dataDir ?? mkdtempSync(path.join(tmpdir(), "atomize-test-"));
  // A data folder given without a database yet starts from a copy of the run's migrated one, as if the
  // app had started there once (creating a PGlite cluster is the slowest part of a start).
  if (opts.dataDir && !postgresUrl) seedPgliteDataDir(opts.dataDir);
  const config = loadConfig({
    NODE_ENV: "test",
    PORT: String(port),
    HOST: "127.0.0.1",
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    LOG_LEVEL: "silent",
    DATABASE_URL: scratch?.url,
    SHUTDOWN_TIMEOUT_MS: "2000",
    // Every suite registers its users from 127.0.0.1; the suites of these limits set their own values.
    REGISTRATIONS_PER_IP_PER_HOUR: "100000",
    ANONYMOUS_WRITES_PER_IP_PER_HOUR: "100000",
    // No probe of a real local Ollama; the suites of the detection point OLLAMA_URL at a fake.
    OLLAMA_URL: "",
    // GitHub's own pause between writes is a second; a 20-issue export would spend most of a test on it.
    // tests/integration/github-client.test.ts checks the pacing itself.
    GITHUB_WRITE_INTERVAL_MS: "20",
    // Suites read one plan many times in a row; the pace on one client's whole-plan requests (10 a second
    // by default) would add up to most of a minute. tests/integration/tree-cache.db.test.ts checks the pace.
    HEAVY_REQUESTS_PER_SECOND: "1000",
    // The suite's client shares this process's event loop with the server and PGlite: a long synchronous
    // stretch (PGlite inserting thousands of rows) could let the server's idle timer close a kept-alive
    // socket just as the client reuses it (ECONNRESET, "fetch failed"). Idle sockets stay open longer here.
    HTTP_KEEP_ALIVE_TIMEOUT_MS: "60000",
    // Every answer is checked against its operation's output schema (operations/invoke.ts).
    CHECK_OPERATION_OUTPUTS: "true",
    ...env,
  });
  const inMemoryDatabase = !scratch && !opts.dataDir;
  const server = await startServer(config, {
    log: testLogger(config.LOG_LEVEL),
    clientDir: opts.clientDir ?? path.join(dataDir, "no-client"),
    inMemoryDatabase,
    // In a vitest run, a pooled copy of the run's migrated database (tests/support/pglite-pool.ts).
    pglite: inMemoryDatabase && process.env[PGLITE_DUMP_ENV] ? await leasePglite() : undefined,
  });
  return {
    ...server,
    dataDir,
    async stop() {
      await server.close();
      await scratch?.drop();
      if (!opts.keepData && !opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
