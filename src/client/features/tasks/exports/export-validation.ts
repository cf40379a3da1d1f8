import { parseGithubRepository, parseGithubRepoUrl } from "../../../../shared/github-names";
import {
  JIRA_KEY_MAX,
  JIRA_KEY_PATTERN,
  type JiraExportConfig,
  jiraCredentialsInput,
  jiraExportConfig,
  TRELLO_BOARD_NAME_MAX,
} from "../../../../shared/schemas/integrations";
import { type FieldErrors, schemaFieldErrors } from "../../../lib/field-errors";

/** The default project key is the product name in capitals. */
export const DEFAULT_JIRA_KEY = "ATOMIZE";

export const JIRA_KEY_FORMAT_HINT = "Invalid format: use only uppercase letters and numbers";

/** The key input strips other characters, uppercases and caps at the key's maximum length. */
export function sanitizeProjectKey(input: string): string {
  return input
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, "")
    .slice(0, JIRA_KEY_MAX);
}

/** The inline hint under the key input: shown while the key does not match the schema's pattern. */
export function projectKeyHint(key: string): string | null {
  return JIRA_KEY_PATTERN.test(key) ? null : JIRA_KEY_FORMAT_HINT;
}

export type JiraExportForm = {
  projectName: string;
  projectKey: string;
  jiraUrl: string;
  userEmail: string;
  apiToken: string;
  accountId: string;
  /** Export into the existing project `projectKey` (no admin rights needed) instead of creating one. */
  existingProject: boolean;
  /** Optional: the Confluence space for the pages (default: the project key). */
  confluenceSpaceKey: string;
};

export type JiraField = Exclude<keyof JiraExportForm, "existingProject">;

/** The schemas' paths (jiraExportConfig, jiraCredentialsInput; the server's 422s) to the form's fields. */
export const JIRA_FIELDS: Record<string, JiraField> = {
  project_name: "projectName",
  project_key: "projectKey",
  jira_url: "jiraUrl",
  user_email: "userEmail",
  api_token: "apiToken",
  account_id: "accountId",
  confluence_space_key: "confluenceSpaceKey",
};

/** The export's config: trimmed, and without an API token when none was typed (the stored one is used). */
export function jiraExportConfigOf(form: JiraExportForm): JiraExportConfig {
  const token = form.apiToken.trim();
  return {
    project_name: form.projectName.trim(),
    project_key: form.projectKey.trim(),
    jira_url: form.jiraUrl.trim(),
    user_email: form.userEmail.trim(),
    account_id: form.accountId.trim(),
    ...(token ? { api_token: token } : {}),
    ...(form.existingProject ? { existing_project: true } : {}),
    ...(form.confluenceSpaceKey.trim() ? { confluence_space_key: form.confluenceSpaceKey.trim() } : {}),
  };
}

/**
 * The JIRA export form checked with the export's schema and the connection's (jiraCredentialsInput: the
 * server refuses an export whose connection lacks any of them). `tokenStored`: a token is stored on the
 * server, so an empty API token means "use the stored one" and is not required. The site URL is the
 * server's to judge (it must be an allowed Atlassian origin); its 422 names the field.
 */
export function jiraExportErrors(
  form: JiraExportForm,
  { tokenStored = false }: { tokenStored?: boolean } = {},
): FieldErrors<JiraField> {
  const config = jiraExportConfigOf(form);
  const { jira_url, user_email, api_token, account_id } = config;
  const connection = tokenStored ? jiraCredentialsInput.partial({ api_token: true }) : jiraCredentialsInput;
  return {
    ...schemaFieldErrors(connection, { jira_url, user_email, api_token, account_id }, JIRA_FIELDS),
    ...schemaFieldErrors(jiraExportConfig, config, JIRA_FIELDS),
  };
}

/** A default board name that fits Trello's limit, cut between characters (never inside an emoji). */
export function fitBoardName(name: string): string {
  let out = "";
  for (const char of name) {
    if (out.length + char.length > TRELLO_BOARD_NAME_MAX) break;
    out += char;
  }
  return out.trimEnd();
}

/** "owner/name" from a GitHub repository URL (https://github.com/owner/name(.git)) or an owner/name string. */
export function repositoryFromUrl(value: string | null | undefined): string {
  const text = value?.trim() ?? "";
  const ref = parseGithubRepoUrl(text) ?? parseGithubRepository(text);
  return ref ? `${ref.owner}/${ref.repo}` : "";
}
