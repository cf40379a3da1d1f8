import { githubTracker } from "./github/tracker";
import { jiraTracker } from "./jira/tracker";
import type { Trackers } from "./tracker-deps";
import { trelloTracker } from "./trello/tracker";

/**
 * The trackers Atomize exports to and syncs with, by kind (shared/schemas/integrations.ts `EXPORT_KINDS`).
 * server.ts puts a copy in Deps; the services reach a tracker only through `deps.trackers[kind]`.
 */
export const TRACKERS: Trackers = { jira: jiraTracker, trello: trelloTracker, github: githubTracker };
