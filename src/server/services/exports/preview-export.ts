import { eq } from "drizzle-orm";
import type { z } from "zod";
import type { ExportPreview, exportPreviewInput } from "../../../shared/schemas/integrations";
import { tasks } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { getOwnedRow } from "../../plan/owned";
import type { UserRow } from "../auth/sessions";
import { exportCounts, previousExport } from "./remote";

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
