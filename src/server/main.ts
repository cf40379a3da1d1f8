import { ConfigError, loadConfig } from "./config";
import { VaultError } from "./integrations/vault";
import { installLastResortHandlers } from "./lib/last-resort";
import { createLogger } from "./lib/logger";
import { createStartupTimeline } from "./lib/startup-timeline";
import { startServer } from "./server";

const timeline = createStartupTimeline();
let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (err) {
  if (err instanceof ConfigError) {
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
  throw err;
}

const log = createLogger(config.LOG_LEVEL);
timeline.mark("config");

let server: Awaited<ReturnType<typeof startServer>>;
try {
  server = await startServer(config, { log, timeline });
} catch (err) {
  // A problem the operator must fix (a damaged or mismatched key): one readable line, then stop.
  if (err instanceof VaultError) process.stderr.write(`${err.message}\n`);
  else log.error("start-up failed", { err });
  process.exit(1);
}

installLastResortHandlers(log);

log.info("atomize listening", {
  url: `http://localhost:${server.port}`,
  database: server.deps.database.driver,
  google: config.googleEnabled,
  // Milliseconds since the process began, by phase (decision 025); bench/startup.ts reads them.
  startup: timeline.phases(),
});

let stopping = false;
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    log.info("shutting down", { signal });
    server.close().then(
      () => process.exit(0),
      (err) => {
        log.error("shutdown failed", { err });
        process.exit(1);
      },
    );
  });
}
