import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useLocation } from "wouter";
import type { Task } from "../../../shared/schemas/tasks";
import { descriptionFirstLine, UNTITLED_TASK } from "../../../shared/task-title";
import { DeleteTaskModal } from "../../components/delete-task-modal";
import { TaskStatusBadge, WorkProgress } from "../../components/task-status-badge";
import { useToast } from "../../components/toast";
import { CONNECT_MODEL_PATH, plannedByText, usageText } from "../../lib/planner-text";
import { useTaskCache } from "../../lib/task-cache";
import { taskBadge } from "../../lib/task-status";
import { deleteTaskConfirmation } from "../../lib/task-text";
import { formatDateTime } from "../../lib/time-format";
import { useTRPC } from "../../lib/trpc";
import { TaskExports } from "./exports/task-exports";
import type { TreeSummary } from "./shared/task-tree";
import { useRefreshTask } from "./shared/use-task-detail";
import { EditTaskModal } from "./tree/edit-task-modal";

/**
 * The task card on the detail page: what the task is, its plan's state (or, on a subtask, its own), how
 * far its work has got (leaves done of all), and its actions.
 */
export function TaskSummaryCard({ task, summary }: { task: Task; summary: TreeSummary | null }) {
  const trpc = useTRPC();
  const toast = useToast();
  const cache = useTaskCache();
  const refresh = useRefreshTask(task.id);
  const [, navigate] = useLocation();
  const [editing, setEditing] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);

  const complete = useMutation(
    trpc.tasks.update.mutationOptions({
      onSuccess: (saved) => {
        toast.success("Task updated successfully");
        void refresh(saved);
      },
      onError: () => {
        toast.error("Failed to update task");
      },
    }),
  );

  const remove = useMutation(
    trpc.tasks.delete.mutationOptions({
      retry: false,
      onSuccess: () => {
        toast.success("Task deleted successfully");
        setConfirmDelete(false);
        navigate("/dashboard");
        // Once this page has unmounted, so nothing refetches the deleted task.
        setTimeout(() => {
          cache.forgetTask(task.id);
          void cache.invalidateLists();
          void cache.invalidateTasks();
        }, 0);
      },
      onError: () => {
        toast.error("Failed to delete task");
        setConfirmDelete(false);
      },
    }),
  );

  const title = descriptionFirstLine(task.description) || UNTITLED_TASK;
  const rest = task.description
    .trim()
    .slice(task.description.trim().indexOf(title) + title.length)
    .trim();
  const subtasks = task.total_subtasks;
  // The work's progress is its leaves; the badge is the plan's state (on a root) or the task's own.
  const showProgress = summary !== null && summary.total > 1;
  const plannedBy = plannedByText(task);
  const usage = usageText(task);

  return (
    <section aria-labelledby="task-title" className="card border border-base-300 bg-base-200">
      <div className="card-body gap-4 p-4 sm:p-6">
        <div className="flex flex-col gap-3 lg:flex-row lg:items-start lg:justify-between">
          <div className="min-w-0 flex-1">
            <div className="flex flex-wrap items-center gap-2">
              <TaskStatusBadge status={task.status} badge={taskBadge(task, "detail")} className="badge-md" />
              {task.parent_id && <span className="badge badge-ghost badge-md">Subtask</span>}
            </div>
            <h1 id="task-title" className="mt-2 break-words text-xl font-bold leading-snug sm:text-2xl">
              {title}
            </h1>
            {rest && (
              <p className="mt-2 line-clamp-4 whitespace-pre-line break-words text-sm text-base-content/80">
                {rest}
              </p>
            )}
            <div className="mt-3 flex flex-wrap gap-x-5 gap-y-1 text-sm text-base-content/70">
              <span>
                Created <time dateTime={task.created_at}>{formatDateTime(task.created_at)}</time>
              </span>
              <span>
                {subtasks} {subtasks === 1 ? "subtask" : "subtasks"}
              </span>
              {plannedBy && <span data-testid="planned-by">{plannedBy}</span>}
              {task.planner === "offline" && (
                <Link href={CONNECT_MODEL_PATH} className="link link-primary">
                  Connect a model
                </Link>
              )}
              {usage && <span data-testid="planner-usage">{usage}</span>}
            </div>
          </div>

          <div className="flex flex-wrap gap-2 lg:justify-end">
            <TaskExports task={task} />
            {/* A project's work is done by its tasks, and its status is its plan's: no Complete on it,
                least of all while it is being planned (issue 40). */}
            {task.parent_id !== null && task.status !== "completed" && (
              <button
                type="button"
                className="btn btn-success btn-sm"
                disabled={complete.isPending}
                onClick={() => complete.mutate({ id: task.id, updates: { status: "completed" } })}
              >
                {complete.isPending && (
                  <span className="loading loading-spinner loading-xs" aria-hidden="true" />
                )}
                Mark Complete
              </button>
            )}
            <button type="button" className="btn btn-sm" onClick={() => setEditing(true)}>
              Edit
            </button>
            <button
              type="button"
              className="btn btn-error btn-outline btn-sm"
              onClick={() => setConfirmDelete(true)}
            >
              Delete
            </button>
          </div>
        </div>

        {showProgress && summary && (
          <WorkProgress done={summary.leavesDone} total={summary.leaves} label="Work done" />
        )}

        {task.warnings.length > 0 && (
          <div role="note" className="alert alert-warning alert-soft items-start">
            <div className="text-sm">
              <p className="font-semibold">Warnings</p>
              <ul className="mt-1 list-disc pl-5">
                {task.warnings.map((w, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: warnings may repeat; order is stable
                  <li key={i}>{w}</li>
                ))}
              </ul>
            </div>
          </div>
        )}
      </div>

      <EditTaskModal
        open={editing}
        task={task}
        onClose={() => setEditing(false)}
        onSaved={(t) => void refresh(t)}
      />
      <DeleteTaskModal
        open={confirmDelete}
        message={deleteTaskConfirmation(task.description)}
        pending={remove.isPending}
        onClose={() => setConfirmDelete(false)}
        onConfirm={() => remove.mutate({ id: task.id })}
      />
    </section>
  );
}
