import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import type { Task } from "../../../../shared/schemas/tasks";
import { useToast } from "../../../components/toast";
import { errorDetailOf } from "../../../lib/api-error";
import { useTaskCache } from "../../../lib/task-cache";
import { useTRPC } from "../../../lib/trpc";
import {
  PHASE_LABEL,
  type ProgressAction,
  type ProgressState,
  type ProgressStep,
  progressView,
} from "./decomposition-progress";
import { useStartHint } from "./use-decomposition-progress";

/** How long the panel stays up after the decomposition finished while it was watched. */
export const PANEL_LINGER_MS = 6_000;

/** The panel shows for a root task being decomposed, and for a failed one (to restart it). */
function isActive(task: Task): boolean {
  if (task.parent_id) return false;
  return ["pending", "processing", "failed", "error"].includes(task.status);
}

/** A decomposition that finished this recently is still shown when the screen opens (a fast planner can finish first). */
export const RECENTLY_FINISHED_MS = 30_000;

function finishedRecently(task: Task): boolean {
  if (task.parent_id || task.status !== "completed" || !task.completed_at) return false;
  return Date.now() - new Date(task.completed_at).getTime() < RECENTLY_FINISHED_MS;
}

/**
 * Whether the panel is up: while active; for a few seconds after the task completed while watched (so
 * the final Complete state is seen before the panel makes room for the result); and when the screen
 * opens on a decomposition that finished moments ago.
 */
export function useProgressPanelVisible(task: Task): boolean {
  const active = isActive(task);
  const finished = task.status === "completed";
  const [lingering, setLingering] = useState(() => finishedRecently(task));
  const wasActive = useRef(active);
  useEffect(() => {
    const before = wasActive.current;
    wasActive.current = active;
    if (active || !finished) {
      setLingering(false);
      return;
    }
    if (!before && !finishedRecently(task)) return;
    setLingering(true);
    const timer = setTimeout(() => setLingering(false), PANEL_LINGER_MS);
    return () => clearTimeout(timer);
  }, [active, finished, task]);
  return active || lingering;
}

const STEP_LABEL: Record<ProgressStep["status"], string> = {
  waiting: "Waiting",
  in_progress: "In progress",
  completed: "Completed",
  error: "Failed",
};

function StepIcon({ status }: { status: ProgressStep["status"] }) {
  switch (status) {
    case "in_progress":
      return <span aria-hidden="true" className="loading loading-spinner loading-xs text-info" />;
    case "completed":
      return (
        <span aria-hidden="true" className="font-bold text-success">
          ✓
        </span>
      );
    case "error":
      return (
        <span aria-hidden="true" className="font-bold text-error">
          ✕
        </span>
      );
    default:
      return (
        <span
          aria-hidden="true"
          className="inline-block size-2.5 rounded-full border border-current opacity-40"
        />
      );
  }
}

/** What to ask a coding agent to go on planning a project (its next_planning_step picks up there). */
export function resumeRequest(projectId: string): string {
  return `Continue planning ${projectId} in Atomize`;
}

const PHASE_BADGE = { running: "badge-info", complete: "badge-success", failed: "badge-error" } as const;
const PHASE_BAR = {
  running: "progress-info",
  complete: "progress-success",
  failed: "progress-error",
} as const;

/** Decomposition progress: the six stages, an overall bar, the live message and Running/Complete/Failed. */
export function DecompositionProgressPanel({
  task,
  state,
  dispatch,
}: {
  task: Task;
  state: ProgressState;
  dispatch: (action: ProgressAction) => void;
}) {
  const trpc = useTRPC();
  const toast = useToast();
  const queryClient = useQueryClient();
  const cache = useTaskCache();
  const view = progressView(state, task);
  // A coding agent plans this project with its own model, step by step (decision 029): nothing runs here
  // between its calls, so the panel says whom it waits for and how to go on (issue 40).
  const byAgent = task.planner === "agent" && view.phase === "running";
  const stopped = task.warnings.find((w) => w.startsWith("Planning with your coding agent's model stopped"));
  useStartHint(state, dispatch, view.phase === "running" && !byAgent);
  // The failure has its own alert below.
  const liveText =
    view.phase === "failed"
      ? ""
      : (view.message ?? (view.phase === "running" ? "Waiting for the planner to start..." : ""));

  const restart = useMutation(
    trpc.tasks.restartDecomposition.mutationOptions({
      retry: false,
      onSuccess: (saved) => {
        queryClient.setQueryData(trpc.tasks.get.queryKey({ id: saved.id }), saved);
        toast.success("Decomposition restarted");
        void cache.invalidateTasks();
        void cache.invalidateLists();
      },
      onError: (err) => {
        toast.error(errorDetailOf(err) ?? "Failed to restart the decomposition");
      },
    }),
  );

  return (
    <section
      aria-labelledby="decomposition-heading"
      className="card border border-base-300 bg-base-200"
      data-testid="decomposition-progress"
    >
      <div className="card-body gap-4 p-4 sm:p-6">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="decomposition-heading" className="card-title text-lg">
            Decomposition progress
          </h2>
          <span className={`badge ${PHASE_BADGE[view.phase]} gap-1.5`} data-phase={view.phase}>
            {view.phase === "running" && !byAgent && (
              <span aria-hidden="true" className="loading loading-spinner loading-xs" />
            )}
            {byAgent ? "Waiting for your coding agent" : PHASE_LABEL[view.phase]}
          </span>
        </div>

        <div>
          <div className="mb-1 flex justify-between text-sm">
            <span id="decomposition-progress-label">Overall progress</span>
            <span className="tabular-nums text-base-content/70">{view.progress}%</span>
          </div>
          <progress
            className={`progress ${PHASE_BAR[view.phase]} w-full`}
            value={view.progress}
            max={100}
            aria-labelledby="decomposition-progress-label"
          />
        </div>

        {/* Always rendered, so screen readers follow it; visually hidden while it has nothing to say. */}
        <p
          role="status"
          aria-live="polite"
          className={liveText ? "break-words text-sm text-base-content/80" : "sr-only"}
        >
          {liveText}
        </p>

        {byAgent && <AgentWaiting task={task} stopped={stopped} />}

        {view.phase === "failed" && (
          <div
            role="alert"
            className="alert alert-error alert-soft flex flex-wrap items-start justify-between"
          >
            <div className="min-w-0 text-sm">
              <p className="font-semibold">Decomposition failed</p>
              <p className="mt-1 break-words">{view.error}</p>
            </div>
            <button
              type="button"
              className="btn btn-sm btn-error"
              disabled={restart.isPending}
              onClick={() => restart.mutate({ id: task.id })}
            >
              {restart.isPending && (
                <span className="loading loading-spinner loading-xs" aria-hidden="true" />
              )}
              Restart
            </button>
          </div>
        )}

        <ol className="grid gap-2 sm:grid-cols-2 lg:grid-cols-3" aria-label="Decomposition stages">
          {view.steps.map((step, i) => (
            <li
              key={step.id}
              data-status={step.status}
              className={`flex items-start gap-3 rounded-box border px-3 py-2 ${
                step.status === "error"
                  ? "border-error/50 bg-error/10"
                  : step.status === "in_progress"
                    ? "border-info/50 bg-info/10"
                    : "border-base-300 bg-base-100"
              }`}
            >
              <span className="mt-0.5 flex size-4 shrink-0 items-center justify-center">
                <StepIcon status={step.status} />
              </span>
              <div className="min-w-0 flex-1">
                <p className="text-sm font-medium">
                  <span className="sr-only">Stage {i + 1}: </span>
                  {step.name}
                </p>
                <p className={`text-xs ${step.status === "error" ? "text-error" : "text-base-content/75"}`}>
                  {STEP_LABEL[step.status]}
                  {step.message && step.status !== "waiting" && (
                    <span className="break-words"> · {step.message}</span>
                  )}
                </p>
              </div>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}

/**
 * A coding agent's planning, for the person watching it (issue 40): the step it waits on, how to resume
 * it, and Stop (the offline planner plans the rest) or Cancel, each asked once more before it runs.
 */
function AgentWaiting({ task, stopped }: { task: Task; stopped: string | undefined }) {
  const trpc = useTRPC();
  const toast = useToast();
  const cache = useTaskCache();
  const [asking, setAsking] = useState<"stop" | "cancel" | null>(null);
  // The step changes as the agent answers: each answer's event refetches the plan's queries (plan-queries).
  const status = useQuery(trpc.agent.planningStatus.queryOptions({ id: task.id }));
  const done = (message: string) => {
    toast.success(message);
    setAsking(null);
    void cache.invalidateTasks();
    void cache.invalidateLists();
  };
  const failed = (err: unknown) => toast.error(errorDetailOf(err) ?? "That did not work. Try again.");
  const stop = useMutation(
    trpc.agent.stopPlanning.mutationOptions({
      retry: false,
      onSuccess: () => done("Planning stopped: the outline plans the rest"),
      onError: failed,
    }),
  );
  const cancel = useMutation(
    trpc.agent.cancelPlanning.mutationOptions({
      retry: false,
      onSuccess: () => done("Planning cancelled"),
      onError: failed,
    }),
  );
  const busy = stop.isPending || cancel.isPending;
  const step = status.data;
  return (
    <div className="rounded-box border border-info/40 bg-info/10 p-3 text-sm" data-testid="agent-waiting">
      <p>
        Your coding agent plans this project with its own model, one step at a time; the plan grows here as it
        answers.
      </p>
      {step?.title && (
        <p className="mt-1 break-words" data-testid="agent-step">
          Waiting on step {step.step}: splitting <q className="font-medium">{step.title}</q>
          {step.waiting > 1 ? ` (${step.waiting - 1} more after it, for now)` : ""}.
        </p>
      )}
      {stopped && <p className="mt-1 font-medium">{stopped}</p>}
      <p className="mt-1">
        If it stopped, ask it: <q className="font-medium">{resumeRequest(task.id)}</q>
      </p>
      {asking ? (
        <fieldset aria-label="Confirm" className="mt-3 flex flex-wrap items-center gap-2">
          <p className="w-full">
            {asking === "stop"
              ? "Stop your agent's planning? What it planned stays; the offline planner plans the rest, and the plan is done."
              : "Cancel the planning? The project stops where it is; what your agent planned is kept, and Restart plans it again."}
          </p>
          <button
            type="button"
            className={`btn btn-sm ${asking === "stop" ? "btn-primary" : "btn-error"}`}
            disabled={busy}
            onClick={() => (asking === "stop" ? stop : cancel).mutate({ id: task.id })}
          >
            {busy && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
            {asking === "stop" ? "Stop and finish with the outline" : "Cancel planning"}
          </button>
          <button
            type="button"
            className="btn btn-sm btn-ghost"
            disabled={busy}
            onClick={() => setAsking(null)}
          >
            Keep planning
          </button>
        </fieldset>
      ) : (
        <div className="mt-3 flex flex-wrap gap-2">
          <button type="button" className="btn btn-sm" onClick={() => setAsking("stop")}>
            Stop
          </button>
          <button type="button" className="btn btn-sm btn-ghost" onClick={() => setAsking("cancel")}>
            Cancel
          </button>
        </div>
      )}
    </div>
  );
}
