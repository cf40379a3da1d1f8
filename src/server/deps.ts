import type { Config } from "./config";
import type { Database } from "./db/client";
import type { Planner } from "./decomposition/planner";
import type { Mailer } from "./integrations/mail/mailer";
import type { Vault } from "./integrations/vault";
import type { JobQueue } from "./jobs/queue";
import type { Logger } from "./lib/logger";
import type { EventBus } from "./realtime/event-bus";

/** What every service function receives: no HTTP, no globals. */
export type Deps = {
  config: Config;
  database: Database;
  db: Database["db"];
  log: Logger;
  events: EventBus;
  jobs: JobQueue;
  planner: Planner;
  vault: Vault;
  // Blog (issue 6): outgoing e-mail, and the key that signs unsubscribe links.
  mailer: Mailer;
  unsubscribeKey: Buffer;
};
