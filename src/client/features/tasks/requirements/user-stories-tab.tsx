import { useMemo, useState } from "react";
import type { Task, UserStory } from "../../../../shared/schemas/tasks";
import { EmptyState } from "../../../components/empty-state";
import { isAwaitingDecomposition } from "../../../lib/task-status";
import { epicPriorityClass, groupStories, storyPriority } from "./user-story-groups";

function StoryCard({ story }: { story: UserStory }) {
  const priority = storyPriority(story.priority);
  return (
    <li className="rounded-box border border-base-300 bg-base-100 p-4">
      <p className="break-words text-sm leading-relaxed">
        As a <strong>{story.actor}</strong>, I want to <strong>{story.action}</strong>
        {story.benefit ? (
          <>
            , so that <strong>{story.benefit}</strong>
          </>
        ) : null}
        .
      </p>
      {story.acceptance_criteria.length > 0 && (
        <div className="mt-3">
          <p className="text-xs font-semibold uppercase tracking-wide text-base-content/60">
            Acceptance criteria
          </p>
          <ul className="mt-1 list-disc space-y-1 pl-5 text-sm">
            {story.acceptance_criteria.map((c, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: criteria may repeat; order is stable
              <li key={i}>{c}</li>
            ))}
          </ul>
        </div>
      )}
      <div className="mt-3 flex flex-wrap gap-2">
        <span className={`badge badge-sm ${priority.className}`}>{priority.label}</span>
        {story.story_points !== null && (
          <span className="badge badge-sm badge-outline">
            {story.story_points} {story.story_points === 1 ? "point" : "points"}
          </span>
        )}
      </div>
    </li>
  );
}

/** User Stories tab: stories grouped under their epics, collapsible. */
export function UserStoriesTab({ task }: { task: Task }) {
  const epics = task.context?.epics ?? [];
  const stories = task.context?.user_stories ?? [];
  const groups = useMemo(() => groupStories(epics, stories), [epics, stories]);
  const [collapsed, setCollapsed] = useState<Set<string>>(() => new Set());

  if (stories.length === 0 && epics.length === 0) {
    return (
      <EmptyState title="No User Stories">
        {task.parent_id
          ? "User stories belong to the root task of this tree."
          : isAwaitingDecomposition(task.status)
            ? "Decomposition has not run yet. Epics and user stories are drafted with it."
            : "No epics or user stories were produced for this task."}
      </EmptyState>
    );
  }

  const toggle = (id: string) =>
    setCollapsed((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-base-content/70">
          {stories.length} {stories.length === 1 ? "story" : "stories"} in {epics.length}{" "}
          {epics.length === 1 ? "epic" : "epics"}
        </p>
        <div className="flex gap-2">
          <button type="button" className="btn btn-sm" onClick={() => setCollapsed(new Set())}>
            Expand All
          </button>
          <button
            type="button"
            className="btn btn-sm"
            onClick={() => setCollapsed(new Set(groups.map((g) => g.id)))}
          >
            Collapse All
          </button>
        </div>
      </div>

      {groups.map((group) => {
        const open = !collapsed.has(group.id);
        const panelId = `story-group-${group.id}`;
        const title = group.epic ? group.epic.title : "Unassigned Stories";
        return (
          <section
            key={group.id}
            className="rounded-box border border-base-300 bg-base-200"
            aria-label={title}
          >
            <h3>
              <button
                type="button"
                className="flex w-full items-start gap-3 rounded-box px-4 py-3 text-left hover:bg-base-300/50"
                aria-expanded={open}
                aria-controls={panelId}
                onClick={() => toggle(group.id)}
              >
                <svg
                  aria-hidden="true"
                  viewBox="0 0 20 20"
                  className={`mt-1 size-4 shrink-0 transition-transform ${open ? "rotate-90" : ""}`}
                  fill="currentColor"
                >
                  <path d="M7 5l6 5-6 5V5z" />
                </svg>
                <span className="min-w-0 flex-1">
                  <span className="block break-words font-semibold">{title}</span>
                  {group.epic?.description && (
                    <span className="mt-0.5 block text-sm font-normal text-base-content/70">
                      {group.epic.description}
                    </span>
                  )}
                </span>
                <span className="flex shrink-0 flex-col items-end gap-1 sm:flex-row sm:items-center">
                  {group.epic && (
                    <span className={`badge badge-sm ${epicPriorityClass(group.epic.priority)}`}>
                      Priority {group.epic.priority}
                    </span>
                  )}
                  <span className="badge badge-sm badge-ghost">
                    {group.stories.length} {group.stories.length === 1 ? "story" : "stories"}
                  </span>
                </span>
              </button>
            </h3>
            <div id={panelId} hidden={!open} className="px-4 pb-4">
              {group.stories.length > 0 ? (
                <ul className="flex flex-col gap-3">
                  {group.stories.map((story) => (
                    <StoryCard key={story.id} story={story} />
                  ))}
                </ul>
              ) : (
                <p className="text-sm text-base-content/60">No stories in this epic yet.</p>
              )}
            </div>
          </section>
        );
      })}
    </div>
  );
}
