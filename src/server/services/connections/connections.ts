import type { Deps } from "../../deps";
import { githubClient, INTERACTIVE_RATE_LIMIT_WAIT_MS } from "../../integrations/github/client";
import { createHttpClient } from "../../integrations/http-client";
import { connectJira } from "../../integrations/jira/connection";
import { trelloAuthorization } from "../../integrations/trello/auth";
import { trelloBudgets } from "../../integrations/trello/budgets";
import { outboundFetch } from "../../lib/outbound/fetch";

const TIMEOUT = 10_000;

/** Trello for what a person waits on: the key and token in Trello's OAuth header, no retries. */
export function trelloFor(deps: Deps, key: string, token: string, refused: string) {
  return createHttpClient({
    fetch: outboundFetch(deps.config, "user"),
    baseUrl: deps.config.TRELLO_API_URL,
    headers: { authorization: trelloAuthorization(key, token) },
    shared: trelloBudgets(deps, token, undefined, "refuse"),
    concurrency: 1,
    retries: 0,
    timeoutMs: TIMEOUT,
    unreachable: "Trello could not be reached. Please try again later.",
    describe: (status) =>
      status === 401
        ? { code: "BAD_REQUEST", message: refused }
        : `Trello answered ${status}. Please try again later.`,
  });
}

/** A classic token on the site, or a scoped one through Atlassian's gateway (jira/connection.ts), for what a person waits on. */
export function jiraFor(deps: Deps, site: string, email: string, token: string) {
  return connectJira({
    fetch: outboundFetch(deps.config, "user"),
    site,
    email,
    token,
    gateway: deps.config.ATLASSIAN_API_URL,
    concurrency: 2,
    retries: 0,
    timeoutMs: TIMEOUT,
    unreachable: "Your JIRA site could not be reached. Check the URL and try again.",
    describe: (status) =>
      status === 401 || status === 403
        ? {
            code: "BAD_REQUEST",
            message:
              "JIRA rejected the email or API token. Create a token at id.atlassian.com and try again.",
          }
        : `JIRA answered ${status}. Please try again later.`,
  });
}

/** Projects listed at most, for picking one to export into. */
export const JIRA_PROJECTS_MAX = 200;

/** GET /user through the one GitHub client; what a person waits on waits at most a few seconds for a rate limit. */
export function githubUser(deps: Deps, token: string) {
  return githubClient(deps, token, {
    maxRateLimitWaitMs: INTERACTIVE_RATE_LIMIT_WAIT_MS,
  }).rest.users.getAuthenticated();
}
