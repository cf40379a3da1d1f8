import { formatRange } from "../../../../shared/estimate-text";
import type { TaskTreeNode } from "../../../../shared/schemas/tasks";
import { taskTitle } from "../../../../shared/task-title";

export const REMOVED_LABEL = "atomize: removed";

export const LABELS = [
  { name: "atomize", color: "5b21b6", description: "Planned with Atomize" },
  { name: REMOVED_LABEL, color: "bfbfbf", description: "Its task was deleted from the Atomize plan" },
  { name: "complexity: high", color: "d73a4a", description: "Complexity 8-10" },
  { name: "complexity: medium", color: "fbca04", description: "Complexity 5-7" },
  { name: "complexity: low", color: "0e8a16", description: "Complexity 1-4" },
  ...[1, 2, 3, 5, 8, 13].map((n) => ({
    name: `sp: ${n}`,
    color: "c5def5",
    description: `${n} story points`,
  })),
];

export function body(task: TaskTreeNode): string {
  const range = task.estimate_hours;
  return [
    task.description,
    task.implementation_details ? `**Implementation:** ${task.implementation_details}` : "",
    `**Complexity:** ${task.complexity_score ?? "?"}/10 · **Story points:** ${task.story_points ?? "?"}${
      range ? ` · **Estimate:** ${formatRange(range)}` : ""
    }`,
    task.children.length
      ? `### Subtasks\n${task.children.map((c) => `- [${c.status === "completed" ? "x" : " "}] ${taskTitle(c.description, 200)}`).join("\n")}`
      : "",
    "_Planned with Atomize._",
  ]
    .filter(Boolean)
    .join("\n\n");
}

/** An invisible line in each issue's body that names its task, so a resumed export finds what it made. */
export function taskMarker(taskId: string): string {
  return `<!-- atomize-task:${taskId} -->`;
}

/**
 * Tasks ordered so that each comes after the tasks it waits for, and otherwise in tree order (Kahn's
 * algorithm taking the earliest ready task first), so an issue's body can name its blockers by number.
 * A plan's dependencies never form a cycle (the service refuses them); were one to appear, the rest
 * follow in tree order.
 */
export function blockersFirst<T extends { id: string; depends_on: string[] }>(tasks: T[]): T[] {
  const at = new Map(tasks.map((t, i) => [t.id, i]));
  const waiting = tasks.map((t) => t.depends_on.filter((id) => at.has(id) && id !== t.id).length);
  const blocks = tasks.map(() => [] as number[]);
  tasks.forEach((t, i) => {
    for (const id of t.depends_on) if (at.has(id) && id !== t.id) blocks[at.get(id)!]!.push(i);
  });
  const done = new Array<boolean>(tasks.length).fill(false);
  const out: T[] = [];
  while (out.length < tasks.length) {
    let next = waiting.findIndex((w, i) => w === 0 && !done[i]);
    if (next < 0) next = done.indexOf(false);
    done[next] = true;
    out.push(tasks[next]!);
    for (const j of blocks[next]!) waiting[j]!--;
  }
  return out;
}
