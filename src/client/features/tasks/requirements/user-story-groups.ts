import type { Epic, UserStory } from "../../../../shared/schemas/tasks";

export const UNASSIGNED_GROUP_ID = "unassigned";

export type StoryGroup = { id: string; epic: Epic | null; stories: UserStory[] };

/**
 * Stories under their epics, in epic order; stories without an epic, or naming an epic that does not
 * exist, go to a final 'Unassigned Stories' group (present only when it has stories).
 */
export function groupStories(epics: readonly Epic[], stories: readonly UserStory[]): StoryGroup[] {
  const groups = new Map<string, StoryGroup>();
  for (const epic of epics) {
    if (!groups.has(epic.id)) groups.set(epic.id, { id: `epic-${epic.id}`, epic, stories: [] });
  }
  const unassigned: UserStory[] = [];
  for (const story of stories) {
    const group = story.epic_id ? groups.get(story.epic_id) : undefined;
    if (group) group.stories.push(story);
    else unassigned.push(story);
  }
  const result = [...groups.values()];
  if (unassigned.length > 0) result.push({ id: UNASSIGNED_GROUP_ID, epic: null, stories: unassigned });
  return result;
}

/** Epic: priority <=2 error colour, 3 warning, otherwise info. */
export function epicPriorityClass(priority: number): string {
  if (priority <= 2) return "badge-error";
  if (priority === 3) return "badge-warning";
  return "badge-info";
}

/** User story: must_have error, should_have warning, others info. */
export function storyPriority(priority: string): { label: string; className: string } {
  const label = priority
    .split(/[_\s-]+/)
    .filter(Boolean)
    .map((w, i) => (i === 0 ? w[0]!.toUpperCase() + w.slice(1) : w))
    .join(" ");
  const className =
    priority === "must_have" ? "badge-error" : priority === "should_have" ? "badge-warning" : "badge-info";
  return { label: label || "Unprioritised", className };
}
