import type { Logger } from "./logger";

/**
 * Last resort, installed once the server is serving: a bug that escapes every handler is logged loudly
 * (an error line to fix) and the process keeps serving everyone else instead of ending for all of them.
 * Sockets and requests each have their own handlers first; this is never the way errors are handled.
 */
export function installLastResortHandlers(log: Logger): void {
  process.on("uncaughtException", (err, origin) => {
    log.error("uncaught exception (still serving)", { origin, err });
  });
  process.on("unhandledRejection", (reason) => {
    log.error("unhandled promise rejection (still serving)", {
      err: reason instanceof Error ? reason : new Error(String(reason)),
    });
  });
}
