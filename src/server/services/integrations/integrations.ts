import { eq } from "drizzle-orm";
import type { z } from "zod";
import {
  type GeneralSettings,
  GITHUB_TOKEN_SCOPES,
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
import type { UserRow } from "../auth/sessions";
import { deleteCredential, maskHint, readCredential, saveCredential } from "./credentials";

const TIMEOUT = 10_000;

export function generalSettingsOf(user: UserRow): GeneralSettings {
  return { darkMode: user.settings?.darkMode ?? false, notifications: user.settings?.notifications ?? true };
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

async function call(
  url: string,
  init: RequestInit,
): Promise<{ status: number; body: unknown; headers: Headers } | null> {
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT), redirect: "error" });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      // plain text
    }
    return { status: res.status, body, headers: res.headers };
  } catch {
    return null;
  }
}

/** POST /trello/credentials: checked against Trello, then stored encrypted. */
export async function saveTrelloCredentials(
  deps: Deps,
  userId: string,
  input: z.output<typeof trelloCredentialsInput>,
) {
  const url = new URL("/1/members/me", deps.config.TRELLO_API_URL);
  url.searchParams.set("key", input.api_key);
  url.searchParams.set("token", input.token);
  url.searchParams.set("fields", "username,fullName");
  const res = await call(url.href, { headers: { accept: "application/json" } });
  if (!res) throw new AppError("SERVICE_UNAVAILABLE", "Trello could not be reached. Please try again later.");
  if (res.status === 401)
    throw new AppError(
      "BAD_REQUEST",
      "Trello rejected the API key or token. Check both in your Trello developer settings.",
    );
  if (res.status !== 200)
    throw new AppError("SERVICE_UNAVAILABLE", `Trello answered ${res.status}. Please try again later.`);
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

/** POST /jira/credentials: the site must be allowed, the account must answer /myself. */
export async function saveJiraCredentials(
  deps: Deps,
  userId: string,
  input: z.output<typeof jiraCredentialsInput>,
) {
  const origin = jiraSiteOrigin(input.jira_url, deps.config.JIRA_ALLOWED_ORIGINS);
  const res = await call(`${origin}/rest/api/3/myself`, {
    headers: {
      accept: "application/json",
      authorization: `Basic ${Buffer.from(`${input.user_email}:${input.api_token}`).toString("base64")}`,
    },
  });
  if (!res)
    throw new AppError(
      "SERVICE_UNAVAILABLE",
      "Your JIRA site could not be reached. Check the URL and try again.",
    );
  if (res.status === 401 || res.status === 403) {
    throw new AppError(
      "BAD_REQUEST",
      "JIRA rejected the email or API token. Create a token at id.atlassian.com and try again.",
    );
  }
  if (res.status !== 200)
    throw new AppError("SERVICE_UNAVAILABLE", `JIRA answered ${res.status}. Please try again later.`);
  await saveCredential(
    deps,
    userId,
    "jira",
    { user_email: input.user_email, api_token: input.api_token },
    { jira_url: origin, user_email: input.user_email, account_id: input.account_id },
  );
  return (await integrationStatus(deps, userId)).jira;
}

export async function deleteIntegration(deps: Deps, userId: string, provider: "trello" | "jira") {
  await deleteCredential(deps, userId, provider);
  return integrationStatus(deps, userId);
}

type GithubUser = { login: string; public_repos?: number };

async function githubUser(deps: Deps, token: string) {
  return call(`${deps.config.GITHUB_API_URL.replace(/\/$/, "")}/user`, {
    headers: {
      accept: "application/vnd.github+json",
      authorization: `Bearer ${token}`,
      "user-agent": "Atomize",
      "x-github-api-version": "2022-11-28",
    },
  });
}

/** POST /github/connect: the token is checked against GET /user; a classic token must carry repo and read:user. */
export async function connectGithub(
  deps: Deps,
  user: UserRow,
  input: z.output<typeof githubConnectInput>,
): Promise<GithubStatus> {
  const res = await githubUser(deps, input.access_token);
  if (!res) throw new AppError("SERVICE_UNAVAILABLE", "GitHub could not be reached. Please try again later.");
  if (res.status === 401)
    throw new AppError("BAD_REQUEST", "GitHub rejected the token (Bad credentials). Check it and try again.");
  if (res.status === 403 || res.status === 429) {
    throw new AppError(
      "SERVICE_UNAVAILABLE",
      "GitHub's rate limit was reached. Please try again in a few minutes.",
    );
  }
  if (res.status !== 200)
    throw new AppError("SERVICE_UNAVAILABLE", `GitHub answered ${res.status}. Please try again later.`);
  const header = res.headers.get("x-oauth-scopes");
  const scopes =
    header === null
      ? null
      : header
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean);
  // Classic tokens list their scopes; `repo` implies every repo scope. Fine-grained tokens list none.
  const missing =
    scopes === null
      ? []
      : GITHUB_TOKEN_SCOPES.filter(
          (s) => !scopes.includes(s) && !(s === "read:user" && scopes.includes("user")),
        );
  if (missing.length) {
    throw new AppError(
      "BAD_REQUEST",
      `The token is missing these scopes: ${missing.join(", ")}. It needs repo and read:user.`,
    );
  }
  const me = res.body as GithubUser;
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
  const res = await githubUser(deps, stored.secret.token);
  if (res?.status !== 200) return { connected: false, user: null, missing_scopes: [] };
  const me = res.body as GithubUser;
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
