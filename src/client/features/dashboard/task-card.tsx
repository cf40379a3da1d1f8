import { type MouseEvent, useId } from "react";
import { Link } from "wouter";
import type { Task, TaskListItem } from "../../../shared/schemas/tasks";
import { taskTitle } from "../../../shared/task-title";
import { TaskStatusBadge, WorkProgress } from "../../components/task-status-badge";
import { canComplete, taskBadge } from "../../lib/task-status";
import { TASK_TITLE_MAX } from "../../lib/task-text";
import { formatDateTime, formatRelativeTime } from "../../lib/time-format";

export type TaskCardProps = {
  task: TaskListItem;
  onOpen: (task: Task) => void;
  onComplete: (task: Task) => void;
  onDelete: (task: Task) => void;
  completing?: boolean;
  deleting?: boolean;
};

/** True when the click landed on a control inside the card or ended a text selection. */
function isInnerAction(event: MouseEvent<HTMLElement>): boolean {
  const target = event.target as HTMLElement;
  if (target.closest("a, button, input, select, textarea, label")) return true;
  return (window.getSelection()?.toString() ?? "") !== "";
}

/**
 * A task card on the dashboard. The whole card opens the task on click; keyboard and screen-reader users
 * reach the same place through the title link (Enter) or the View button. A plan shows its state
 * ("Planned", "Planning...") and, once it has subtasks, its work's progress (leaves done of all) apart:
 * a plan is "completed" by the API as soon as it is made, which says nothing of the work.
 */
export function TaskCard({ task, onOpen, onComplete, onDelete, completing, deleting }: TaskCardProps) {
  const titleId = useId();
  const title = taskTitle(task.description, TASK_TITLE_MAX);
  const href = `/tasks/${encodeURIComponent(task.id)}`;
  const subtasks = task.total_subtasks;
  const stop = (event: MouseEvent) => event.stopPropagation();

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the title link is the keyboard path to the same page
    <article
      aria-labelledby={titleId}
      data-testid="task-card"
      className={`card h-full cursor-pointer border border-base-300 bg-base-200 shadow-sm transition hover:border-primary/60 hover:shadow-md ${deleting ? "pointer-events-none opacity-50" : ""}`}
      onClick={(event) => {
        if (!isInnerAction(event)) onOpen(task);
      }}
    >
      <div className="card-body gap-3 p-4 sm:p-5">
        <div className="flex items-start justify-between gap-3">
          <h3 id={titleId} className="min-w-0 break-words text-base font-semibold leading-snug">
            <Link href={href} className="hover:text-primary hover:underline" onClick={stop}>
              {title}
            </Link>
          </h3>
          <TaskStatusBadge status={task.status} badge={taskBadge(task, "list")} />
        </div>

        <p className="line-clamp-3 whitespace-pre-line break-words text-sm text-base-content/80">
          {task.description}
        </p>

        {task.status === "rejected" && task.rejection_reason && (
          <div className="rounded-box border border-error/40 bg-error/10 px-3 py-2 text-sm" role="note">
            <span className="font-semibold text-error">Rejection reason: </span>
            <span className="break-words">{task.rejection_reason}</span>
          </div>
        )}

        {(task.status === "failed" || task.status === "error") && task.failure_reason && (
          <div className="rounded-box border border-error/40 bg-error/10 px-3 py-2 text-sm" role="note">
            <p className="line-clamp-1 break-all" title={task.failure_reason}>
              <span className="font-semibold text-error">Failure reason: </span>
              {task.failure_reason}
            </p>
          </div>
        )}

        {subtasks > 0 && (
          <WorkProgress
            done={task.progress.leaves_done}
            total={task.progress.leaves_total}
            label="Work done"
            className="mt-auto"
          />
        )}

        <div
          className={`${subtasks > 0 ? "" : "mt-auto "}flex flex-wrap gap-x-4 gap-y-1 text-xs text-base-content/60`}
        >
          <time dateTime={task.created_at} title={formatDateTime(task.created_at)}>
            Created {formatRelativeTime(task.created_at)}
          </time>
          <span>
            {subtasks} {subtasks === 1 ? "subtask" : "subtasks"}
          </span>
        </div>

        <div className="card-actions justify-end gap-2">
          <button
            type="button"
            className="btn btn-sm btn-ghost"
            aria-describedby={titleId}
            onClick={(event) => {
              stop(event);
              onOpen(task);
            }}
          >
            View
          </button>
          {canComplete(task.status) && (
            <button
              type="button"
              className="btn btn-sm btn-success btn-outline"
              aria-describedby={titleId}
              disabled={completing}
              onClick={(event) => {
                stop(event);
                onComplete(task);
              }}
            >
              {completing && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
              Complete
            </button>
          )}
          <button
            type="button"
            className="btn btn-sm btn-error btn-outline"
            aria-describedby={titleId}
            disabled={deleting}
            onClick={(event) => {
              stop(event);
              onDelete(task);
            }}
          >
            Delete
          </button>
        </div>
      </div>
    </article>
  );
}

export function TaskCardSkeleton() {
  return (
    <div className="card h-60 border border-base-300 bg-base-200" aria-hidden="true">
      <div className="card-body gap-3 p-4 sm:p-5">
        <div className="flex justify-between gap-3">
          <div className="skeleton h-5 w-2/3" />
          <div className="skeleton h-5 w-16" />
        </div>
        <div className="skeleton h-4 w-full" />
        <div className="skeleton h-4 w-5/6" />
        <div className="skeleton h-4 w-1/2" />
        <div className="mt-auto flex justify-end gap-2">
          <div className="skeleton h-8 w-14" />
          <div className="skeleton h-8 w-20" />
          <div className="skeleton h-8 w-16" />
        </div>
      </div>
    </div>
  );
}
