import { useCallback } from "react";
import type { RealtimeEvent } from "../../shared/schemas/realtime";
import { useToast } from "../components/toast";
import { toastForEvent } from "./realtime-events";

/** Event ids already toasted in this page session, across screens (the dashboard and task screens). */
const shown = new Set<number>();
const MAX_REMEMBERED = 1_000;

/** Shows the toast for a live event, once per event id. */
export function useEventToasts(): (event: RealtimeEvent) => void {
  const toast = useToast();
  return useCallback(
    (event: RealtimeEvent) => {
      if (shown.has(event.id)) return;
      const t = toastForEvent(event);
      if (!t) return;
      if (shown.size >= MAX_REMEMBERED) shown.clear();
      shown.add(event.id);
      toast.show(t.type, t.message, { id: t.id });
    },
    [toast],
  );
}
