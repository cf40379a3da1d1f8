import { type RealtimeEvent, realtimeEvent } from "../../shared/schemas/realtime";
import type { ToastType } from "../components/toast";

/**
 * A subscription first replays stored history, then streams live events, with no marker in between.
 * An event counts as live when it arrives after the opening burst has gone quiet, or when its timestamp
 * is no older than the subscription's start (with a little tolerance for clock skew). Replayed history
 * must not toast again or overwrite fresher cached data.
 */
export const REPLAY_QUIET_MS = 400;
export const REPLAY_SKEW_MS = 2_000;

export type ReplayGate = {
  /** The subscription (re)started: a replay burst may follow. */
  start: (now?: number) => void;
  /** Whether this event is live (call once per event, in arrival order). */
  isLive: (event: Pick<RealtimeEvent, "timestamp">, now?: number) => boolean;
};

export function createReplayGate(quietMs = REPLAY_QUIET_MS, skewMs = REPLAY_SKEW_MS): ReplayGate {
  let startedAt = Date.now();
  let lastArrival = startedAt;
  let inBurst = true;
  return {
    start(now = Date.now()) {
      startedAt = now;
      lastArrival = now;
      inBurst = true;
    },
    isLive(event, now = Date.now()) {
      if (inBurst && now - lastArrival > quietMs) inBurst = false;
      lastArrival = now;
      if (!inBurst) return true;
      const at = Date.parse(event.timestamp);
      return Number.isFinite(at) && at >= startedAt - skewMs;
    },
  };
}

/**
 * Whether data fetched at `fetchedAt` may lack changes the gate will take for history: when the
 * subscription starts more than the skew after the data was fetched (a slow socket, a page shown from
 * the cache), an event between the two comes back in the replay, older than the start, and is not
 * applied. The page then refetches once instead.
 */
export function mayHaveMissed(
  fetchedAt: number | undefined,
  startedAt = Date.now(),
  skewMs = REPLAY_SKEW_MS,
) {
  return fetchedAt !== undefined && fetchedAt > 0 && fetchedAt < startedAt - skewMs;
}

/**
 * An event as this page reads it: checked against the schema the server publishes by (EVENT_DATA), so a
 * message from a server of another version that this page cannot read is skipped, not half-applied.
 */
export function readEvent(message: unknown): RealtimeEvent | null {
  const parsed = realtimeEvent.safeParse(message);
  return parsed.success ? parsed.data : null;
}

export type EventToast = { type: ToastType; message: string; id: string };

/**
 * Toasts for realtime events. Ids are per task, so the same outcome reported twice (the event and
 * the mutation's answer, or a StrictMode double subscription) shows once.
 */
export function toastForEvent(event: RealtimeEvent): EventToast | null {
  const task = event.task_id ?? event.root_task_id ?? "unknown";
  switch (event.type) {
    case "task.approved":
      return {
        type: "success",
        id: `review-${task}`,
        message: event.message ?? `Task approved: ${task}`,
      };
    case "task.rejected": {
      if (event.data.new_description !== undefined) {
        return { type: "info", id: `review-${task}`, message: "Task rejected and resubmitted" };
      }
      const reason = event.data.reason ?? null;
      return {
        type: "error",
        id: `review-${task}`,
        message: event.message ?? (reason ? `Task rejected: ${reason}` : "Task rejected"),
      };
    }
    case "task.ready": {
      const ready = event.data.ready.length;
      if (ready === 0) return null;
      return {
        type: "info",
        id: `ready-${event.root_task_id ?? task}`,
        message: ready === 1 ? "1 task is ready to start" : `${ready} tasks are ready to start`,
      };
    }
    case "comment.mentioned":
      return {
        type: "info",
        id: `mention-${event.id}`,
        message: event.message ?? "You were mentioned in a comment",
      };
    case "decomposition.completed":
      return { type: "success", id: `decomposition-${task}`, message: "Decomposition complete" };
    case "decomposition.error":
      return {
        type: "error",
        id: `decomposition-${task}`,
        message: event.message ?? "Decomposition failed",
      };
    default:
      return null;
  }
}
