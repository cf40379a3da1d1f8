import { JIRA_KEY_PATTERN, TRELLO_BOARD_NAME_MAX } from "../../../shared/schemas/integrations";

/** The JIRA project key is 2-10 characters; the default key is the product name in capitals. */
export const JIRA_KEY_MAX = 10;
export const JIRA_KEY_MIN = 2;
export const DEFAULT_JIRA_KEY = "ATOMIZE";

export const JIRA_KEY_FORMAT_HINT = "Invalid format: use only uppercase letters and numbers";

/** The JIRA export checks, in this order, each with its own message. */
export const JIRA_MESSAGES = {
  projectName: "Project name is required",
  projectKey: "Project key is required",
  projectKeyFormat: "Project key must be 2-10 uppercase alphanumeric characters (e.g., PROJ, TEST123)",
  jiraUrl: "JIRA URL is required",
  email: "Your email is required",
  emailFormat: "Invalid email format",
  apiToken: "API token is required",
  accountId: "Account ID is required",
  jiraUrlFormat: "Invalid JIRA URL format",
} as const;

export const TRELLO_MESSAGES = {
  boardName: "Board name is required",
  boardNameTooLong: `Board name must be at most ${TRELLO_BOARD_NAME_MAX} characters`,
  credentials: "Please add your Trello API key and token in the Settings page first.",
} as const;

export const GITHUB_MESSAGES = {
  repository: "Repository is required",
  repositoryFormat: "Enter the repository as owner/name, e.g. acme/website",
} as const;

/** The key input strips other characters, uppercases and caps at 10. */
export function sanitizeProjectKey(input: string): string {
  return input
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, "")
    .slice(0, JIRA_KEY_MAX);
}

/** The inline hint under the key input: shown while the key is not 2-10 characters. */
export function projectKeyHint(key: string): string | null {
  return key.length >= JIRA_KEY_MIN && key.length <= JIRA_KEY_MAX ? null : JIRA_KEY_FORMAT_HINT;
}

/** Loose on purpose: one @, something on each side, a dot in the domain, no spaces. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isValidJiraUrl(value: string): boolean {
  try {
    const url = new URL(value.trim());
    return (url.protocol === "https:" || url.protocol === "http:") && url.hostname !== "";
  } catch {
    return false;
  }
}

export type JiraExportForm = {
  projectName: string;
  projectKey: string;
  jiraUrl: string;
  userEmail: string;
  apiToken: string;
  accountId: string;
};

export type JiraField = keyof JiraExportForm;

/**
 * The nine checks in order; the first failing one wins. `tokenStored`: a token is stored on the
 * server, so an empty API token means "use the stored one" and is not required.
 */
export function validateJiraExport(
  form: JiraExportForm,
  { tokenStored = false }: { tokenStored?: boolean } = {},
): { field: JiraField; message: string } | null {
  const v = {
    projectName: form.projectName.trim(),
    projectKey: form.projectKey.trim(),
    jiraUrl: form.jiraUrl.trim(),
    userEmail: form.userEmail.trim(),
    apiToken: form.apiToken.trim(),
    accountId: form.accountId.trim(),
  };
  if (!v.projectName) return { field: "projectName", message: JIRA_MESSAGES.projectName };
  if (!v.projectKey) return { field: "projectKey", message: JIRA_MESSAGES.projectKey };
  if (!JIRA_KEY_PATTERN.test(v.projectKey))
    return { field: "projectKey", message: JIRA_MESSAGES.projectKeyFormat };
  if (!v.jiraUrl) return { field: "jiraUrl", message: JIRA_MESSAGES.jiraUrl };
  if (!v.userEmail) return { field: "userEmail", message: JIRA_MESSAGES.email };
  if (!EMAIL.test(v.userEmail)) return { field: "userEmail", message: JIRA_MESSAGES.emailFormat };
  if (!v.apiToken && !tokenStored) return { field: "apiToken", message: JIRA_MESSAGES.apiToken };
  if (!v.accountId) return { field: "accountId", message: JIRA_MESSAGES.accountId };
  if (!isValidJiraUrl(v.jiraUrl)) return { field: "jiraUrl", message: JIRA_MESSAGES.jiraUrlFormat };
  return null;
}

/** Trello export: board name required, at most 30; key and token must be available. */
export function validateTrelloExport(
  boardName: string,
  { credentialsAvailable }: { credentialsAvailable: boolean },
): string | null {
  const name = boardName.trim();
  if (!name) return TRELLO_MESSAGES.boardName;
  if (Array.from(name).length > TRELLO_BOARD_NAME_MAX) return TRELLO_MESSAGES.boardNameTooLong;
  if (!credentialsAvailable) return TRELLO_MESSAGES.credentials;
  return null;
}

/** A default board name that fits Trello's limit (30 characters). */
export function fitBoardName(name: string): string {
  return Array.from(name).slice(0, TRELLO_BOARD_NAME_MAX).join("").trimEnd();
}

const REPOSITORY = /^[A-Za-z0-9-]{1,39}\/[A-Za-z0-9._-]{1,100}$/;

/** "owner/name" from a GitHub URL (https://github.com/owner/name(.git)) or an owner/name string. */
export function repositoryFromUrl(value: string | null | undefined): string {
  if (!value) return "";
  const text = value.trim();
  const m = text.match(
    /^(?:https?:\/\/(?:www\.)?github\.com\/)?([A-Za-z0-9-]{1,39})\/([A-Za-z0-9._-]{1,100})/,
  );
  if (!m) return "";
  const name = m[2]!.replace(/\.git$/, "");
  return name ? `${m[1]}/${name}` : "";
}

export function validateRepository(value: string): string | null {
  const repo = value.trim();
  if (!repo) return GITHUB_MESSAGES.repository;
  return REPOSITORY.test(repo) ? null : GITHUB_MESSAGES.repositoryFormat;
}
