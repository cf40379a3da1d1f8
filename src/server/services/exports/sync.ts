import { and, eq, inArray } from "drizzle-orm";
import { EXPORT_LABELS } from "../../../shared/schemas/integrations";
import type { TaskStatus } from "../../../shared/schemas/tasks";
import { remoteItems, tasks } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { getOwnedRow } from "../../plan/owned";
import { updateTask } from "../tasks/update-task";
import { type RemoteItemRow as ItemRow, type RemoteStatus, taskStatusFor } from "./tracker";
import { announceTrackerChanges, reviewAdded, reviewItem, reviewStatus } from "./tracker-changes";

/**
 * Status flowing back from the trackers (issue 13's two-way sync): "Sync now" asks each tracker
 * (`deps.trackers`, tracker.ts) for the status of what an export made; webhooks (webhooks.ts) bring single
 * changes as they happen. Either way a remote status becomes a task status by one rule (`taskStatusFor`),
 * and a change is made through the task service, so progress bars, the schedule and open browsers follow.
 */

/**
 * How a status read there is taken:
 * - `changed: true` (a webhook that says the status changed) or a status different from the one last seen
 *   there counts as a change there; the same status as last seen is not news, whatever the task says (a
 *   task completed in Atomize is not reopened because its issue still says To Do). An item never read
 *   before takes a done or in-progress status, never a reopening.
 * - A change older than the task's last change in Atomize (`at`, by the service's clock), when that
 *   change came after the item was made or last read there, is not applied: it waits for review as a
 *   conflict (tracker-changes.ts).
 */
export type StatusReading = { changed?: boolean; at?: Date | null };

/** Applies one remote status to the task it belongs to; returns whether the task changed. */
export async function applyRemoteState(
  deps: Deps,
  item: ItemRow,
  remote: RemoteStatus,
  reading: StatusReading = {},
): Promise<boolean> {
  const text = remote.text.slice(0, 100);
  // Marked read after the task is moved, so the move made here is not an Atomize change newer than it.
  const seen = () =>
    deps.db
      .update(remoteItems)
      .set({ remoteStatus: text, syncedAt: new Date() })
      .where(eq(remoteItems.id, item.id));
  if (!item.taskId) {
    await seen(); // its task was deleted
    return false;
  }
  const [task] = await deps.db
    .select({ status: tasks.status, parentId: tasks.parentId, updatedAt: tasks.updatedAt })
    .from(tasks)
    .where(eq(tasks.id, item.taskId));
  const next = task ? taskStatusFor(remote, task.status as TaskStatus) : null;
  const changed =
    reading.changed ?? (item.remoteStatus === null ? next !== "pending" : item.remoteStatus !== text);
  // A root's status is its plan's (decomposition), not work: remote status never changes it.
  if (!task || task.parentId === null || !next || !changed) {
    await seen();
    return false;
  }
  // Only an Atomize change since the item was made or last read there can be newer than the change there.
  const since = Math.max(item.createdAt.getTime(), item.syncedAt?.getTime() ?? 0);
  const edited = task.updatedAt.getTime();
  if (reading.at && edited > reading.at.getTime() && edited > since) {
    const n = await reviewStatus(
      deps,
      item,
      { status: next, words: text },
      task.status as TaskStatus,
      reading.at,
    );
    await announceTrackerChanges(deps, item.userId, item.rootTaskId, n, item.kind);
    await seen();
    return false;
  }
  await updateTask(deps, item.userId, item.taskId, { status: next });
  await seen();
  return true;
}

export type SyncResult = {
  checked: number;
  changed: number;
  /** Changes made there that now wait for review (tracker-changes.ts). */
  to_review: number;
  /** Places that could not be asked (no stored connection, a refusal), and items not found there, in words. */
  problems: string[];
};

/**
 * "Sync now": the status and the fields of everything exports made for a plan, asked of each service with
 * the stored connection. Statuses apply to the tasks (as above); other edits made there wait for review.
 * A service that cannot be asked is reported, not fatal; so is each item it no longer has.
 */
export async function syncPlan(deps: Deps, userId: string, id: string): Promise<SyncResult> {
  const row = await getOwnedRow(deps, userId, id);
  const rootId = row.rootTaskId ?? row.id;
  const items = await deps.db
    .select()
    .from(remoteItems)
    .where(and(eq(remoteItems.rootTaskId, rootId), eq(remoteItems.userId, userId)));
  const result: SyncResult = { checked: 0, changed: 0, to_review: 0, problems: [] };
  const groups = new Map<string, ItemRow[]>();
  for (const it of items) {
    if (it.removedAt) continue;
    const k = `${it.kind}\u0000${it.target}`;
    groups.set(k, [...(groups.get(k) ?? []), it]);
  }
  for (const group of groups.values()) {
    const { kind, target } = group[0]!;
    const name = EXPORT_LABELS[kind];
    const tracker = deps.trackers[kind];
    try {
      const reading = await tracker.read(deps, userId, target, group);
      let review = 0;
      for (const it of group) {
        const read = reading.items.get(it.remoteId);
        if (!read) {
          if (it.taskId)
            result.problems.push(
              `${name}: ${it.remoteKey} was not found there (deleted, moved, or not visible to this account).`,
            );
          continue;
        }
        result.checked += 1;
        if (await applyRemoteState(deps, it, read.state, { at: read.at })) result.changed += 1;
        review += await reviewItem(deps, it, read.snap, read.at ?? new Date());
      }
      // Made by any export to this place (another plan's too): not added there.
      const made = await deps.db
        .select({ remoteId: remoteItems.remoteId })
        .from(remoteItems)
        .where(and(eq(remoteItems.kind, kind), eq(remoteItems.target, target)));
      const known = new Set(made.map((i) => i.remoteId));
      const added = reading.added.filter((a) => !known.has(a.remoteId));
      review += await reviewAdded(deps, { userId, rootTaskId: rootId, kind, target }, added, new Date());
      result.to_review += review;
      await announceTrackerChanges(deps, userId, rootId, review, kind);
      if (tracker.afterRead)
        result.problems.push(...(await tracker.afterRead(deps, userId, rootId, target, group)));
    } catch (err) {
      result.problems.push(`${name} (${target.split("|").pop()}): ${(err as Error).message}`);
    }
  }
  if (result.changed > 0) {
    await deps.events.publish({
      type: "task.updated",
      userId,
      taskId: rootId,
      rootTaskId: rootId,
      message: `Synced: ${result.changed} task${result.changed === 1 ? "" : "s"} changed`,
      data: { synced: result.changed },
    });
  }
  return result;
}

/** The remote items a webhook names: the user's items of that kind whose id matches. */
export async function itemsFor(
  deps: Deps,
  userId: string,
  kind: ItemRow["kind"],
  remoteIds: string[],
  target?: string,
) {
  if (remoteIds.length === 0) return [];
  return deps.db
    .select()
    .from(remoteItems)
    .where(
      and(
        eq(remoteItems.userId, userId),
        eq(remoteItems.kind, kind),
        inArray(remoteItems.remoteId, remoteIds),
        ...(target ? [eq(remoteItems.target, target)] : []),
      ),
    );
}
