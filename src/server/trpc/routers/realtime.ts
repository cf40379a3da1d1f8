import { tracked } from "@trpc/server";
import { z } from "zod";
import type { RealtimeEvent } from "../../../shared/schemas/realtime";
import { taskId } from "../../../shared/schemas/tasks";
import type { BusEvent } from "../../realtime/event-bus";
import { getOwnedRow } from "../../services/tasks/tasks";
import { protectedProcedure, router } from "../init";

const resumable = z.object({ lastEventId: z.string().regex(/^\d+$/).nullish() });

function toClient(e: BusEvent): RealtimeEvent {
  const { user_id: _owner, ...event } = e;
  return event;
}

/**
 * Yields stored events after `lastEventId` (or the recent history), then live ones, as tracked events so
 * a reconnecting client resumes where it stopped. Live events arriving during the replay are buffered.
 */
async function* stream(
  ctx: { deps: import("../../deps").Deps },
  filter: { userId: string; rootTaskId?: string },
  lastEventId: string | null | undefined,
  signal: AbortSignal | undefined,
) {
  const queue: BusEvent[] = [];
  let wake: (() => void) | null = null;
  const unsubscribe = ctx.deps.events.subscribe((e) => {
    if (e.user_id !== filter.userId) return;
    if (filter.rootTaskId && e.root_task_id !== filter.rootTaskId && e.task_id !== filter.rootTaskId) return;
    queue.push(e);
    wake?.();
  });
  const onAbort = () => wake?.();
  signal?.addEventListener("abort", onAbort);
  try {
    const history = await ctx.deps.events.history({
      ...filter,
      afterId: lastEventId ? Number(lastEventId) : undefined,
      limit: 100,
    });
    let last = lastEventId ? Number(lastEventId) : 0;
    for (const e of history) {
      last = e.id;
      yield tracked(String(e.id), toClient(e));
    }
    while (!signal?.aborted) {
      const e = queue.shift();
      if (!e) {
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = null;
        continue;
      }
      if (e.id <= last) continue;
      last = e.id;
      yield tracked(String(e.id), toClient(e));
    }
  } finally {
    unsubscribe();
    signal?.removeEventListener("abort", onAbort);
  }
}

export const realtimeRouter = router({
  /** Every event of the caller's tasks (the global channel). */
  userEvents: protectedProcedure
    .input(resumable.optional())
    .subscription(({ ctx, input, signal }) =>
      stream(ctx, { userId: ctx.user.id }, input?.lastEventId, signal),
    ),
  /** Events of one task tree; another user's task is NOT_FOUND. */
  taskEvents: protectedProcedure.input(resumable.extend({ taskId })).subscription(async function* ({
    ctx,
    input,
    signal,
  }) {
    const row = await getOwnedRow(ctx.deps, ctx.user.id, input.taskId);
    yield* stream(
      ctx,
      { userId: ctx.user.id, rootTaskId: row.rootTaskId ?? row.id },
      input.lastEventId,
      signal,
    );
  }),
});
