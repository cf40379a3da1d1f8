import { useEffect, useReducer } from "react";
import {
  initialProgress,
  type ProgressAction,
  type ProgressState,
  progressReducer,
  START_HINT_DELAY_MS,
} from "./decomposition-progress";

export {
  initialProgress,
  type ProgressState,
  type ProgressView,
  progressReducer,
  progressView,
} from "./decomposition-progress";

/**
 * Decomposition progress for one task: the pure `progressReducer` fed by the task's realtime
 * events (see use-task-realtime). Switching task starts from scratch.
 */
export function useDecompositionProgress(taskId: string) {
  const [state, dispatch] = useReducer(progressReducer, undefined, initialProgress);
  // biome-ignore lint/correctness/useExhaustiveDependencies: taskId is the trigger
  useEffect(() => {
    dispatch({ type: "reset" });
  }, [taskId]);
  return { state, dispatch };
}

/**
 * If nothing has happened 5 s after decomposing starts, show 'AI is analyzing your task...' at
 * 15 percent. Runs only while `active` (the panel is up for a pending or processing task).
 */
export function useStartHint(
  state: ProgressState,
  dispatch: (action: ProgressAction) => void,
  active: boolean,
): void {
  const waiting = active && !state.stageSeen && !state.analyzing && state.phase !== "complete";
  // biome-ignore lint/correctness/useExhaustiveDependencies: state.run restarts the wait for a new run
  useEffect(() => {
    if (!waiting) return;
    const timer = setTimeout(() => dispatch({ type: "start_hint" }), START_HINT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [waiting, state.run, dispatch]);
}
