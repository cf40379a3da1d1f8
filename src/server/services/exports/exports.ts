import { and, eq } from "drizzle-orm";
import type { z } from "zod";
import { UUID_PATTERN } from "../../../shared/ids";
import {
  EXPORT_LABELS,
  type ExportKind,
  type ExportPreview,
  type ExportView,
  type exportPreviewInput,
} from "../../../shared/schemas/integrations";
import { exports, tasks } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import type { JobKind } from "../../jobs/payloads";
import { recordActivity } from "../../plan/activity";
import { getOwnedRow } from "../../plan/owned";
import type { UserRow } from "../auth/sessions";
import { assertApprovedForExport } from "../tasks/approval";
import { exportCounts, previousExport } from "./remote";
import type { ExportRow, TrackerStartInput } from "./tracker";

export const JOB_EXPORT = "export.run" satisfies JobKind;

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

function taskIdOf(input: TrackerStartInput) {
  const id = input.task_id ?? input.task_tree?.task_id ?? input.task_tree?.id;
  if (!id) {
    throw new AppError("UNPROCESSABLE_CONTENT", "Say which task to export (task_id)", {
      fieldErrors: [{ field: "task_id", message: "Say which task to export (task_id)" }],
    });
  }
  return id;
}

/**
 * Starts an export of one of the caller's task trees to a tracker. Credentials come from the request or,
 * when left out, from the stored (encrypted) ones (the tracker's `start` says which); they travel to the
 * job sealed, never in plain text.
 */
export async function startExport(
  deps: Deps,
  user: UserRow,
  kind: ExportKind,
  input: TrackerStartInput,
): Promise<{ export_id: string; status: "queued" }> {
  const taskId = taskIdOf(input);
  // A plan that needs an approval and has none that holds goes nowhere: checked before anything else.
  await assertApprovedForExport(deps, user.id, taskId, EXPORT_LABELS[kind]);
  const { secret, config } = await deps.trackers[kind].start(deps, user.id, input);
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
  return { export_id: row.id, status: "queued" };
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
  const target = await deps.trackers[input.kind].previewTarget(deps, user.id, input);
  const subtasks = await deps.db.select({ id: tasks.id }).from(tasks).where(eq(tasks.rootTaskId, rootId));
  const ids = subtasks.map((t) => t.id);
  if (!target) return { exported_before: false, update: 0, create: ids.length, remove: 0 };
  const previous = await previousExport(deps, rootId, input.kind, target);
  return {
    exported_before: previous.byTask.size + previous.removed.length > 0,
    ...exportCounts(previous, ids),
  };
}
