import { type RealtimeEvent, STAGES, type StageId } from "../../../../shared/schemas/realtime";

/**
 * Decomposition progress, as a pure reducer over realtime events (no React, no timers), so the
 * rules are unit-testable: a stage started sets its value (10/25/40/55/75/90), a completed stage adds 10,
 * task.decomposed and event_modeling.started set 85, decomposition.completed sets 100, and the bar never
 * goes backwards within one run. A new run (decomposition.started, a restart or a resubmission) resets it.
 */

/** A completed stage adds 10. */
export const STAGE_DONE_BONUS = 10;
/** Task decomposed and event modeling started set 85. */
export const DECOMPOSED_PROGRESS = 85;
export const COMPLETE_PROGRESS = 100;
/** If nothing has happened 5 s after decomposing starts, the panel shows a hint at 15 percent. */
export const START_HINT_DELAY_MS = 5_000;
export const START_HINT_PROGRESS = 15;
export const START_HINT_MESSAGE = "AI is analyzing your task...";

/** Step statuses (in_progress, completed, error), plus `waiting` for a stage not reached yet. */
export type StepStatus = "waiting" | "in_progress" | "completed" | "error";
export type ProgressStep = { id: StageId; name: string; status: StepStatus; message: string | null };
/** `idle`: nothing known yet. The panel header shows running / complete / failed as Running, Complete, Failed. */
export type ProgressPhase = "idle" | "running" | "complete" | "failed";

export type ProgressState = {
  phase: ProgressPhase;
  /** 0-100, never lower than before within one run. */
  progress: number;
  steps: ProgressStep[];
  /** The latest stage message ("Split … into 4 subtasks"), for the live text. */
  message: string | null;
  /** Why the run failed, when an event said so. */
  error: string | null;
  /** A stage has reported in this run (the 5 s hint is no longer needed). */
  stageSeen: boolean;
  /** The 5 s "AI is analyzing your task..." hint is showing. */
  analyzing: boolean;
  /** Bumped on every new run, so timers keyed on it restart. */
  run: number;
  /** The highest event id applied: replays (StrictMode, resubscription) are ignored. */
  lastEventId: number;
};

/** Local actions besides the server's events: the 5 s hint timer fired; forget everything (task switch). */
export type ProgressAction = RealtimeEvent | { type: "start_hint" } | { type: "reset" };

const STAGE_INDEX = new Map<string, number>(STAGES.map((s, i) => [s.id, i]));

function freshSteps(): ProgressStep[] {
  return STAGES.map((s) => ({ id: s.id, name: s.name, status: "waiting", message: null }));
}

export function initialProgress(): ProgressState {
  return {
    phase: "idle",
    progress: 0,
    steps: freshSteps(),
    message: null,
    error: null,
    stageSeen: false,
    analyzing: false,
    run: 0,
    lastEventId: 0,
  };
}

/** A new run: everything back to the start, phase running. */
function newRun(state: ProgressState): ProgressState {
  return { ...initialProgress(), phase: "running", run: state.run + 1, lastEventId: state.lastEventId };
}

function raise(progress: number, value: number): number {
  return Math.max(progress, Math.min(COMPLETE_PROGRESS, value));
}

/** Stage events (service.status) carry the stage in operator_id and data.stage. */
export function stageOf(event: RealtimeEvent): StageId | null {
  if (event.type !== "service.status") return null;
  const id = event.operator_id ?? event.data.stage;
  return STAGE_INDEX.has(id) ? (id as StageId) : null;
}

function withStep(
  steps: ProgressStep[],
  index: number,
  status: StepStatus,
  message: string | null,
): ProgressStep[] {
  return steps.map((step, i) => {
    if (i === index) return { ...step, status, message: message ?? step.message };
    // The pipeline runs its stages in order: a later stage reporting means the earlier ones finished
    // (their events may be outside the replayed history window).
    if (i < index && (step.status === "waiting" || step.status === "in_progress"))
      return { ...step, status: "completed" };
    return step;
  });
}

function applyStage(state: ProgressState, event: RealtimeEvent, stage: StageId): ProgressState {
  const index = STAGE_INDEX.get(stage)!;
  const value = STAGES[index]!.progress;
  // A finished run followed by the first stage again is a new run whose start event we did not see.
  const base =
    (state.phase === "complete" || state.phase === "failed") &&
    index === 0 &&
    (event.status === "started" || event.status === "processing")
      ? newRun(state)
      : state;
  const message = event.message ?? null;
  const common = {
    stageSeen: true,
    analyzing: false,
    message: message ?? base.message,
  };
  switch (event.status) {
    case "started":
    case "processing":
      return {
        ...base,
        ...common,
        phase: base.phase === "idle" ? "running" : base.phase,
        progress: raise(base.progress, value),
        steps: withStep(base.steps, index, "in_progress", message),
      };
    case "completed":
      return {
        ...base,
        ...common,
        phase: base.phase === "idle" ? "running" : base.phase,
        progress: raise(base.progress, value + STAGE_DONE_BONUS),
        steps: withStep(base.steps, index, "completed", message),
      };
    case "error": {
      // The server names the job's stage; when an earlier stage is still running, that is where it broke.
      const running = base.steps.findIndex((s, i) => i < index && s.status === "in_progress");
      return {
        ...base,
        ...common,
        phase: "failed",
        error: message ?? base.error,
        steps:
          running >= 0
            ? base.steps.map((s, i) =>
                i === running ? { ...s, status: "error", message: message ?? s.message } : s,
              )
            : withStep(base.steps, index, "error", message),
      };
    }
    default:
      return base;
  }
}

/** Marks the stage that was running (else the last one reached) as failed, unless one already is. */
function failCurrentStep(steps: ProgressStep[], message: string | null): ProgressStep[] {
  if (steps.some((s) => s.status === "error")) return steps;
  let index = steps.findIndex((s) => s.status === "in_progress");
  if (index < 0) {
    const reached = steps.map((s) => s.status !== "waiting");
    index = Math.max(0, reached.lastIndexOf(true));
  }
  return steps.map((s, i) => (i === index ? { ...s, status: "error", message: message ?? s.message } : s));
}

/** Only the root's own task.* events say something about the decomposition. */
function isRootEvent(event: RealtimeEvent): boolean {
  return event.root_task_id === null || event.task_id === event.root_task_id;
}

export function progressReducer(state: ProgressState, action: ProgressAction): ProgressState {
  if (action.type === "reset") return { ...initialProgress(), run: state.run + 1 };
  if (action.type === "start_hint") {
    if (state.stageSeen || state.phase === "complete" || state.phase === "failed") return state;
    return {
      ...state,
      phase: "running",
      analyzing: true,
      progress: raise(state.progress, START_HINT_PROGRESS),
    };
  }

  const event = action;
  if (event.id <= state.lastEventId) return state;
  const next = reduceEvent(state, event);
  return next === state ? { ...state, lastEventId: event.id } : { ...next, lastEventId: event.id };
}

function reduceEvent(state: ProgressState, event: RealtimeEvent): ProgressState {
  switch (event.type) {
    case "decomposition.started":
      return { ...newRun(state), message: event.message ?? null };
    case "service.status": {
      const stage = stageOf(event);
      return stage ? applyStage(state, event, stage) : state;
    }
    case "task.decomposed":
    case "event_modeling.started":
      return {
        ...state,
        phase: state.phase === "idle" ? "running" : state.phase,
        progress: raise(state.progress, DECOMPOSED_PROGRESS),
      };
    case "decomposition.completed":
      return {
        ...state,
        phase: "complete",
        progress: COMPLETE_PROGRESS,
        analyzing: false,
        error: null,
        message: event.message ?? state.message,
        steps: state.steps.map((s) => (s.status === "error" ? s : { ...s, status: "completed" })),
      };
    case "decomposition.error":
      return {
        ...state,
        phase: "failed",
        analyzing: false,
        error: event.message ?? state.error,
        steps: failCurrentStep(state.steps, event.message ?? null),
      };
    default:
      if (!event.type.startsWith("task.") || !isRootEvent(event)) return state;
      // A root back at pending is a new run: created, restarted or resubmitted after a rejection.
      if (event.status === "pending") return newRun(state);
      if (event.status === "failed" || event.status === "error")
        return { ...state, phase: "failed", analyzing: false };
      if (event.status === "processing" && state.phase === "idle") return { ...state, phase: "running" };
      return state;
  }
}

/** What the panel shows: the reducer's view, filled in from the task when no event has said anything. */
export type ProgressView = {
  phase: Exclude<ProgressPhase, "idle">;
  progress: number;
  steps: ProgressStep[];
  /** The live text: the latest stage message, or the 5 s hint. */
  message: string | null;
  error: string | null;
};

export function progressView(
  state: ProgressState,
  task: { status: string; failure_reason?: string | null },
): ProgressView {
  let phase: ProgressView["phase"];
  if (state.phase !== "idle") phase = state.phase;
  else if (task.status === "failed" || task.status === "error") phase = "failed";
  else if (task.status === "completed") phase = "complete";
  else phase = "running";
  const progress = state.phase === "idle" && phase === "complete" ? COMPLETE_PROGRESS : state.progress;
  const error =
    phase === "failed" ? (state.error ?? task.failure_reason ?? "The decomposition failed.") : null;
  const message = state.analyzing && !state.stageSeen ? START_HINT_MESSAGE : state.message;
  return { phase, progress, steps: state.steps, message, error };
}

export const PHASE_LABEL: Record<ProgressView["phase"], string> = {
  running: "Running",
  complete: "Complete",
  failed: "Failed",
};
