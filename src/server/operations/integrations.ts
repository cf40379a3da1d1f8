import { z } from "zod";
import { detailMessage } from "../../shared/schemas/common";
import {
  createdWebhook,
  EXPORT_KINDS,
  exportPreview,
  exportPreviewInput,
  exportView,
  generalSettings,
  generalSettingsInput,
  githubConnectAnswer,
  githubConnectInput,
  githubStatus,
  integrationStatus,
  jiraCredentialsInput,
  jiraProjectList,
  jiraStatus,
  startedExport,
  startGithubExportInput,
  startJiraExportInput,
  startTrelloExportInput,
  trelloBoardList,
  trelloCredentialsInput,
  trelloStatus,
  webhookList,
} from "../../shared/schemas/integrations";
import { connectGithub } from "../services/connections/connect-github";
import { deleteIntegration } from "../services/connections/delete-integration";
import { disconnectGithub } from "../services/connections/disconnect-github";
import { generalSettingsOf } from "../services/connections/general-settings-of";
import { getGithubStatus } from "../services/connections/get-github-status";
import { getIntegrationStatus } from "../services/connections/get-integration-status";
import { jiraProjects } from "../services/connections/jira-projects";
import { saveJiraCredentials } from "../services/connections/save-jira-credentials";
import { saveTrelloCredentials } from "../services/connections/save-trello-credentials";
import { trelloBoards } from "../services/connections/trello-boards";
import { updateGeneralSettings } from "../services/connections/update-general-settings";
import { createWebhook } from "../services/exports/create-webhook";
import { getExport } from "../services/exports/get-export";
import { listWebhooks } from "../services/exports/list-webhooks";
import { previewExport } from "../services/exports/preview-export";
import { retryExport } from "../services/exports/retry-export";
import { startExport } from "../services/exports/start-export";
import { mutation, query } from "./define";

/** General settings: the tRPC `settings` router and /api/settings. */
export const settingsOperations = {
  get: query({
    access: "user",
    summary: "Your general settings.",
    output: generalSettings,
    run: ({ user }) => generalSettingsOf(user),
    rest: [{ method: "get", path: "/settings" }],
  }),
  update: mutation({
    access: "user",
    summary: "Changes your general settings.",
    input: generalSettingsInput,
    output: generalSettings,
    run: ({ deps, user }, input) => updateGeneralSettings(deps, user, input),
    rest: [{ method: "patch", path: "/settings", from: "body" }],
  }),
};

/** Stored JIRA and Trello credentials: the tRPC `integrations` router and their /api routes. */
export const integrationOperations = {
  status: query({
    access: "user",
    summary: "Which integrations are connected, without their secrets.",
    output: integrationStatus,
    run: ({ deps, user }) => getIntegrationStatus(deps, user.id),
    rest: [{ method: "get", path: "/integrations" }],
  }),
  saveTrello: mutation({
    access: "user",
    summary: "Checks Trello credentials against Trello, then stores them encrypted.",
    input: trelloCredentialsInput,
    output: trelloStatus,
    run: ({ deps, user }, input) => saveTrelloCredentials(deps, user.id, input),
    rest: [{ method: "post", path: "/trello/credentials", from: "body" }],
  }),
  saveJira: mutation({
    access: "user",
    summary: "Checks JIRA credentials against the site, then stores them encrypted.",
    input: jiraCredentialsInput,
    output: jiraStatus,
    run: ({ deps, user }, input) => saveJiraCredentials(deps, user.id, input),
    rest: [{ method: "post", path: "/jira/credentials", from: "body" }],
  }),
  webhooks: query({
    access: "user",
    summary: "Your webhook endpoints for GitHub and JIRA (their secrets are shown only when created).",
    output: webhookList,
    run: ({ deps, user }) => listWebhooks(deps, user.id),
    rest: [{ method: "get", path: "/webhooks" }],
  }),
  createWebhook: mutation({
    access: "user",
    summary:
      "Creates (or replaces) your webhook endpoint for GitHub, JIRA or Trello and shows its secret once (Trello's is the application secret you give).",
    input: z.strictObject({
      kind: z.enum(EXPORT_KINDS, { error: `kind must be one of ${EXPORT_KINDS.join(", ")}` }),
      /** Trello only: the application secret Trello signs deliveries with. */
      secret: z.string().trim().min(8, "The secret is at least 8 characters").max(200).optional(),
    }),
    output: createdWebhook,
    run: ({ deps, user }, input) => createWebhook(deps, user.id, input.kind, input.secret),
    rest: [{ method: "post", path: "/webhooks/{kind}", from: "body", status: 201 }],
  }),
  trelloBoards: query({
    access: "user",
    summary: "Your open Trello boards (through the stored connection), to export into one of them.",
    output: trelloBoardList,
    run: ({ deps, user }) => trelloBoards(deps, user.id),
    rest: [{ method: "get", path: "/trello/boards" }],
  }),
  jiraProjects: query({
    access: "user",
    summary: "The JIRA projects the stored connection can see (up to 200), to export into one of them.",
    output: jiraProjectList,
    run: ({ deps, user }) => jiraProjects(deps, user.id),
    rest: [{ method: "get", path: "/jira/projects" }],
  }),
  remove: mutation({
    access: "user",
    summary: "Forgets the stored credentials of one integration.",
    input: z.strictObject({ provider: z.enum(["trello", "jira"]) }),
    output: integrationStatus,
    run: ({ deps, user }, input) => deleteIntegration(deps, user.id, input.provider),
    rest: [
      {
        method: "delete",
        path: "/trello/credentials",
        fixed: { provider: "trello" },
        summary: "Forgets the stored Trello credentials.",
      },
      {
        method: "delete",
        path: "/jira/credentials",
        fixed: { provider: "jira" },
        summary: "Forgets the stored JIRA credentials.",
      },
    ],
  }),
};

/** The GitHub connection: the tRPC `github` router and /api/github. */
export const githubOperations = {
  status: query({
    access: "user",
    summary: "Whether GitHub is connected, as whom, with which scopes.",
    output: githubStatus,
    run: ({ deps, user }) => getGithubStatus(deps, user),
    rest: [{ method: "get", path: "/github/status" }],
  }),
  connect: mutation({
    access: "user",
    summary: "Checks a GitHub token against GitHub, then stores it encrypted.",
    input: githubConnectInput,
    output: githubStatus,
    run: ({ deps, user }, input) => connectGithub(deps, user, input),
    rest: [
      {
        method: "post",
        path: "/github/connect",
        from: "body",
        respond: (status) => ({ ...status, username: status.user?.login ?? null }),
        output: githubConnectAnswer,
      },
    ],
  }),
  disconnect: mutation({
    access: "user",
    summary: "Forgets the GitHub token.",
    output: detailMessage,
    run: ({ deps, user }) => disconnectGithub(deps, user),
    rest: [{ method: "delete", path: "/github/disconnect" }],
  }),
};

const exportId = z.strictObject({ id: z.string().trim().min(1).max(100) });

/** Exports to JIRA, Trello and GitHub: the tRPC `exports` router (with its event subscription) and /api. */
export const exportOperations = {
  startJira: mutation({
    access: "user",
    summary: "Starts an export of a task tree to a new JIRA project (and Confluence).",
    input: startJiraExportInput,
    output: startedExport,
    run: ({ deps, user }, input) => startExport(deps, user, "jira", input),
    rest: [{ method: "post", path: "/jira/start-export", from: "body", status: 202 }],
  }),
  startTrello: mutation({
    access: "user",
    summary: "Starts an export of a task tree to a new Trello board.",
    input: startTrelloExportInput,
    output: startedExport,
    run: ({ deps, user }, input) => startExport(deps, user, "trello", input),
    rest: [{ method: "post", path: "/trello/start-export", from: "body", status: 202 }],
  }),
  startGithub: mutation({
    access: "user",
    summary: "Starts an export of a task tree to GitHub issues.",
    input: startGithubExportInput,
    output: startedExport,
    run: ({ deps, user }, input) => startExport(deps, user, "github", input),
    rest: [{ method: "post", path: "/github/start-export", from: "body", status: 202 }],
  }),
  preview: query({
    access: "user",
    summary:
      "What an export of a plan to a place would do before it runs: how many earlier items it updates, how many it creates, how many it marks removed.",
    input: exportPreviewInput,
    output: exportPreview,
    run: ({ deps, user }, input) => previewExport(deps, user, input),
    rest: [{ method: "get", path: "/exports/preview", from: "query" }],
  }),
  get: query({
    access: "user",
    summary: "An export's state and progress.",
    input: exportId,
    output: exportView,
    run: ({ deps, user }, input) => getExport(deps, user.id, input.id),
    rest: [{ method: "get", path: "/exports/{id}" }],
  }),
  retry: mutation({
    access: "user",
    summary: "Retries a failed export from where it stopped.",
    input: exportId,
    output: exportView,
    run: ({ deps, user }, input) => retryExport(deps, user.id, input.id),
    rest: [{ method: "post", path: "/exports/{id}/retry" }],
  }),
};
