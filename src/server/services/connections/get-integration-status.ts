import type { IntegrationStatus } from "../../../shared/schemas/integrations";
import type { Deps } from "../../deps";
import { maskHint, readCredential } from "../../integrations/credentials";

export async function getIntegrationStatus(deps: Deps, userId: string): Promise<IntegrationStatus> {
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
