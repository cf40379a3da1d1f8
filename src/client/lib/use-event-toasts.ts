import { useCallback, useRef } from "react";
import type { RealtimeEvent } from "../../shared/schemas/realtime";
import { useToast } from "../components/toast";
import { toastForEvent } from "./realtime-events";

/** Shows spec 4's toast for a live event, once per event id. */
export function useEventToasts(): (event: RealtimeEvent) => void {
  const toast = useToast();
  const shown = useRef(new Set<number>());
  return useCallback(
    (event: RealtimeEvent) => {
      if (shown.current.has(event.id)) return;
      const t = toastForEvent(event);
      if (!t) return;
      shown.current.add(event.id);
      toast.show(t.type, t.message, { id: t.id });
    },
    [toast],
  );
}
