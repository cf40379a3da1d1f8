/**
 * How a task is named from its description, on screen (cards, tree, detail) and in exported issues and
 * cards alike. Lengths count UTF-16 units, as JIRA, Trello and GitHub limit them, and a cut never splits
 * a character.
 */

/** The title of a task whose description has no text. */
export const UNTITLED_TASK = "Untitled task";

/** The first non-blank line of a description, trimmed. */
export function descriptionFirstLine(description: string): string {
  const line = description
    .split(/\r\n|\r|\n/)
    .map((l) => l.trim())
    .find((l) => l !== "");
  return line ?? "";
}

/** Text on one line (runs of white space as one space), at most `max` long including the "…" of a cut. */
export function fitText(text: string, max: number): string {
  const line = text.trim().replace(/\s+/g, " ");
  if (line.length <= max) return line;
  let cut = "";
  for (const char of line) {
    if (cut.length + char.length > max - 1) break;
    cut += char;
  }
  return `${cut.trimEnd()}…`;
}

/** A task's title: the first line of its description, fitted to `max`. */
export function taskTitle(description: string, max: number): string {
  return fitText(descriptionFirstLine(description), max) || UNTITLED_TASK;
}
