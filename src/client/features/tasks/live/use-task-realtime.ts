import { skipToken, useQueryClient } from "@tanstack/react-query";
import { useSubscription } from "@trpc/tanstack-react-query";
import { useEffect, useMemo, useRef } from "react";
import { UUID_PATTERN } from "../../../../shared/ids";
import type { RealtimeEvent } from "../../../../shared/schemas/realtime";
import type { Task, TaskTreeNode } from "../../../../shared/schemas/tasks";
import { EVENT_QUERIES } from "../../../lib/event-queries";
import { connectionStateOf, useRealtimeGaveUp, useReconnectable } from "../../../lib/realtime-connection";
import { createReplayGate, mayHaveMissed, readEvent } from "../../../lib/realtime-events";
import { useTaskCache } from "../../../lib/task-cache";
import { createDebounce, createThrottle } from "../../../lib/timing";
import { useTRPC } from "../../../lib/trpc";
import { useEventToasts } from "../../../lib/use-event-toasts";
import { patchOf, patchTask, patchTree } from "./task-event-cache";

/** Per-task realtime: refresh 100 ms after a task event. */
export const TASK_EVENT_REFRESH_MS = 100;
/** The tree grows while the decomposer works: refetch it at most once a second. */
export const PROGRESS_REFRESH_MS = 1_000;
/** Refresh 2 s after the decomposition completes. */
export const COMPLETION_REFRESH_MS = 2_000;

/**
 * The task screen's live updates: one `realtime.taskEvents` subscription (history first, then live;
 * tRPC resumes after the last event id when the socket reconnects). Every event goes to `onEvent` (the
 * progress reducer). Live ones also patch the cached task and tree, toast and schedule refetches of what
 * the event makes stale (lib/event-queries.ts): a task's change after 100 ms (task, tree and lists), a
 * plan's progress throttled to 1 s (task and tree, so the tree grows live), and everything 2 s after the
 * decomposition completes.
 */
export function useTaskRealtime(taskId: string, onEvent: (event: RealtimeEvent) => void) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const cache = useTaskCache();
  const toastEvent = useEventToasts();
  const gaveUp = useRealtimeGaveUp();
  const gate = useMemo(() => createReplayGate(), []);
  const started = useRef(0);
  const onEventRef = useRef(onEvent);
  onEventRef.current = onEvent;

  const refresh = useMemo(() => {
    const changed = new Set<string>();
    const invalidateTask = cache.invalidateTask;
    // Every view of the plan: the tree, the Plan tab's order, charts and hours, History, notes, tracker
    // edits for review, requirements (lib/plan-queries.ts).
    const invalidateTrees = cache.invalidateTasks;
    const afterTaskEvent = createDebounce(() => {
      const ids = [taskId, ...changed];
      changed.clear();
      for (const id of new Set(ids)) void invalidateTask(id);
      void invalidateTrees();
      void cache.invalidateLists();
    }, TASK_EVENT_REFRESH_MS);
    const detail = createThrottle(() => {
      void invalidateTask(taskId);
      void invalidateTrees();
    }, PROGRESS_REFRESH_MS);
    let completion: ReturnType<typeof setTimeout> | null = null;
    return {
      taskChanged(id: string | null) {
        if (id) changed.add(id);
        afterTaskEvent();
      },
      detail,
      afterCompletion() {
        if (completion) clearTimeout(completion);
        completion = setTimeout(() => {
          completion = null;
          void cache.invalidateTasks();
          void cache.invalidateLists();
        }, COMPLETION_REFRESH_MS);
      },
      all() {
        void cache.invalidateTasks();
        void cache.invalidateLists();
      },
      cancel() {
        afterTaskEvent.cancel();
        detail.cancel();
        if (completion) clearTimeout(completion);
      },
    };
  }, [taskId, cache]);
  useEffect(() => () => refresh.cancel(), [refresh]);

  const handleLive = (event: RealtimeEvent) => {
    // The page's own progress panel already says this project's decomposition is complete.
    const ownCompletion =
      event.type === "decomposition.completed" && (event.task_id ?? event.root_task_id) === taskId;
    if (!ownCompletion) toastEvent(event);
    if (event.type.startsWith("task.")) {
      const patch = event.task_id ? patchOf(event) : null;
      if (patch && event.task_id) {
        const id = event.task_id;
        queryClient.setQueryData<Task>(trpc.tasks.get.queryKey({ id }), (old) => patchTask(old, id, patch));
        queryClient.setQueriesData<TaskTreeNode>({ queryKey: trpc.tasks.tree.pathKey() }, (old) =>
          patchTree(old, id, patch),
        );
      }
    }
    const stale = EVENT_QUERIES[event.type].plan;
    if (stale === "now") refresh.taskChanged(event.task_id);
    else if (stale === "progress") refresh.detail();
    else if (stale === "completion") refresh.afterCompletion();
  };
  const handleLiveRef = useRef(handleLive);
  handleLiveRef.current = handleLive;

  // The per-task connection is made only for a task id of UUID shape.
  const enabled = UUID_PATTERN.test(taskId);
  const subscription = useSubscription(
    trpc.realtime.taskEvents.subscriptionOptions(enabled ? { taskId } : skipToken, {
      onStarted: () => {
        gate.start();
        // A restart after a dropped connection: what was missed may not all come back as events. A
        // first start long after the page's data was fetched: a change in between replays as history.
        const fetchedAt = queryClient.getQueryState(trpc.tasks.get.queryKey({ id: taskId }))?.dataUpdatedAt;
        if (started.current++ > 0 || mayHaveMissed(fetchedAt)) refresh.all();
      },
      onData: (tracked) => {
        const event = readEvent(tracked.data);
        if (!event) return;
        onEventRef.current(event);
        if (gate.isLive(event)) handleLiveRef.current(event);
      },
    }),
  );

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new task starts a new subscription
  useEffect(() => {
    started.current = 0;
  }, [taskId]);

  const connection = enabled ? connectionStateOf(subscription.status, gaveUp) : "disconnected";
  useReconnectable(subscription.reset, connection);
  return { connection, reconnect: subscription.reset };
}
