import { tracked } from "@trpc/server";
import { z } from "zod";
import { taskId } from "../../../shared/schemas/tasks";
import type { Deps } from "../../deps";
import { type TaskEventFilter, taskEventStream, toClient } from "../../realtime/task-events";
import { getOwnedRow } from "../../services/tasks/tasks";
import { protectedProcedure, router } from "../init";

const resumable = z.object({ lastEventId: z.string().regex(/^\d+$/).nullish() });

/**
 * Tracked events, so a reconnecting client resumes where it stopped: the stored events after
 * `lastEventId` (or the recent history), then live ones (realtime/task-events.ts).
 */
async function* stream(
  ctx: { deps: Deps },
  filter: TaskEventFilter,
  lastEventId: string | null | undefined,
  signal: AbortSignal | undefined,
) {
  const abort = new AbortController();
  const stop = () => abort.abort();
  signal?.addEventListener("abort", stop, { once: true });
  try {
    const events = taskEventStream(
      ctx.deps,
      filter,
      { afterId: lastEventId ? Number(lastEventId) : undefined, historyLimit: 100 },
      abort.signal,
    );
    for await (const item of events) {
      if ("history" in item) for (const e of item.history) yield tracked(String(e.id), toClient(e));
      else yield tracked(String(item.live.id), toClient(item.live));
    }
  } finally {
    signal?.removeEventListener("abort", stop);
    abort.abort();
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
