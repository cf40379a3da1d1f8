import { EXPORT_LABELS, type ExportKind } from "../../../shared/schemas/integrations";
import { exports } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { recordActivity } from "../../plan/activity";
import { getOwnedRow } from "../../plan/owned";
import type { UserRow } from "../auth/sessions";
import { assertApprovedForExport } from "../tasks/approval";
import { JOB_EXPORT } from "./exports";
import type { TrackerStartInput } from "./tracker";

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
