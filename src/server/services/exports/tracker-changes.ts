import { and, eq, inArray, sql } from "drizzle-orm";
import { EXPORT_LABELS } from "../../../shared/schemas/integrations";
import { DESCRIPTION_MAX, type TaskStatus } from "../../../shared/schemas/tasks";
import type { TrackerField } from "../../../shared/schemas/tracker-changes";
import { descriptionFirstLine, taskTitle } from "../../../shared/task-title";
import { type RemoteBaseline, remoteItems, tasks, trackerChanges } from "../../db/schema/index";
import type { Deps } from "../../deps";
import type { AddedItem, RemoteSnapshot } from "./tracker";

/**
 * Edits people make on JIRA, GitHub or Trello come back for review (issue 31, decision 030).
 *
 * Each exported item keeps a baseline: what it said there after the last export or review
 * (remote_items.baseline). When "Sync now" or a webhook reads the item again, each field that differs
 * from the baseline (title, description, story points, parent) is a change someone made there. It is
 * kept as an open tracker change, one per field, newest value first, until someone takes theirs or keeps
 * ours. Items added there (under an exported item, or labelled for Atomize) and items closed there
 * without being done are changes too. A change whose field was also edited in Atomize since the
 * baseline is a conflict: nothing is applied in either direction until someone chooses.
 *
 * Status alone applies directly (sync.ts), unless the task changed in Atomize after the remote change:
 * then it is a status change to review, marked as a conflict.
 */

export type ItemRow = typeof remoteItems.$inferSelect;

type TaskRow = typeof tasks.$inferSelect;

/** Text compared as people read it: line ends, trailing spaces and runs of blank lines do not count. */
export function normalText(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((l) => l.replace(/\s+$/u, ""))
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/**
 * The part of an item's text that is the task's description: what was sent is the description followed
 * by what Atomize adds (details, figures, subtasks, a marker). The added tail, as sent, is cut from the
 * text read there, wherever people left it; when they rewrote it, the text up to its first paragraph.
 */
export function describedPart(text: string, baseline: RemoteBaseline): string {
  const now = normalText(text);
  const sent = normalText(baseline.text);
  const own = normalText(baseline.description ?? "");
  if (!own || !sent.startsWith(own)) return now;
  const tail = sent.slice(own.length).trim();
  if (!tail) return now;
  if (now.endsWith(tail)) return now.slice(0, now.length - tail.length).trim();
  const first = tail.split("\n\n")[0]!;
  const at = now.indexOf(first);
  return at > 0 ? now.slice(0, at).trim() : now;
}

/**
 * Text from a tracker, within the length Atomize takes for a description (a GitHub body can be 65,536
 * characters): cut with a mark, never inside a character.
 */
export function withinDescription(text: string): string {
  if (text.length <= DESCRIPTION_MAX) return text;
  return `${text.slice(0, DESCRIPTION_MAX - 1).replace(/[\uD800-\uDBFF]$/, "")}…`;
}

/** A description with its first line (the title) replaced. */
export function withTitle(description: string, title: string): string {
  const first = descriptionFirstLine(description);
  if (!first) return title;
  const at = description.indexOf(first);
  return `${description.slice(0, at)}${title}${description.slice(at + first.length)}`;
}

type Found = { field: TrackerField; theirs: unknown; ours: unknown; conflict: boolean };

/** The fields of a snapshot that differ from the item's baseline, with Atomize's value and whether it moved too. */
function differences(
  item: ItemRow,
  task: TaskRow,
  snap: RemoteSnapshot,
  parentRemoteId: string | null,
): Found[] {
  const base = item.baseline!;
  const out: Found[] = [];
  const atomizeTitle = taskTitle(task.description, 250);
  const baseDescription = base.description ?? null;
  if (snap.title !== undefined && normalText(snap.title) !== normalText(base.title))
    out.push({
      field: "title",
      theirs: snap.title.trim(),
      ours: atomizeTitle,
      conflict: baseDescription !== null && atomizeTitle !== taskTitle(baseDescription, 250),
    });
  if (snap.text !== undefined && normalText(snap.text) !== normalText(base.text)) {
    const theirs = describedPart(snap.text, base);
    const before = baseDescription ?? normalText(base.text);
    if (normalText(theirs) !== normalText(before))
      out.push({
        field: "description",
        // The text as read there (the next baseline) and the part of it that is the description.
        theirs: { text: snap.text, description: theirs },
        ours: task.description,
        conflict: baseDescription !== null && normalText(task.description) !== normalText(baseDescription),
      });
  }
  if (snap.story_points !== undefined && (snap.story_points ?? null) !== (base.story_points ?? null))
    out.push({
      field: "story_points",
      theirs: snap.story_points,
      ours: task.storyPoints,
      conflict: (task.storyPoints ?? null) !== (base.story_points ?? null),
    });
  if (
    snap.parent !== undefined &&
    base.parent !== undefined &&
    (snap.parent ?? null) !== (base.parent ?? null)
  )
    out.push({
      field: "parent",
      theirs: snap.parent,
      ours: parentRemoteId,
      conflict: parentRemoteId !== (base.parent ?? null),
    });
  if (snap.closed) out.push({ field: "closed", theirs: snap.closed, ours: task.status, conflict: false });
  // The same value on both sides (an export's own write read back, or the same edit made in both places)
  // is no change to review.
  return out.filter((f) => !sameValue(f));
}

function sameValue(f: Found): boolean {
  if (f.field === "closed") return false;
  if (f.field === "description")
    return normalText((f.theirs as { description: string }).description) === normalText(String(f.ours));
  if (typeof f.theirs === "string" && typeof f.ours === "string")
    return normalText(f.theirs) === normalText(f.ours);
  return (f.theirs ?? null) === (f.ours ?? null);
}

async function openChange(
  deps: Deps,
  item: Pick<ItemRow, "id" | "userId" | "rootTaskId" | "kind" | "target" | "remoteId" | "remoteKey" | "url">,
  found: Found,
  at: Date,
  remoteItemId: string | null,
) {
  const inserted = await deps.db
    .insert(trackerChanges)
    .values({
      userId: item.userId,
      rootTaskId: item.rootTaskId,
      remoteItemId,
      kind: item.kind,
      target: item.target,
      remoteId: item.remoteId,
      remoteKey: item.remoteKey,
      url: item.url,
      field: found.field,
      theirs: found.theirs ?? null,
      ours: found.ours ?? null,
      conflict: found.conflict,
      changedAt: at,
    })
    .onConflictDoUpdate({
      target: [
        trackerChanges.rootTaskId,
        trackerChanges.kind,
        trackerChanges.target,
        trackerChanges.remoteId,
        trackerChanges.field,
      ],
      targetWhere: sql`${trackerChanges.status} = 'open'`,
      set: {
        theirs: found.theirs ?? null,
        ours: found.ours ?? null,
        conflict: found.conflict,
        changedAt: at,
      },
      setWhere: sql`${trackerChanges.theirs} is distinct from excluded.theirs or ${trackerChanges.conflict} is distinct from excluded.conflict`,
    })
    .returning({ id: trackerChanges.id });
  return inserted.length;
}

/** The remote id of a task's parent where an item lives (null: the parent has no item there). */
async function parentRemoteId(deps: Deps, item: ItemRow, task: TaskRow): Promise<string | null> {
  if (!task.parentId || task.parentId === item.rootTaskId) return null;
  const [row] = await deps.db
    .select({ remoteId: remoteItems.remoteId })
    .from(remoteItems)
    .where(
      and(
        eq(remoteItems.taskId, task.parentId),
        eq(remoteItems.kind, item.kind),
        eq(remoteItems.target, item.target),
      ),
    )
    .limit(1);
  return row?.remoteId ?? null;
}

/**
 * Compares one item as read there with its baseline and keeps what people changed as open changes
 * (replacing an older value of the same field; dropping one whose field is back as it was). An item with
 * no baseline yet (exported before reviews existed) takes this reading as its baseline. Returns how many
 * changes are new or different.
 */
export async function reviewItem(deps: Deps, item: ItemRow, snap: RemoteSnapshot, at: Date): Promise<number> {
  if (!item.taskId) return 0;
  const [task] = await deps.db.select().from(tasks).where(eq(tasks.id, item.taskId));
  if (!task?.parentId) return 0;
  if (!item.baseline) {
    if (snap.title === undefined || snap.text === undefined) return 0;
    await deps.db
      .update(remoteItems)
      .set({
        baseline: {
          title: snap.title,
          text: snap.text,
          story_points: snap.story_points ?? null,
          ...(snap.parent !== undefined ? { parent: snap.parent } : {}),
          description: task.description,
        },
        baselineAt: new Date(),
      })
      .where(eq(remoteItems.id, item.id));
    return 0;
  }
  const found = differences(item, task, snap, await parentRemoteId(deps, item, task));
  const fields = new Set(found.map((f) => f.field));
  // A field back as it was there: its open change is no longer news.
  const settled = (["title", "description", "story_points", "parent", "closed"] as const).filter(
    (f) => !fields.has(f),
  );
  if (settled.length)
    await deps.db
      .update(trackerChanges)
      .set({ status: "superseded", resolvedAt: new Date() })
      .where(
        and(
          eq(trackerChanges.remoteItemId, item.id),
          eq(trackerChanges.status, "open"),
          inArray(trackerChanges.field, settled),
        ),
      );
  let n = 0;
  for (const f of found) n += await openChange(deps, item, f, at, item.id);
  return n;
}

/** A status there that is older than the task's last change in Atomize: kept for review, not applied. */
export async function reviewStatus(
  deps: Deps,
  item: ItemRow,
  theirs: { status: TaskStatus; words: string },
  ours: TaskStatus,
  at: Date,
): Promise<number> {
  return openChange(
    deps,
    item,
    { field: "status", theirs: { status: theirs.status, words: theirs.words }, ours, conflict: true },
    at,
    item.id,
  );
}

/** Items made there that no export made: each one an "added there" change, until taken or declined. */
export async function reviewAdded(
  deps: Deps,
  place: { userId: string; rootTaskId: string; kind: ItemRow["kind"]; target: string },
  added: AddedItem[],
  at: Date,
): Promise<number> {
  if (added.length === 0) return 0;
  // Declined or taken before: not proposed again.
  const seen = await deps.db
    .select({ remoteId: trackerChanges.remoteId })
    .from(trackerChanges)
    .where(
      and(
        eq(trackerChanges.rootTaskId, place.rootTaskId),
        eq(trackerChanges.kind, place.kind),
        eq(trackerChanges.target, place.target),
        eq(trackerChanges.field, "added"),
        inArray(trackerChanges.status, ["accepted", "rejected"]),
      ),
    );
  const skip = new Set(seen.map((s) => s.remoteId));
  let n = 0;
  for (const a of added) {
    if (skip.has(a.remoteId)) continue;
    n += await openChange(
      deps,
      { ...place, remoteId: a.remoteId, remoteKey: a.key, url: a.url, id: "" },
      {
        field: "added",
        theirs: { title: a.title, text: a.text, parent: a.parent },
        ours: null,
        conflict: false,
      },
      at,
      null,
    );
  }
  return n;
}

/** Tells open tabs and agents that changes from a tracker wait for review. */
export async function announceTrackerChanges(
  deps: Deps,
  userId: string,
  rootId: string,
  n: number,
  kind: ItemRow["kind"],
) {
  if (n <= 0) return;
  await deps.events.publish({
    type: "task.updated",
    userId,
    taskId: rootId,
    rootTaskId: rootId,
    message: `${n} change${n === 1 ? "" : "s"} from ${EXPORT_LABELS[kind]} to review`,
    data: { tracker_changes: n },
  });
}

// ---- reading and resolving ----------------------------------------------------------------------------

export const words = (field: TrackerField, value: unknown, titles: Map<string, string>): string => {
  if (value === null || value === undefined) return field === "parent" ? "Top level" : "—";
  if (field === "status") {
    if (typeof value === "object") return String((value as { words?: string }).words ?? "");
    return String(value).replace(/_/g, " ");
  }
  if (field === "description" && typeof value === "object")
    return String((value as { description?: string }).description ?? "");
  if (field === "added") {
    const v = value as { title?: string };
    return v.title ?? "";
  }
  if (field === "parent") return titles.get(String(value)) ?? String(value);
  return String(value);
};
