import type { Config } from "./config";
import type { Database } from "./db/client";
import type { Planners } from "./engine/planners/choose";
import type { EventBus } from "./events/event-bus";
import type { Presence } from "./events/presence";
import type { Mailer } from "./integrations/mail/mailer";
import type { Vault } from "./integrations/vault";
import type { JobQueue } from "./jobs/queue";
import type { Logger } from "./lib/logger";
import type { TreeCache } from "./lib/tree-cache";
import type { TrackersPort } from "./services/exports/tracker";
import type { OllamaDetector } from "./services/model-providers/ollama";

/** What every service function receives: no HTTP, no globals. */
export type Deps = {
  config: Config;
  database: Database;
  db: Database["db"];
  log: Logger;
  events: EventBus;
  /** Who has each plan open now, across processes (issue 41). */
  presence: Presence;
  jobs: JobQueue;
  /** Which planner runs for whom: the user's own model, the environment's, the instance's, or none. */
  planners: Planners;
  /** A local Ollama found at start (OLLAMA_URL), offered in Settings; never used unless someone saves it. */
  ollama: OllamaDetector;
  vault: Vault;
  // Blog (issue 6): outgoing e-mail, and the key that signs unsubscribe links.
  mailer: Mailer;
  unsubscribeKey: Buffer;
  /** The trackers (JIRA, Trello, GitHub): export, sync and webhooks, one module each (exports/tracker.ts). */
  trackers: TrackersPort<Deps>;
  /** Whole-plan reads, built once per plan version (TREE_CACHE_MB). */
  treeCache: TreeCache;
};
