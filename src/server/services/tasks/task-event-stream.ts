import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { type BusEvent, PERSONAL_EVENTS } from "../../events/event-bus";
import type { TaskEventFilter } from "./events";

/** Whether one event is for the client (and whether it ends its channel). */
function concerns(e: BusEvent, filter: TaskEventFilter, teams: Set<string>): boolean {
  const mine = e.user_id === filter.userId;
  if (e.type === "team.member_added" && mine) {
    teams.add(String(e.data.team_id));
    return !filter.rootTaskId;
  }
  if (e.type === "team.member_removed" && mine) {
    teams.delete(String(e.data.team_id));
    if (filter.planTeam && e.data.team_id === filter.planTeam)
      throw new AppError("NOT_FOUND", "You are no longer in this plan's team.");
    return !filter.rootTaskId;
  }
  // A mention, an export, a removal: their person's alone, wherever they are.
  if (PERSONAL_EVENTS.has(e.type) && !mine) return false;
  // One plan's channel carries everyone's changes to it (its subscribers were checked: issue 41's teams).
  if (filter.rootTaskId) return e.root_task_id === filter.rootTaskId || e.task_id === filter.rootTaskId;
  return mine || (!!e.team_id && teams.has(e.team_id));
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
  const teams = new Set(filter.teamIds ?? []);
  let ended: unknown = null;
  let wake: (() => void) | null = null;
  const unsubscribe = deps.events.subscribe((e) => {
    try {
      if (!concerns(e, filter, teams)) return;
      queue.push(e);
    } catch (err) {
      ended = err;
    }
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
      if (ended) throw ended;
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
