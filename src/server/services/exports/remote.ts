import { and, eq, inArray, isNull } from "drizzle-orm";
import type { ExportKind } from "../../../shared/schemas/integrations";
import { remoteItems } from "../../db/schema/index";
import type { Deps } from "../../deps";

/**
 * What earlier exports of a plan made in one place (schema remote_items), for an export to the same
 * place: it updates those instead of creating them again, creates only what is new, and marks what was
 * made for a task deleted since (never deleting anything there).
 */
export type PreviousExport = {
  /** Task id -> what was made for it. */
  byTask: Map<string, { remoteId: string; key: string; url: string; parent: string | null }>;
  /** Made for tasks deleted since, not yet marked removed there. */
  removed: Array<{ id: string; remoteId: string; key: string }>;
};

export async function previousExport(
  deps: Pick<Deps, "db">,
  rootId: string,
  kind: ExportKind,
  target: string,
): Promise<PreviousExport> {
  const rows = await deps.db
    .select()
    .from(remoteItems)
    .where(
      and(eq(remoteItems.rootTaskId, rootId), eq(remoteItems.kind, kind), eq(remoteItems.target, target)),
    );
  const byTask: PreviousExport["byTask"] = new Map();
  const removed: PreviousExport["removed"] = [];
  for (const r of rows) {
    if (r.taskId)
      byTask.set(r.taskId, { remoteId: r.remoteId, key: r.remoteKey, url: r.url, parent: r.remoteParent });
    else if (!r.removedAt) removed.push({ id: r.id, remoteId: r.remoteId, key: r.remoteKey });
  }
  return { byTask, removed };
}

/** Records that these items were marked removed where they live. */
export async function markRemoved(deps: Pick<Deps, "db">, ids: string[]) {
  if (ids.length === 0) return;
  await deps.db
    .update(remoteItems)
    .set({ removedAt: new Date() })
    .where(and(inArray(remoteItems.id, ids), isNull(remoteItems.removedAt)));
}

/** How an export to a place would go, before it runs: what it updates, creates and marks removed. */
export function exportCounts(previous: PreviousExport, taskIds: string[]) {
  const update = taskIds.filter((id) => previous.byTask.has(id)).length;
  return { update, create: taskIds.length - update, remove: previous.removed.length };
}
