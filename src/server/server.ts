import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { createApp } from "./app";
import type { Config } from "./config";
import { openDatabase, type PGliteLease } from "./db/client";
import type { Deps } from "./deps";
import { failDecomposition } from "./engine/failed-jobs";
import { createPlanners } from "./engine/planners/choose";
import { registerDecomposition } from "./engine/register";
import { purgeMapCache } from "./engine/repository/github-map";
import { createEventBus } from "./events/event-bus";
import { createPresence } from "./events/presence";
import { createMailer } from "./integrations/mail/mailer";
import { checkVaultKey, createVault, loadVaultKey } from "./integrations/vault";
import { JobQueue } from "./jobs/queue";
import { createLogger, type Logger } from "./lib/logger";
import { purgeRateBudgets } from "./lib/rate-budget";
import type { StartupTimeline } from "./lib/startup-timeline";
import { createTreeCache } from "./lib/tree-cache";
import { closeMcpSessions } from "./mcp/route";
import { createWebSockets } from "./realtime/websocket";
import { purgeExpiredSessions } from "./services/auth/purge-expired-sessions";
import { registerBlog } from "./services/blog/notify";
import { deriveUnsubscribeKey } from "./services/blog/unsubscribe-token";
import { registerExports } from "./services/exports/runner";
import { TRACKERS } from "./services/exports/trackers";
import { createOllamaDetector } from "./services/model-providers/ollama";
import { expireClaims } from "./services/tasks/expire-claims";
import { trpcConnection } from "./trpc/websocket";

const EVENT_RETENTION_MS = 7 * 24 * 60 * 60_000;
const CLAIM_SWEEP_MS = 60_000;
const OLLAMA_PROBE_DELAY_MS = 1_000;

export type RunningServer = {
  url: string;
  port: number;
  deps: Deps;
  /** Stops accepting, lets in-flight requests finish (up to SHUTDOWN_TIMEOUT_MS), closes sockets and the database. */
  close(): Promise<void>;
};

export async function startServer(
  config: Config,
  opts: {
    log?: Logger;
    clientDir?: string;
    inMemoryDatabase?: boolean;
    pglite?: PGliteLease;
    /** Records where the start-up's time goes (main.ts logs it). */
    timeline?: StartupTimeline;
  } = {},
): Promise<RunningServer> {
  const log = opts.log ?? createLogger(config.LOG_LEVEL);
  const timeline = opts.timeline;
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    poolSize: config.DATABASE_POOL_SIZE,
    inMemory: opts.inMemoryDatabase,
    pglite: opts.pglite,
    timeline,
  });
  const events = await createEventBus(database, log);
  const presence = await createPresence(database, log);
  let deps: Deps;
  const jobs = new JobQueue(database, log.child({ component: "jobs" }), {
    // Twice as many jobs as model calls in flight (the planners hold calls to LLM_CONCURRENCY): a job's
    // database work overlaps other jobs' calls instead of keeping a call waiting (decision 026).
    concurrency: config.LLM_CONCURRENCY * 2,
    leaseMs: config.JOB_LEASE_MS,
    onFailed: (job, error) =>
      job.kind.startsWith("decompose.") ? failDecomposition(deps, job, error) : Promise.resolve(),
  });
  let vaultKey: Buffer;
  try {
    vaultKey = loadVaultKey({ keyBase64: config.CREDENTIALS_KEY, dataDir: config.DATA_DIR });
    await checkVaultKey(
      database.db,
      createVault(vaultKey),
      config.CREDENTIALS_KEY ? "CREDENTIALS_KEY" : "the data folder's credentials.key",
    );
  } catch (err) {
    await presence.close();
    await events.close();
    await database.close();
    throw err;
  }
  const vault = createVault(vaultKey);
  deps = {
    config,
    database,
    db: database.db,
    log,
    events,
    presence,
    jobs,
    planners: createPlanners({ config, db: database.db, vault, log }),
    ollama: createOllamaDetector(config, log.child({ component: "ollama" })),
    vault,
    // Blog (issue 6): e-mail through SMTP_URL or the mail_outbox table; signed unsubscribe links.
    mailer: createMailer(config, database, log.child({ component: "mail" })),
    unsubscribeKey: deriveUnsubscribeKey(config.BLOG_UNSUBSCRIBE_SECRET, vaultKey),
    trackers: { ...TRACKERS },
    treeCache: createTreeCache(config.TREE_CACHE_MB),
  };
  registerDecomposition(deps);
  registerExports(deps);
  registerBlog(deps); // blog: the "new post" e-mail job
  if (config.JOBS_ENABLED) await jobs.start();
  const app = createApp(deps, { clientDir: opts.clientDir });
  const sockets = await createWebSockets(deps, {
    trpc: (wss, track) => trpcConnection(deps, wss, track),
  });
  timeline?.mark("app");

  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve(
      {
        fetch: app.fetch,
        port: config.PORT,
        hostname: config.HOST,
        // How often Node enforces the request and header deadlines below (its default is 30 s).
        serverOptions: {
          connectionsCheckingInterval: Math.min(1000, config.HTTP_HEADERS_TIMEOUT_MS),
          requestTimeout: config.HTTP_REQUEST_TIMEOUT_MS,
          // Node requires the header deadline to fit within the whole-request deadline.
          headersTimeout: Math.min(config.HTTP_HEADERS_TIMEOUT_MS, config.HTTP_REQUEST_TIMEOUT_MS),
          keepAliveTimeout: config.HTTP_KEEP_ALIVE_TIMEOUT_MS,
        },
      },
      () => resolve(s),
    );
    s.once("error", reject);
  });
  // Limits on what strangers can make the process hold (decision 007): open connections, and a client
  // that trickles its request is answered 408 and disconnected after HTTP_REQUEST_TIMEOUT_MS.
  server.maxConnections = config.MAX_CONNECTIONS;
  server.on("clientError", (err: Error & { code?: string }, socket) => {
    log.debug("client connection error", { code: err.code });
    // As Node's own default does: answer if nothing was sent yet, then drop the connection (end() would
    // wait for a client that is, by definition here, not cooperating).
    if (socket.writable && socket.bytesWritten === 0) {
      const status = err.code === "ERR_HTTP_REQUEST_TIMEOUT" ? "408 Request Timeout" : "400 Bad Request";
      socket.write(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    }
    socket.destroy();
  });
  server.on("upgrade", sockets.handleUpgrade);
  timeline?.mark("listen");
  // Looks for a local Ollama in the background once the server is up: the probe's first fetch loads
  // Node's HTTP client, CPU that the first requests after a start should not wait behind (decision 026).
  const ollamaProbe = setTimeout(() => void deps.ollama.detect(), OLLAMA_PROBE_DELAY_MS);
  ollamaProbe.unref();
  const port = (server.address() as AddressInfo).port;
  const host = config.HOST === "0.0.0.0" || config.HOST === "::" ? "127.0.0.1" : config.HOST;

  const housekeeping = setInterval(() => {
    purgeExpiredSessions(deps).catch((err) => log.warn("session purge failed", { err }));
    events
      .purgeOlderThan(new Date(Date.now() - EVENT_RETENTION_MS))
      .catch((err) => log.warn("event purge failed", { err }));
    purgeMapCache(deps).catch((err) => log.warn("repository map cache purge failed", { err }));
    purgeRateBudgets(deps.db).catch((err) => log.warn("rate budget purge failed", { err }));
  }, 60 * 60_000);
  housekeeping.unref();
  // Claims that ran out are ended, and said so in their plans' activity, within a minute (issue 41).
  const claimSweep = setInterval(() => {
    expireClaims(deps).catch((err) => log.warn("claim sweep failed", { err }));
  }, CLAIM_SWEEP_MS);
  claimSweep.unref();

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      clearInterval(housekeeping);
      clearInterval(claimSweep);
      clearTimeout(ollamaProbe);
      const httpClosed = new Promise<void>((resolve) => server.close(() => resolve()));
      if ("closeIdleConnections" in server) server.closeIdleConnections();
      // Running decompositions are handed back to the queue so another process (or the next start) resumes them.
      await jobs.stop();
      await sockets.close();
      // MCP sessions hold a stream open each (decision 029): ended, so the HTTP server can close.
      await closeMcpSessions(deps);
      const timer = setTimeout(() => {
        if ("closeAllConnections" in server) server.closeAllConnections();
      }, config.SHUTDOWN_TIMEOUT_MS);
      await httpClosed;
      clearTimeout(timer);
      await presence.close();
      await events.close();
      deps.mailer.close();
      await database.close();
    })();
    return closing;
  };

  return { url: `http://${host}:${port}`, port, deps, close };
}
