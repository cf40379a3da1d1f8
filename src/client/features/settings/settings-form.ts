import { jiraCredentialsInput, trelloCredentialsInput } from "../../../shared/schemas/integrations";
import { type FieldErrors, schemaFieldErrors } from "../../lib/field-errors";

/** The Integrations tab's editable values (secrets are typed in, never loaded from anywhere). */
export type IntegrationsForm = {
  trello: { enabled: boolean; apiKey: string; token: string };
  jira: { enabled: boolean; jiraUrl: string; userEmail: string; apiToken: string; accountId: string };
};

export type TrelloField = "apiKey" | "token";
export type JiraField = "jiraUrl" | "userEmail" | "apiToken" | "accountId";
export type IntegrationErrors = { trello: FieldErrors<TrelloField>; jira: FieldErrors<JiraField> };
export const NO_INTEGRATION_ERRORS: IntegrationErrors = { trello: {}, jira: {} };

/** trelloCredentialsInput's and jiraCredentialsInput's paths (the server's 422s too) to the form's fields. */
export const TRELLO_FIELDS: Record<string, TrelloField> = { api_key: "apiKey", token: "token" };
export const JIRA_FIELDS: Record<string, JiraField> = {
  jira_url: "jiraUrl",
  user_email: "userEmail",
  api_token: "apiToken",
  account_id: "accountId",
};

/** The fields' element ids, in the form's order. */
export const TRELLO_FIELD_IDS: Record<TrelloField, string> = {
  apiKey: "trello-api-key",
  token: "trello-token",
};
export const JIRA_FIELD_IDS: Record<JiraField, string> = {
  jiraUrl: "jira-url",
  userEmail: "jira-email",
  apiToken: "jira-api-token",
  accountId: "jira-account-id",
};

export type CredentialsToSend = {
  trello?: { api_key: string; token: string };
  jira?: { jira_url: string; user_email: string; api_token: string; account_id: string };
};

/**
 * Trello credentials are sent on save only when enabled and both key and token are filled;
 * JIRA only when enabled and all four of url, email, token and account id are filled.
 */
export function credentialsToSend(form: IntegrationsForm): CredentialsToSend {
  const out: CredentialsToSend = {};
  const t = {
    apiKey: form.trello.apiKey.trim(),
    token: form.trello.token.trim(),
  };
  if (form.trello.enabled && t.apiKey && t.token) out.trello = { api_key: t.apiKey, token: t.token };
  const j = {
    jira_url: form.jira.jiraUrl.trim(),
    user_email: form.jira.userEmail.trim(),
    api_token: form.jira.apiToken.trim(),
    account_id: form.jira.accountId.trim(),
  };
  if (form.jira.enabled && j.jira_url && j.user_email && j.api_token && j.account_id) out.jira = j;
  return out;
}

/** What an enabled but unconnected integration still needs, for a hint under its fields (null: nothing). */
export function missingCredentialsHint(
  kind: "trello" | "jira",
  form: IntegrationsForm,
  connected: boolean,
): string | null {
  if (kind === "trello") {
    const f = form.trello;
    if (!f.enabled || connected) return null;
    return f.apiKey.trim() && f.token.trim()
      ? null
      : "Enter both the API key and the token to connect Trello.";
  }
  const f = form.jira;
  // Connected: the stored connection stays until all four are entered again (the token is never shown).
  if (!f.enabled || connected) return null;
  const filled = [f.jiraUrl, f.userEmail, f.apiToken, f.accountId].every((v) => v.trim() !== "");
  return filled ? null : "Fill in all four fields to connect JIRA.";
}

/** The credentials about to be sent, checked with the schemas the server saves them with. */
export function credentialErrors(plan: CredentialsToSend): IntegrationErrors {
  return {
    trello: plan.trello ? schemaFieldErrors(trelloCredentialsInput, plan.trello, TRELLO_FIELDS) : {},
    jira: plan.jira ? schemaFieldErrors(jiraCredentialsInput, plan.jira, JIRA_FIELDS) : {},
  };
}
