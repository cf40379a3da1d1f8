import { and, eq, isNull, sql } from "drizzle-orm";
import { EXPORT_LABELS } from "../../../shared/schemas/integrations";
import { STORY_POINTS, type TaskStatus } from "../../../shared/schemas/tasks";
import { type RemoteBaseline, remoteItems, trackerChanges } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { recordActivity } from "../../plan/activity";
import { getOwnedRow } from "../../plan/owned";
import { addTask } from "../tasks/add-task";
import { deleteSubtask } from "../tasks/delete-subtask";
import { moveTask } from "../tasks/move";
import { updateTask } from "../tasks/update-task";
import { type ItemRow, normalText, withinDescription, withTitle } from "./tracker-changes";

/** The task an item there was made for, in the same plan and place (null when it has none). */
async function taskOfRemote(deps: Deps, c: typeof trackerChanges.$inferSelect, remoteId: string | null) {
  if (!remoteId) return null;
  const [row] = await deps.db
    .select({ taskId: remoteItems.taskId })
    .from(remoteItems)
    .where(
      and(
        eq(remoteItems.rootTaskId, c.rootTaskId),
        eq(remoteItems.kind, c.kind),
        eq(remoteItems.target, c.target),
        eq(remoteItems.remoteId, remoteId),
      ),
    )
    .limit(1);
  return row?.taskId ?? null;
}

/** After a decision, the item's baseline takes their value, so the same edit is not proposed again. */
async function settleBaseline(deps: Deps, c: typeof trackerChanges.$inferSelect, item: ItemRow | null) {
  if (!item?.baseline) return;
  const base: RemoteBaseline = { ...item.baseline };
  if (c.field === "title") base.title = String(c.theirs);
  else if (c.field === "description") {
    const theirs = c.theirs as { text: string; description: string };
    base.text = theirs.text;
    base.description = theirs.description;
  } else if (c.field === "story_points") base.story_points = (c.theirs as number | null) ?? null;
  else if (c.field === "parent") base.parent = (c.theirs as string | null) ?? null;
  await deps.db
    .update(remoteItems)
    .set({ baseline: base, baselineAt: new Date() })
    .where(eq(remoteItems.id, item.id));
}

/**
 * Takes theirs (applies the change to the plan through the task services, so revisions, live updates
 * and the schedule follow) or keeps ours (the next export writes Atomize's value there). Either way the
 * change is closed and not proposed again for the same value.
 */
export async function resolveTrackerChange(
  deps: Deps,
  userId: string,
  projectId: string,
  changeId: string,
  decision: "theirs" | "ours",
) {
  const row = await getOwnedRow(deps, userId, projectId);
  const rootId = row.rootTaskId ?? row.id;
  const [c] = await deps.db
    .select()
    .from(trackerChanges)
    .where(
      and(
        eq(trackerChanges.id, changeId),
        eq(trackerChanges.rootTaskId, rootId),
        eq(trackerChanges.userId, userId),
      ),
    );
  if (!c) throw new AppError("NOT_FOUND", "This change is not in the plan's review.");
  const reviewed = () =>
    new AppError(
      "CONFLICT",
      "This change was already reviewed, or a newer edit there replaced it: refresh the list.",
    );
  if (c.status !== "open") throw reviewed();
  // Claimed in one statement before anything is applied (issue 39): of two resolves at once, on any
  // database, one takes the row and the other gets 409; nothing is applied twice. A failure releases it.
  const [claimed] = await deps.db
    .update(trackerChanges)
    .set({ resolvedAt: new Date() })
    .where(
      and(eq(trackerChanges.id, c.id), eq(trackerChanges.status, "open"), isNull(trackerChanges.resolvedAt)),
    )
    .returning({ id: trackerChanges.id });
  if (!claimed) throw reviewed();
  try {
    return await applyResolution(deps, userId, rootId, c, decision);
  } catch (err) {
    await deps.db.update(trackerChanges).set({ resolvedAt: null }).where(eq(trackerChanges.id, c.id));
    throw err;
  }
}

/** Applies a claimed change (theirs) or keeps ours, and closes it. */
async function applyResolution(
  deps: Deps,
  userId: string,
  rootId: string,
  c: typeof trackerChanges.$inferSelect,
  decision: "theirs" | "ours",
) {
  const [item] = c.remoteItemId
    ? await deps.db.select().from(remoteItems).where(eq(remoteItems.id, c.remoteItemId))
    : [null];
  const taskId = item?.taskId ?? null;
  let result: string | null = decision === "ours" ? null : taskId;
  if (decision === "theirs") {
    if (c.field !== "added" && !taskId)
      throw new AppError("CONFLICT", "Its task was deleted from the plan: keep ours to close the change.");
    switch (c.field) {
      case "title": {
        const title = String(c.theirs).trim();
        if (!title) throw new AppError("UNPROCESSABLE_CONTENT", "The title there is empty: keep ours.");
        const task = await getOwnedRow(deps, userId, taskId!);
        await updateTask(deps, userId, taskId!, {
          description: withinDescription(withTitle(task.description, title)),
        });
        break;
      }
      case "description": {
        const text = (c.theirs as { description: string }).description.trim();
        if (!text) throw new AppError("UNPROCESSABLE_CONTENT", "The description there is empty: keep ours.");
        await updateTask(deps, userId, taskId!, { description: withinDescription(text) });
        break;
      }
      case "story_points": {
        const points = c.theirs as number | null;
        if (points !== null && !(STORY_POINTS as readonly number[]).includes(points))
          throw new AppError(
            "UNPROCESSABLE_CONTENT",
            `${points} story points is not on Atomize's scale (${STORY_POINTS.join(", ")}): keep ours, or set the points by hand.`,
          );
        await updateTask(deps, userId, taskId!, { story_points: points });
        break;
      }
      case "parent": {
        const parent = (await taskOfRemote(deps, c, c.theirs as string | null)) ?? rootId;
        await moveTask(deps, userId, taskId!, { parent_id: parent, position: 100_000 });
        break;
      }
      case "status": {
        const status = (c.theirs as { status: TaskStatus }).status;
        await updateTask(deps, userId, taskId!, {
          status: status as "pending" | "in_progress" | "completed",
        });
        break;
      }
      case "closed":
        await deleteSubtask(deps, userId, taskId!);
        result = null;
        break;
      case "added": {
        const a = c.theirs as { title: string; text: string; parent: string | null };
        const parent = (await taskOfRemote(deps, c, a.parent)) ?? rootId;
        const text = normalText(a.text);
        const title = a.title.trim() || c.remoteKey;
        const made = await addTask(deps, userId, parent, {
          description: withinDescription(text ? `${title}\n\n${text}` : title),
          position: "child",
          auto_decompose: false,
        });
        await deps.db
          .insert(remoteItems)
          .values({
            userId,
            taskId: made.id,
            rootTaskId: rootId,
            kind: c.kind,
            target: c.target,
            remoteId: c.remoteId,
            remoteKey: c.remoteKey,
            url: c.url,
            remoteParent: a.parent,
            baseline: { title: a.title, text: a.text, story_points: null, description: made.description },
            baselineAt: new Date(),
          })
          .onConflictDoNothing();
        result = made.id;
        break;
      }
    }
  }
  await settleBaseline(deps, c, item);
  await deps.db.transaction(async (tx) => {
    await tx
      .update(trackerChanges)
      .set({ status: decision === "theirs" ? "accepted" : "rejected", resolvedAt: new Date() })
      .where(eq(trackerChanges.id, c.id));
    const what = `${EXPORT_LABELS[c.kind]}'s ${c.field === "added" ? "new item" : c.field === "closed" ? "closing" : c.field.replace(/_/g, " ")} of ${c.remoteKey}`;
    await recordActivity(tx, {
      rootId,
      taskId: result ?? taskId,
      kind: "tracker",
      summary: decision === "theirs" ? `took ${what} into the plan` : `kept the plan's own over ${what}`,
    });
  });
  const [{ n } = { n: 0 }] = await deps.db
    .select({ n: sql<number>`count(*)::int` })
    .from(trackerChanges)
    .where(and(eq(trackerChanges.rootTaskId, rootId), eq(trackerChanges.status, "open")));
  await deps.events.publish({
    type: "task.updated",
    userId,
    taskId: rootId,
    rootTaskId: rootId,
    message: `Change from ${EXPORT_LABELS[c.kind]} ${decision === "theirs" ? "taken" : "declined"}`,
    data: { tracker_changes: n },
  });
  return { id: c.id, decision, task_id: result, remaining: n };
}
