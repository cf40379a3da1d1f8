import { z } from "zod";
import { EMAIL_PATTERN } from "../email-address";
import { parseGithubRepository } from "../github-names";
import { isoTimestamp } from "./common";

/** JIRA project key 2-10 uppercase alphanumerics; Trello board names at most 30 characters. */
export const JIRA_KEY_MAX = 10;
export const JIRA_KEY_PATTERN = new RegExp(`^[A-Z][A-Z0-9]{1,${JIRA_KEY_MAX - 1}}$`);
export const JIRA_PROJECT_NAME_MAX = 80;
export const TRELLO_BOARD_NAME_MAX = 30;
/** A Trello export without a stored (or given) key and token. */
export const TRELLO_CREDENTIALS_REQUIRED =
  "Please add your Trello API key and token in the Settings page first.";
/** Scopes a new classic token is created with (Settings links to GitHub's form with them). */
export const GITHUB_TOKEN_SCOPES = ["repo"] as const;
/** A classic token can write issues with either: `repo` anywhere, `public_repo` in public repositories. */
export const GITHUB_WRITE_SCOPES = ["repo", "public_repo"] as const;

const required = (message: string, max = 500) => z.string({ error: message }).trim().min(1, message).max(max);

export const generalSettingsInput = z.strictObject({
  darkMode: z.boolean().optional(),
  notifications: z.boolean().optional(),
  /** Whether the new-project form asks you to check what was read before planning (issue 38). */
  reviewReading: z.boolean().optional(),
});
export const generalSettings = z
  .object({ darkMode: z.boolean(), notifications: z.boolean(), reviewReading: z.boolean() })
  .meta({ id: "GeneralSettings" });
export type GeneralSettings = z.infer<typeof generalSettings>;

export const trelloCredentialsInput = z.strictObject({
  api_key: required("Trello API key is required", 200),
  token: required("Trello token is required", 500),
});

export const jiraCredentialsInput = z.strictObject({
  jira_url: required("JIRA URL is required", 300),
  user_email: required("Your email is required", 254).pipe(
    z.email({ pattern: EMAIL_PATTERN, error: "Invalid email format" }),
  ),
  api_token: required("API token is required", 500),
  account_id: required("Account ID is required", 128),
});

export const githubConnectInput = z.strictObject({
  access_token: required("Please enter your GitHub access token", 300),
});

/** What the browser may see of stored credentials: never a secret. */
export const trelloStatus = z.object({
  connected: z.boolean(),
  api_key_hint: z.string().nullable(),
  username: z.string().nullable(),
  updated_at: isoTimestamp.nullable(),
});
export const jiraStatus = z.object({
  connected: z.boolean(),
  jira_url: z.string().nullable(),
  user_email: z.string().nullable(),
  account_id: z.string().nullable(),
  updated_at: isoTimestamp.nullable(),
});
export const integrationStatus = z
  .object({
    trello: trelloStatus,
    jira: jiraStatus,
    github: z.object({
      connected: z.boolean(),
      login: z.string().nullable(),
      public_repos: z.number().int().nullable(),
      scopes: z.array(z.string()).nullable(),
      updated_at: isoTimestamp.nullable(),
    }),
  })
  .meta({ id: "IntegrationStatus" });
export type IntegrationStatus = z.infer<typeof integrationStatus>;

export const githubStatus = z
  .object({
    connected: z.boolean(),
    user: z.object({ login: z.string(), username: z.string(), public_repos: z.number().int() }).nullable(),
    missing_scopes: z.array(z.string()),
  })
  .meta({ id: "GithubStatus" });
export type GithubStatus = z.infer<typeof githubStatus>;
/** POST /github/connect over REST: the status with the login again as `username` (null when none). */
export const githubConnectAnswer = githubStatus.extend({ username: z.string().nullable() });

/** The trackers, each one module on the server (services/exports/<kind>/tracker.ts, decision 038). */
export const EXPORT_KINDS = ["jira", "trello", "github"] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];
/** Each tracker by the name people know it by. */
export const EXPORT_LABELS: Record<ExportKind, string> = { jira: "JIRA", trello: "Trello", github: "GitHub" };

/** Your webhook endpoints; a secret is never shown again after creation. */
export const webhookList = z.object({
  webhooks: z.array(
    z.object({ kind: z.enum(EXPORT_KINDS), url: z.string(), last_delivery_at: isoTimestamp.nullable() }),
  ),
});
/** A new webhook endpoint with its secret, shown this once. */
export const createdWebhook = z.object({ kind: z.enum(EXPORT_KINDS), url: z.string(), secret: z.string() });

export const trelloBoardList = z.object({
  boards: z.array(z.object({ id: z.string(), name: z.string(), url: z.string() })),
});
export const jiraProjectList = z.object({
  projects: z.array(z.object({ key: z.string(), name: z.string() })),
  /** More projects exist than were listed. */
  truncated: z.boolean(),
});

// ---- exports -------------------------------------------------------------------------------------

/** The largest webhook delivery accepted (GitHub sends up to 25 MB, but not for the events we ask for). */
export const WEBHOOK_BODY_MAX = 1024 * 1024;

/** JIRA export config (credentials may be omitted to use the stored ones). */
export const jiraExportConfig = z.strictObject({
  jira_url: z.string().trim().max(300).optional(),
  user_email: z.string().trim().max(254).optional(),
  api_token: z.string().trim().max(500).optional(),
  account_id: z.string().trim().max(128).optional(),
  project_name: required("Project name is required", JIRA_PROJECT_NAME_MAX),
  project_key: z
    .string({ error: "Project key is required" })
    .trim()
    .min(1, "Project key is required")
    .regex(
      JIRA_KEY_PATTERN,
      "Project key must be 2-10 uppercase alphanumeric characters (e.g., PROJ, TEST123)",
    ),
  users: z
    .array(z.object({ username: z.string().max(200), email: z.string().max(254) }))
    .max(50)
    .optional(),
  /** Export into the existing project `project_key` instead of creating one (no admin rights needed). */
  existing_project: z.boolean({ error: "existing_project must be true or false" }).optional(),
  /** The Confluence space for the pages (default: the project key); created when it does not exist. */
  confluence_space_key: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9]{1,255}$/, "Confluence space key must be letters and digits only")
    .optional(),
});
export type JiraExportConfig = z.infer<typeof jiraExportConfig>;

export const trelloExportConfig = z.strictObject({
  trello_api_key: z.string().trim().max(200).optional(),
  trello_token: z.string().trim().max(500).optional(),
  board_name: z
    .string({ error: "Board name is required" })
    .trim()
    .min(1, "Board name is required")
    .max(TRELLO_BOARD_NAME_MAX, `Board name must be at most ${TRELLO_BOARD_NAME_MAX} characters`),
  /** Export into this existing board (one of the user's open boards) instead of making a new one. */
  board_id: z
    .string()
    .trim()
    .regex(/^[0-9a-f]{24}$/, "board_id must be a Trello board id")
    .optional(),
});

export const githubExportConfig = z.strictObject({
  repository: z
    .string({ error: "Repository is required" })
    .trim()
    .refine((v) => parseGithubRepository(v) !== null, "Repository must look like owner/name"),
});

/**
 * The task tree is read on the server from the task id (never trusted from the browser); a
 * `task_tree` sent by spec-following clients is accepted only to say which task it is.
 */
const taskRef = z.object({ task_id: z.string().optional(), id: z.string().optional() }).passthrough();

export const startJiraExportInput = z.strictObject({
  task_id: z.string().trim().min(1).max(100).optional(),
  config: jiraExportConfig,
  task_tree: taskRef.optional(),
});
export const startTrelloExportInput = z.strictObject({
  task_id: z.string().trim().min(1).max(100).optional(),
  config: trelloExportConfig,
  task_tree: taskRef.optional(),
});
export const startGithubExportInput = z.strictObject({
  task_id: z.string().trim().min(1).max(100),
  config: githubExportConfig,
});

/** GET /exports/preview: what an export to this place would update, create and mark removed. */
export const exportPreviewInput = z.strictObject({
  task_id: z.string().trim().min(1).max(100),
  kind: z.enum(EXPORT_KINDS, { error: `kind must be one of ${EXPORT_KINDS.join(", ")}` }),
  /** JIRA: the project key (and the site when no connection is stored); GitHub: owner/name; Trello: the board. */
  project_key: z.string().trim().max(20).optional(),
  board_id: z.string().trim().max(40).optional(),
  jira_url: z.string().trim().max(300).optional(),
  repository: z.string().trim().max(200).optional(),
});
export const exportPreview = z.object({
  exported_before: z.boolean(),
  update: z.number().int(),
  create: z.number().int(),
  remove: z.number().int(),
});
export type ExportPreview = z.infer<typeof exportPreview>;

/** POST /{jira,trello,github}/start-export: the export is queued; follow it with GET /exports/{id}. */
export const startedExport = z
  .object({ export_id: z.string(), status: z.literal("queued") })
  .meta({ id: "StartedExport" });

export const exportView = z
  .object({
    export_id: z.string(),
    kind: z.enum(EXPORT_KINDS),
    task_id: z.string().nullable(),
    status: z.enum(["queued", "running", "completed", "failed"]),
    step: z.string().nullable(),
    /** 0-100. */
    progress: z.number().int(),
    message: z.string().nullable(),
    // Free-form JSON: each exporter's own summary (counts, the board's or project's link, warnings),
    // whose fields differ by kind and have changed between versions.
    result: z.record(z.string(), z.unknown()).nullable(),
    error: z.string().nullable(),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
  })
  .meta({ id: "ExportView" });
export type ExportView = z.infer<typeof exportView>;

/** POST /tasks/{id}/sync: what "Sync now" asked of JIRA, GitHub and Trello, and what it changed. */
export const syncResult = z.object({
  checked: z.number().int(),
  changed: z.number().int(),
  /** Edits made there that now wait for review (GET /tasks/{id}/tracker-changes). */
  to_review: z.number().int(),
  /** Places that could not be asked (no stored connection, a refusal), and items not found there, in words. */
  problems: z.array(z.string()),
});

/** Messages on /ws/{jira,trello}-export/{id} and the tRPC export subscription. */
export type ExportMessage =
  | { type: "connection_established"; export_id: string }
  | { type: `${ExportKind}.export.progress`; step: string; progress: number; message: string }
  | { type: `${ExportKind}.export.success`; [key: string]: unknown }
  | { type: `${ExportKind}.export.error`; message: string };
