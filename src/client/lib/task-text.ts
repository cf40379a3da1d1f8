/** Spec 9: task card title truncation and the delete-confirmation excerpt. */
export const TASK_TITLE_MAX = 60;
export const DELETE_EXCERPT_MAX = 50;

export function firstLine(description: string): string {
  const line = description
    .split(/\r?\n/)
    .map((l) => l.trim())
    .find((l) => l !== "");
  return line ?? "";
}

/** Cuts text to `max` characters, ending with "…" when anything was cut. */
export function truncate(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length > max ? `${chars.slice(0, max).join("").trimEnd()}…` : text;
}

/** A task's title: the first line of its description, at most 60 characters (spec 2 task card). */
export function taskTitle(description: string, max = TASK_TITLE_MAX): string {
  return truncate(firstLine(description), max) || "Untitled task";
}

function excerpt(description: string): string {
  return Array.from(description).slice(0, DELETE_EXCERPT_MAX).join("");
}

/** Spec 2 dashboard and task detail: the exact delete-confirmation sentence. */
export function deleteTaskConfirmation(description: string): string {
  return `Are you sure you want to delete "${excerpt(description)}..."? This will also delete all subtasks.`;
}

/** Spec 2 subtasks tab: names the subtask and how many subtasks go with it. */
export function deleteSubtaskConfirmation(description: string, subtasks: number): string {
  const base = `Are you sure you want to delete "${excerpt(description)}..."`;
  if (subtasks <= 0) return `${base}?`;
  return `${base} and its ${subtasks} ${subtasks === 1 ? "subtask" : "subtasks"}?`;
}
