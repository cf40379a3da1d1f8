import { eq } from "drizzle-orm";
import type { z } from "zod";
import {
  type GeneralSettings,
  GITHUB_WRITE_SCOPES,
  type GithubStatus,
  type generalSettingsInput,
  type githubConnectInput,
  type IntegrationStatus,
  type jiraCredentialsInput,
  type trelloCredentialsInput,
} from "../../../shared/schemas/integrations";
import { users } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { jiraSiteOrigin } from "../../integrations/allowed-origin";
import { deleteCredential, maskHint, readCredential, saveCredential } from "../../integrations/credentials";
import { githubClient, INTERACTIVE_RATE_LIMIT_WAIT_MS } from "../../integrations/github/client";
import { createHttpClient } from "../../integrations/http-client";
import { connectJira } from "../../integrations/jira/connection";
import { trelloAuthorization } from "../../integrations/trello/auth";
import { trelloBudgets } from "../../integrations/trello/budgets";
import { outboundFetch } from "../../lib/outbound/fetch";
import type { UserRow } from "../auth/sessions";

const TIMEOUT = 10_000;

export function generalSettingsOf(user: UserRow): GeneralSettings {
  return {
    darkMode: user.settings?.darkMode ?? false,
    notifications: user.settings?.notifications ?? true,
    // Checking what was read before planning is the default (issue 38).
    reviewReading: user.settings?.reviewReading ?? true,
  };
}

export async function updateGeneralSettings(
  deps: Deps,
  user: UserRow,
  input: z.output<typeof generalSettingsInput>,
): Promise<GeneralSettings> {
  const settings = { ...generalSettingsOf(user), ...input };
  await deps.db.update(users).set({ settings, updatedAt: new Date() }).where(eq(users.id, user.id));
  return settings;
}

export async function integrationStatus(deps: Deps, userId: string): Promise<IntegrationStatus> {
  const [trello, jira, github] = await Promise.all([
    readCredential<{ api_key: string }>(deps, userId, "trello"),
    readCredential(deps, userId, "jira"),
    readCredential(deps, userId, "github"),
  ]);
  return {
    trello: {
      connected: Boolean(trello),
      api_key_hint: trello ? maskHint(trello.secret.api_key) : null,
      username: (trello?.publicData.username as string | undefined) ?? null,
      updated_at: trello?.updatedAt.toISOString() ?? null,
    },
    jira: {
      connected: Boolean(jira),
      jira_url: (jira?.publicData.jira_url as string | undefined) ?? null,
      user_email: (jira?.publicData.user_email as string | undefined) ?? null,
      account_id: (jira?.publicData.account_id as string | undefined) ?? null,
      updated_at: jira?.updatedAt.toISOString() ?? null,
    },
    github: {
      connected: Boolean(github),
      login: (github?.publicData.login as string | undefined) ?? null,
      public_repos: (github?.publicData.public_repos as number | undefined) ?? null,
      scopes: (github?.publicData.scopes as string[] | undefined) ?? null,
      updated_at: github?.updatedAt.toISOString() ?? null,
    },
  };
}

/** Trello for what a person waits on: the key and token in Trello's OAuth header, no retries. */
function trelloFor(deps: Deps, key: string, token: string, refused: string) {
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

/** POST /trello/credentials: checked against Trello, then stored encrypted. */
export async function saveTrelloCredentials(
  deps: Deps,
  userId: string,
  input: z.output<typeof trelloCredentialsInput>,
) {
  // The key and token as the exports send them (integrations/trello/auth.ts): Trello's OAuth header,
  // never the query string, so the token is in no URL. tests/integration/exports-trello-site.test.ts
  // checks that this check and the export present them the same way.
  const trello = trelloFor(
    deps,
    input.api_key,
    input.token,
    "Trello rejected the API key or token. Check both in your Trello developer settings.",
  );
  const res = await trello.request("GET", "/1/members/me", {
    query: { fields: "username,fullName" },
  });
  const me = res.body as { username?: string };
  await saveCredential(
    deps,
    userId,
    "trello",
    { api_key: input.api_key, token: input.token },
    { username: me.username ?? null },
  );
  return (await integrationStatus(deps, userId)).trello;
}

/** A classic token on the site, or a scoped one through Atlassian's gateway (jira/connection.ts), for what a person waits on. */
function jiraFor(deps: Deps, site: string, email: string, token: string) {
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

/** GET /trello/boards: the open boards of the stored Trello connection, to export into one of them. */
export async function trelloBoards(
  deps: Deps,
  userId: string,
): Promise<{ boards: { id: string; name: string; url: string }[] }> {
  const stored = await readCredential<{ api_key: string; token: string }>(deps, userId, "trello");
  if (!stored)
    throw new AppError("UNPROCESSABLE_CONTENT", "Connect Trello in Settings first to list your boards.");
  const trello = trelloFor(
    deps,
    stored.secret.api_key,
    stored.secret.token,
    "Trello rejected the stored key or token. Save them again in Settings.",
  );
  const res = await trello.request<Array<{ id?: unknown; name?: unknown; url?: unknown }>>(
    "GET",
    "/1/members/me/boards",
    { query: { filter: "open", fields: "name,url" } },
  );
  const boards = (Array.isArray(res.body) ? res.body : [])
    .filter((b) => typeof b.id === "string" && typeof b.name === "string" && typeof b.url === "string")
    .slice(0, 200)
    .map((b) => ({ id: b.id as string, name: b.name as string, url: b.url as string }));
  return { boards };
}

/** Projects listed at most, for picking one to export into. */
export const JIRA_PROJECTS_MAX = 200;

/** GET /jira/projects: the projects the stored JIRA connection can see, to export into one of them. */
export async function jiraProjects(
  deps: Deps,
  userId: string,
): Promise<{ projects: { key: string; name: string }[]; truncated: boolean }> {
  const stored = await readCredential<{ user_email: string; api_token: string }>(deps, userId, "jira");
  if (!stored)
    throw new AppError("UNPROCESSABLE_CONTENT", "Connect JIRA in Settings first to list your projects.");
  const site = jiraSiteOrigin(
    String(stored.publicData.jira_url),
    deps.config.JIRA_ALLOWED_ORIGINS,
    deps.config,
  );
  const { jira } = await jiraFor(deps, site, stored.secret.user_email, stored.secret.api_token);
  const projects: { key: string; name: string }[] = [];
  let last = false;
  for (let startAt = 0; !last && projects.length < JIRA_PROJECTS_MAX; ) {
    const page = await jira.request<{ values?: Array<{ key?: unknown; name?: unknown }>; isLast?: boolean }>(
      "GET",
      "/rest/api/3/project/search",
      { query: { startAt, maxResults: 100, orderBy: "key" } },
    );
    const values = page.body.values ?? [];
    for (const v of values)
      if (typeof v.key === "string" && typeof v.name === "string")
        projects.push({ key: v.key, name: v.name });
    startAt += values.length;
    last = page.body.isLast !== false || values.length === 0;
  }
  return { projects: projects.slice(0, JIRA_PROJECTS_MAX), truncated: !last };
}

/** POST /jira/credentials: the site must be allowed, the account must answer /myself. */
export async function saveJiraCredentials(
  deps: Deps,
  userId: string,
  input: z.output<typeof jiraCredentialsInput>,
) {
  const origin = jiraSiteOrigin(input.jira_url, deps.config.JIRA_ALLOWED_ORIGINS, deps.config);
  const connection = await jiraFor(deps, origin, input.user_email, input.api_token);
  await saveCredential(
    deps,
    userId,
    "jira",
    { user_email: input.user_email, api_token: input.api_token },
    {
      jira_url: origin,
      user_email: input.user_email,
      account_id: input.account_id,
      scoped_token: connection.cloudId !== null,
    },
  );
  return (await integrationStatus(deps, userId)).jira;
}

export async function deleteIntegration(deps: Deps, userId: string, provider: "trello" | "jira") {
  await deleteCredential(deps, userId, provider);
  return integrationStatus(deps, userId);
}

/** GET /user through the one GitHub client; what a person waits on waits at most a few seconds for a rate limit. */
function githubUser(deps: Deps, token: string) {
  return githubClient(deps, token, {
    maxRateLimitWaitMs: INTERACTIVE_RATE_LIMIT_WAIT_MS,
  }).rest.users.getAuthenticated();
}

/** POST /github/connect: the token is checked against GET /user; a classic token must carry repo and read:user. */
export async function connectGithub(
  deps: Deps,
  user: UserRow,
  input: z.output<typeof githubConnectInput>,
): Promise<GithubStatus> {
  // Failures are AppErrors worded for this page (client.ts): a refused token is a bad request, the rest
  // (rate limits, outages) are GitHub being unavailable.
  const res = await githubUser(deps, input.access_token);
  const header = res.headers["x-oauth-scopes"];
  const scopes =
    header === undefined
      ? null
      : header
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean);
  // Classic tokens list their scopes: writing issues needs `repo`, or `public_repo` for public
  // repositories (each export checks its repository). Fine-grained tokens list none: what they may do is
  // per repository, and an export says which permission a refusal named (github/exporter.ts).
  if (scopes !== null && !GITHUB_WRITE_SCOPES.some((s) => scopes.includes(s))) {
    throw new AppError(
      "BAD_REQUEST",
      "The token cannot write issues: it needs the repo scope (or public_repo, for public repositories only).",
    );
  }
  const me = res.data;
  await saveCredential(
    deps,
    user.id,
    "github",
    { token: input.access_token },
    {
      login: me.login,
      public_repos: me.public_repos ?? 0,
      scopes,
    },
  );
  return {
    connected: true,
    user: { login: me.login, username: me.login, public_repos: me.public_repos ?? 0 },
    missing_scopes: [],
  };
}

/** GET /github/status: a live check; a token GitHub no longer accepts counts as not connected. */
export async function githubStatus(deps: Deps, user: UserRow): Promise<GithubStatus> {
  const stored = await readCredential<{ token: string }>(deps, user.id, "github");
  if (!stored) return { connected: false, user: null, missing_scopes: [] };
  const me = await githubUser(deps, stored.secret.token).then(
    (res) => res.data,
    () => null,
  );
  if (!me) return { connected: false, user: null, missing_scopes: [] };
  return {
    connected: true,
    user: { login: me.login, username: me.login, public_repos: me.public_repos ?? 0 },
    missing_scopes: [],
  };
}

export async function disconnectGithub(deps: Deps, user: UserRow) {
  const stored = await readCredential(deps, user.id, "github");
  if (!stored) throw new AppError("NOT_FOUND", "No GitHub account is connected");
  await deleteCredential(deps, user.id, "github");
  return { detail: "GitHub account disconnected" };
}
