import { formatRange } from "../../../../shared/estimate-text";
import type { TaskTreeNode } from "../../../../shared/schemas/tasks";
import { fitText, taskTitle } from "../../../../shared/task-title";
import { subtasksOf } from "../tracker";
import type { Checklist } from "./types";

export const LISTS = ["To Do", "In Progress", "Done"] as const;

export const LABELS = [
  { band: "high", name: "Complexity: High", color: "red" },
  { band: "medium", name: "Complexity: Medium", color: "yellow" },
  { band: "low", name: "Complexity: Low", color: "green" },
] as const;

export function listFor(task: TaskTreeNode): (typeof LISTS)[number] {
  if (task.status === "completed") return "Done";
  if (task.status === "in_progress" || task.status === "processing") return "In Progress";
  return "To Do";
}

/** The line at the end of a card's description that says which task it is, so a resumed export finds it. */
export function cardMarker(taskId: string): string {
  return `atomize:${taskId}`;
}

/** The line in the board's description that marks this export's board. */
export function boardMarker(exportId: string): string {
  return `atomize-export-${exportId.replace(/-/g, "").slice(0, 12)}`;
}

export const hasLine = (text: string | undefined, line: string) =>
  (text ?? "").split(/\r?\n/).some((l) => l.trim() === line);

export function cardDescription(task: TaskTreeNode, path: string[]): string {
  const text = [
    task.description,
    task.implementation_details ? `**Implementation:** ${task.implementation_details}` : "",
    `**Complexity:** ${task.complexity_score ?? "?"}/10 · **Story points:** ${task.story_points ?? "?"}${
      task.estimate_hours ? ` · **Estimate:** ${formatRange(task.estimate_hours)}` : ""
    }`,
    path.length ? `**Part of:** ${path.join(" › ")}` : "",
  ]
    .filter(Boolean)
    .join("\n\n")
    .slice(0, 16_000);
  // Within Trello's 16,384 characters with the marker.
  return `${text}\n\n${cardMarker(task.id)}`;
}

/**
 * Checklists: subtasks of every card with children; "Blocked by" on every card whose task waits for
 * others (checked once the blocker is done); acceptance criteria on first-level cards.
 */
export function planChecklists(tree: TaskTreeNode): Checklist[] {
  const lists: Checklist[] = [];
  const exported = new Map(subtasksOf(tree).map((t) => [t.id, t]));
  for (const t of exported.values()) {
    const blockers = t.depends_on.flatMap((id) => exported.get(id) ?? []);
    if (blockers.length === 0) continue;
    lists.push({
      key: `${t.id}:blocked-by`,
      cardTask: t.id,
      name: "Blocked by",
      items: blockers.map((b) => ({
        name: taskTitle(b.description, 200),
        checked: b.status === "completed",
      })),
    });
  }
  for (const t of subtasksOf(tree)) {
    if (t.children.length === 0) continue;
    lists.push({
      key: `${t.id}:subtasks`,
      cardTask: t.id,
      name: "Subtasks",
      items: t.children.map((c) => ({
        name: taskTitle(c.description, 200),
        checked: c.status === "completed",
      })),
    });
  }
  const epics = tree.context?.epics ?? [];
  const stories = tree.context?.user_stories ?? [];
  if (epics.length === tree.children.length) {
    tree.children.forEach((first, i) => {
      const criteria = stories
        .filter((s) => s.epic_id === epics[i]!.id)
        .flatMap((s) => s.acceptance_criteria);
      if (criteria.length) {
        lists.push({
          key: `${first.id}:criteria`,
          cardTask: first.id,
          name: "Acceptance criteria",
          items: criteria.slice(0, 30).map((c) => ({ name: fitText(c, 200), checked: false })),
        });
      }
    });
  }
  return lists;
}
