import { useSubscription } from "@trpc/tanstack-react-query";
import { useEffect, useMemo, useRef } from "react";
import type { RealtimeEvent } from "../../../shared/schemas/realtime";
import { EVENT_QUERIES } from "../../lib/event-queries";
import { connectionStateOf, useRealtimeGaveUp, useReconnectable } from "../../lib/realtime-connection";
import { createReplayGate, readEvent } from "../../lib/realtime-events";
import { useTaskCache } from "../../lib/task-cache";
import { createDebounce } from "../../lib/timing";
import { useTRPC } from "../../lib/trpc";
import { useEventToasts } from "../../lib/use-event-toasts";

/** List refreshes are debounced (default 300 ms, 500 ms after deletions). */
export const LIST_REFRESH_MS = 400;

/**
 * The global realtime channel: every event of the user's tasks (`realtime.userEvents`). task.* and
 * decomposition.* events refresh the list and stats (debounced); live ones toast.
 */
export function useDashboardEvents() {
  const trpc = useTRPC();
  const cache = useTaskCache();
  const toastEvent = useEventToasts();
  const gaveUp = useRealtimeGaveUp();
  const gate = useMemo(() => createReplayGate(), []);
  const refresh = useMemo(
    () =>
      createDebounce(() => {
        void cache.invalidateLists();
        void cache.invalidateUsage();
      }, LIST_REFRESH_MS),
    [cache],
  );
  useEffect(() => () => refresh.cancel(), [refresh]);
  const started = useRef(0);

  const handle = (event: RealtimeEvent, live: boolean) => {
    if (!live) return;
    toastEvent(event);
    if (EVENT_QUERIES[event.type].list) refresh();
  };
  const handleRef = useRef(handle);
  handleRef.current = handle;

  const subscription = useSubscription(
    trpc.realtime.userEvents.subscriptionOptions(undefined, {
      onStarted: () => {
        gate.start();
        // After a dropped connection, catch up on whatever changed meanwhile.
        if (started.current++ > 0) refresh();
      },
      onData: (tracked) => {
        const event = readEvent(tracked.data);
        if (event) handleRef.current(event, gate.isLive(event));
      },
    }),
  );
  const connection = connectionStateOf(subscription.status, gaveUp);
  useReconnectable(subscription.reset, connection);
  return { connection };
}
