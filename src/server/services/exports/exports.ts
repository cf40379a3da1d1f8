import type { ExportKind, ExportView } from "../../../shared/schemas/integrations";
import type { JobKind } from "../../jobs/payloads";
import type { ExportRow } from "./tracker";

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
