import { formatRange } from "../../../../shared/estimate-text";
import {
  changeSummary,
  type LockReason,
  type PlannedFields,
  type ReplanChange,
} from "../../../../shared/schemas/replan";
import { taskTitle } from "../../../../shared/task-title";
import type { TreeIndexEntry } from "./task-tree";

/** How the review dialog shows a re-plan's changes (no React here, so it is tested on its own). */

export const LOCK_TEXT: Record<LockReason, string> = {
  completed: "completed",
  edited: "edited by hand",
  exported: "exported",
};

/** "Locked: edited by hand, exported" (empty when it is not locked). */
export function lockText(locked: readonly LockReason[]): string {
  return locked.length ? `Locked: ${locked.map((l) => LOCK_TEXT[l]).join(", ")}` : "";
}

const FIELD_LABELS: Record<keyof PlannedFields, string> = {
  description: "Title and description",
  implementation_details: "Implementation details",
  acceptance_criteria: "Acceptance criteria",
  requirement_ids: "Requirements",
  story_points: "Story points",
  complexity_score: "Complexity",
  estimate_hours: "Estimate",
};

function valueText(field: keyof PlannedFields, value: unknown): string {
  if (value === null || value === undefined || (Array.isArray(value) && value.length === 0)) return "none";
  if (field === "estimate_hours") return formatRange(value as { low: number; likely: number; high: number });
  if (field === "complexity_score") return `${value}/10`;
  if (Array.isArray(value)) return value.join("; ");
  return String(value);
}

export type ChangeLine = { field: string; before: string; after: string };

export type ChangeView = {
  id: string;
  op: ReplanChange["op"];
  /** "Add", "Change", "Move", "Remove". */
  verb: string;
  title: string;
  /** Where it goes (add, move) or what goes with it (remove). */
  note: string;
  lines: ChangeLine[];
  requires: string[];
};

/** Every change in words: the task's title, what changes, and where it goes. */
export function changeViews(
  changes: readonly ReplanChange[],
  index: ReadonlyMap<string, TreeIndexEntry>,
): ChangeView[] {
  const addedTitle = new Map<string, string>();
  for (const c of changes) if (c.op === "add") addedTitle.set(c.change_id, c.after.description);
  const nameOf = (taskId: string | null, changeId: string | null) => {
    if (changeId) return `"${taskTitle(addedTitle.get(changeId) ?? "a new task", 60)}" (new)`;
    const node = taskId ? index.get(taskId)?.node : undefined;
    return node ? `"${taskTitle(node.description, 60)}"` : "a task no longer in the plan";
  };
  const titleOf = (taskId: string) => taskTitle(index.get(taskId)?.node.description ?? "A task", 100);
  return changes.map((c): ChangeView => {
    switch (c.op) {
      case "add":
        return {
          id: c.change_id,
          op: c.op,
          verb: "Add",
          title: taskTitle(c.after.description, 100),
          note: `under ${nameOf(c.parent_id, c.parent_change_id)}`,
          lines: [
            ...(c.after.estimate_hours
              ? [
                  {
                    field: "Estimate",
                    before: "",
                    after: valueText("estimate_hours", c.after.estimate_hours),
                  },
                ]
              : []),
            ...(c.after.acceptance_criteria.length
              ? [{ field: "Acceptance criteria", before: "", after: c.after.acceptance_criteria.join("; ") }]
              : []),
          ],
          requires: c.requires,
        };
      case "update":
        return {
          id: c.change_id,
          op: c.op,
          verb: "Change",
          title: titleOf(c.task_id),
          note: "",
          lines: (Object.keys(c.after) as (keyof PlannedFields)[]).map((f) => ({
            field: FIELD_LABELS[f],
            before: valueText(f, c.before[f]),
            after: valueText(f, c.after[f]),
          })),
          requires: c.requires,
        };
      case "move":
        return {
          id: c.change_id,
          op: c.op,
          verb: "Move",
          title: titleOf(c.task_id),
          note: `from ${nameOf(c.before.parent_id, null)} to ${nameOf(c.parent_id, c.parent_change_id)}`,
          lines: [],
          requires: c.requires,
        };
      default:
        return {
          id: c.change_id,
          op: c.op,
          // A merge ("less detail") keeps the work: its requirements, hours and order go to the other task.
          verb: c.merged_into ? "Merge" : "Remove",
          title: taskTitle(c.before.description, 100),
          note: [
            c.merged_into ? `into ${nameOf(c.merged_into, null)}` : "",
            c.before.subtasks > 0
              ? `with its ${c.before.subtasks} subtask${c.before.subtasks === 1 ? "" : "s"}`
              : "",
          ]
            .filter(Boolean)
            .join(", "),
          lines: [],
          requires: c.requires,
        };
    }
  });
}

/** "2 to add, 1 to change, 3 to remove" for the proposal's summary line. */
export function changeCounts(changes: readonly { op: ReplanChange["op"] }[]): string {
  return changeSummary(changes, { add: "to add", update: "to change", move: "to move", remove: "to remove" });
}

/**
 * Ticks or unticks a change. Ticking one ticks what it needs (a new parent, a move out of a removed
 * task); unticking one unticks what needs it, so the selection can always be applied.
 */
export function toggleChange(
  selected: ReadonlySet<string>,
  id: string,
  changes: readonly { change_id: string; requires: string[] }[],
): Set<string> {
  const next = new Set(selected);
  const byId = new Map(changes.map((c) => [c.change_id, c]));
  if (next.has(id)) {
    const drop = (x: string) => {
      if (!next.delete(x)) return;
      for (const c of changes) if (c.requires.includes(x)) drop(c.change_id);
    };
    drop(id);
  } else {
    const add = (x: string) => {
      if (next.has(x) || !byId.has(x)) return;
      next.add(x);
      for (const r of byId.get(x)!.requires) add(r);
    };
    add(id);
  }
  return next;
}
