import type { RealtimeEvent } from "../../../shared/schemas/realtime";
import type { Deps } from "../../deps";
import type { BusEvent } from "../../realtime/event-bus";

/** Which events a client may see: its own, of every task or of one task tree. */
export type TaskEventFilter = { userId: string; rootTaskId?: string };

/** The client-facing shape: the owner id stays on the server. */
export function toClient(e: BusEvent): RealtimeEvent {
  const { user_id: _owner, ...event } = e;
  return event;
}

/**
 * The one source of task events for every transport (the tRPC subscriptions and the raw `/ws/...`
 * sockets): first the stored history (after `afterId`, or the most recent `historyLimit`) as one batch,
 * then each live event as it happens. Live events that arrive while the history is read are held and
 * those already in it dropped, so nothing is lost, repeated or reordered. Ends when `signal` aborts.
 */
export async function* taskEventStream(
  deps: Pick<Deps, "events">,
  filter: TaskEventFilter,
  opts: { afterId?: number; historyLimit: number },
  signal: AbortSignal,
): AsyncGenerator<{ history: BusEvent[] } | { live: BusEvent }> {
  const queue: BusEvent[] = [];
  let wake: (() => void) | null = null;
  const unsubscribe = deps.events.subscribe((e) => {
    // One plan's channel carries everyone's changes to it (its subscribers were checked: issue 41's teams).
    if (filter.rootTaskId) {
      if (e.root_task_id !== filter.rootTaskId && e.task_id !== filter.rootTaskId) return;
      // A mention is for the one mentioned, wherever they are.
      if (e.type === "comment.mentioned" && e.user_id !== filter.userId) return;
    } else if (e.user_id !== filter.userId) return;
    queue.push(e);
    wake?.();
  });
  const onAbort = () => wake?.();
  signal.addEventListener("abort", onAbort);
  try {
    const history = await deps.events.history({ ...filter, afterId: opts.afterId, limit: opts.historyLimit });
    // What the history already gave is not sent again. Ids alone cannot say it: on PostgreSQL, writers
    // commit events out of id order, so an event with a lower id may arrive after a higher one was read
    // (a stage of a decomposition was lost that way).
    const given = new Set(history.map((h) => h.id));
    const after = opts.afterId ?? 0;
    yield { history };
    while (!signal.aborted) {
      const e = queue.shift();
      if (!e) {
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = null;
        continue;
      }
      if (given.has(e.id) || e.id <= after) continue;
      yield { live: e };
    }
  } finally {
    unsubscribe();
    signal.removeEventListener("abort", onAbort);
  }
}
