import type { Config } from "./config";
import type { Database } from "./db/client";
import type { Logger } from "./lib/logger";

/** What every service function receives: no HTTP, no globals. */
export type Deps = {
  config: Config;
  database: Database;
  db: Database["db"];
  log: Logger;
};
