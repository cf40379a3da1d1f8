/** A task card's title: 60 characters of the description's first line, plus the "…" of a cut. */
export const TASK_TITLE_MAX = 61;
/** How much of a description the delete confirmation quotes. */
const DELETE_EXCERPT_MAX = 50;

function excerpt(description: string): string {
  return Array.from(description).slice(0, DELETE_EXCERPT_MAX).join("");
}

/** The delete-confirmation sentence on the dashboard and the task detail page. */
export function deleteTaskConfirmation(description: string): string {
  return `Are you sure you want to delete "${excerpt(description)}..."? This will also delete all subtasks.`;
}

/** The Subtasks tab's delete confirmation: names the subtask and how many subtasks go with it. */
export function deleteSubtaskConfirmation(description: string, subtasks: number): string {
  const base = `Are you sure you want to delete "${excerpt(description)}..."`;
  if (subtasks <= 0) return `${base}?`;
  return `${base} and its ${subtasks} ${subtasks === 1 ? "subtask" : "subtasks"}?`;
}
