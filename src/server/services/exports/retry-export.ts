import { eq } from "drizzle-orm";
import type { ExportView } from "../../../shared/schemas/integrations";
import { exports } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { JOB_EXPORT } from "./exports";
import { getExport } from "./get-export";
import { getOwnedExport } from "./get-owned-export";

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
