import { and, eq } from "drizzle-orm";
import type { z } from "zod";
import { parseGithubRepository } from "../../../shared/github-names";
import { UUID_PATTERN } from "../../../shared/ids";
import {
  type ExportKind,
  type ExportPreview,
  type ExportView,
  type exportPreviewInput,
  type startGithubExportInput,
  type startJiraExportInput,
  type startTrelloExportInput,
  TRELLO_CREDENTIALS_REQUIRED,
} from "../../../shared/schemas/integrations";
import { exports, tasks } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { jiraSiteOrigin } from "../../integrations/allowed-origin";
import { readCredential } from "../../integrations/credentials";
import type { JobKind } from "../../jobs/payloads";
import { recordActivity } from "../../plan/activity";
import type { UserRow } from "../auth/sessions";
import { assertApprovedForExport } from "../tasks/approval";
import { getOwnedRow } from "../tasks/tasks";
import { exportCounts, previousExport } from "./remote";

export const JOB_EXPORT = "export.run" satisfies JobKind;
export type ExportRow = typeof exports.$inferSelect;

export function toExportView(row: ExportRow): ExportView {
  return {
    export_id: row.id,
    kind: row.kind as ExportKind,
    task_id: row.taskId,
    status: row.status as ExportView["status"],
    step: row.step,
    progress: row.progress,
    message: row.message,
    result: row.result ?? null,
    error: row.error,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

function taskIdOf(input: {
  task_id?: string | undefined;
  task_tree?: { task_id?: string; id?: string } | undefined;
}) {
  const id = input.task_id ?? input.task_tree?.task_id ?? input.task_tree?.id;
  if (!id) {
    throw new AppError("UNPROCESSABLE_CONTENT", "Say which task to export (task_id)", {
      fieldErrors: [{ field: "task_id", message: "Say which task to export (task_id)" }],
    });
  }
  return id;
}

/**
 * Starts an export of one of the caller's task trees. Credentials come from the request or, when
 * left out, from the stored (encrypted) ones; they travel to the job sealed, never in plain text.
 */
export type StartExportRequest =
  | { kind: "jira"; input: z.output<typeof startJiraExportInput> }
  | { kind: "trello"; input: z.output<typeof startTrelloExportInput> }
  | { kind: "github"; input: z.output<typeof startGithubExportInput> };

/** Each tracker by the name people know it by. */
export const EXPORT_LABELS: Record<ExportKind, string> = { jira: "JIRA", trello: "Trello", github: "GitHub" };

export async function startExport(
  deps: Deps,
  user: UserRow,
  request: StartExportRequest,
): Promise<{ export_id: string; status: string }> {
  const kind: ExportKind = request.kind;
  // A plan that needs an approval and has none that holds goes nowhere: checked before anything else.
  await assertApprovedForExport(
    deps,
    user.id,
    request.kind === "github" ? request.input.task_id : taskIdOf(request.input),
    EXPORT_LABELS[kind],
  );
  let secret: Record<string, string>;
  let config: Record<string, unknown>;
  let taskId: string;
  if (request.kind === "jira") {
    const input = request.input;
    taskId = taskIdOf(input);
    const stored = await readCredential<{ user_email: string; api_token: string }>(deps, user.id, "jira");
    const c = input.config;
    const jiraUrl = c.jira_url || (stored?.publicData.jira_url as string | undefined);
    const email = c.user_email || stored?.secret.user_email;
    const token = c.api_token || stored?.secret.api_token;
    const accountId = c.account_id || (stored?.publicData.account_id as string | undefined);
    const missing = !jiraUrl
      ? "JIRA URL is required"
      : !email
        ? "Your email is required"
        : !token
          ? "API token is required"
          : !accountId
            ? "Account ID is required"
            : null;
    if (missing) throw new AppError("UNPROCESSABLE_CONTENT", missing);
    const site = jiraSiteOrigin(jiraUrl!, deps.config.JIRA_ALLOWED_ORIGINS, deps.config);
    secret = { user_email: email!, api_token: token! };
    config = {
      jira_url: site,
      account_id: accountId,
      project_name: c.project_name,
      project_key: c.project_key,
      user_email: email,
      existing_project: c.existing_project === true,
      ...(c.confluence_space_key ? { confluence_space_key: c.confluence_space_key } : {}),
    };
  } else if (request.kind === "trello") {
    const input = request.input;
    taskId = taskIdOf(input);
    const stored = await readCredential<{ api_key: string; token: string }>(deps, user.id, "trello");
    const key = input.config.trello_api_key || stored?.secret.api_key;
    const token = input.config.trello_token || stored?.secret.token;
    if (!key || !token) {
      throw new AppError("UNPROCESSABLE_CONTENT", TRELLO_CREDENTIALS_REQUIRED);
    }
    secret = { api_key: key, token };
    config = {
      board_name: input.config.board_name,
      ...(input.config.board_id ? { board_id: input.config.board_id } : {}),
    };
  } else {
    const input = request.input;
    taskId = input.task_id;
    const stored = await readCredential<{ token: string }>(deps, user.id, "github");
    if (!stored)
      throw new AppError("UNPROCESSABLE_CONTENT", "Connect your GitHub account in Settings first.");
    secret = { token: stored.secret.token };
    config = { repository: input.config.repository };
  }
  const task = await getOwnedRow(deps, user.id, taskId);
  if (task.parentId)
    throw new AppError(
      "BAD_REQUEST",
      "Export the whole task tree: open its root task and export from there.",
    );
  if (task.status === "awaiting_review")
    throw new AppError(
      "CONFLICT",
      "This project is not planned yet: check its reading and plan it, then export it.",
    );
  const row = await deps.db.transaction(async (tx) => {
    const [created] = await tx
      .insert(exports)
      .values({
        userId: user.id,
        taskId: task.id,
        kind,
        status: "queued",
        progress: 0,
        message: "Waiting to start",
        config,
        state: { sealed: deps.vault.encrypt(JSON.stringify(secret)) },
      })
      .returning();
    await recordActivity(tx, {
      rootId: task.id,
      taskId: task.id,
      kind: "export",
      summary: `started an export to ${EXPORT_LABELS[kind]}`,
    });
    await deps.jobs.enqueue(
      {
        kind: JOB_EXPORT,
        payload: { exportId: created!.id },
        groupKey: `export:${created!.id}`,
        maxAttempts: 3,
      },
      tx,
    );
    return created!;
  });
  deps.log.info("export started", { exportId: row.id, kind, taskId: task.id });
  return { export_id: row.id, status: row.status };
}

export async function getOwnedExport(deps: Pick<Deps, "db">, userId: string, id: string): Promise<ExportRow> {
  if (!UUID_PATTERN.test(id)) throw new AppError("NOT_FOUND", "Export not found");
  const [row] = await deps.db
    .select()
    .from(exports)
    .where(and(eq(exports.id, id), eq(exports.userId, userId)))
    .limit(1);
  if (!row) throw new AppError("NOT_FOUND", "Export not found");
  return row;
}

export async function getExport(deps: Deps, userId: string, id: string): Promise<ExportView> {
  return toExportView(await getOwnedExport(deps, userId, id));
}

/** Runs a failed export again; what it created before is found and not created twice. */
export async function retryExport(deps: Deps, userId: string, id: string): Promise<ExportView> {
  const row = await getOwnedExport(deps, userId, id);
  if (row.status !== "failed") throw new AppError("CONFLICT", "Only a failed export can be retried.");
  await deps.db.transaction(async (tx) => {
    await tx
      .update(exports)
      .set({ status: "queued", error: null, message: "Retrying", updatedAt: new Date() })
      .where(eq(exports.id, id));
    await deps.jobs.enqueue(
      { kind: JOB_EXPORT, payload: { exportId: id }, groupKey: `export:${id}`, maxAttempts: 3 },
      tx,
    );
  });
  return getExport(deps, userId, id);
}

/**
 * What an export of this plan to this place would do, before it runs: earlier exports' items it updates,
 * tasks it creates items for, items of deleted tasks it marks removed (Trello: into an existing board).
 */
export async function previewExport(
  deps: Deps,
  user: UserRow,
  input: z.output<typeof exportPreviewInput>,
): Promise<ExportPreview> {
  const task = await getOwnedRow(deps, user.id, input.task_id);
  const rootId = task.rootTaskId ?? task.id;
  let target: string | null = null;
  if (input.kind === "jira" && input.project_key) {
    const stored = await readCredential(deps, user.id, "jira");
    const url = input.jira_url || (stored?.publicData.jira_url as string | undefined);
    if (url)
      target = `${jiraSiteOrigin(url, deps.config.JIRA_ALLOWED_ORIGINS, deps.config)}|${input.project_key}`;
  } else if (input.kind === "trello" && input.board_id) {
    target = input.board_id;
  } else if (input.kind === "github" && input.repository) {
    const repo = parseGithubRepository(input.repository);
    if (repo) target = `${repo.owner}/${repo.repo}`.toLowerCase();
  }
  const subtasks = await deps.db.select({ id: tasks.id }).from(tasks).where(eq(tasks.rootTaskId, rootId));
  const ids = subtasks.map((t) => t.id);
  if (!target) return { exported_before: false, update: 0, create: ids.length, remove: 0 };
  const previous = await previousExport(deps, rootId, input.kind, target);
  return {
    exported_before: previous.byTask.size + previous.removed.length > 0,
    ...exportCounts(previous, ids),
  };
}
