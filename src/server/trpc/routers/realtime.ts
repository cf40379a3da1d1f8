import { tracked } from "@trpc/server";
import type { z } from "zod";
import { openStream, type StreamDeclaration, streams, type TaskEventsStream } from "../../operations/streams";
import { publicProcedure, router } from "../init";
import { trpcParse } from "../operations";

/**
 * A declared stream (operations/streams.ts) as a tRPC subscription: opened through the same access rule
 * and input parse as every operation, its messages framed by `frame` (tracked, so a reconnecting client
 * resumes where it stopped).
 */
export function subscriptionOf<S extends z.ZodType, O, M>(
  stream: StreamDeclaration<S, O>,
  frame: (opened: O) => AsyncIterable<M>,
) {
  return publicProcedure
    .input((raw: unknown) => raw as z.input<S>)
    .subscription(async function* ({ ctx, input, signal }) {
      const stop = new AbortController();
      const abort = () => stop.abort();
      signal?.addEventListener("abort", abort, { once: true });
      try {
        yield* frame(await openStream(stream, ctx, input, stop.signal, trpcParse));
      } finally {
        signal?.removeEventListener("abort", abort);
        stop.abort();
      }
    });
}

/** Task events, each tracked by its id: the stored ones after `lastEventId` (or the recent history), then live. */
async function* trackedEvents(opened: TaskEventsStream) {
  for await (const item of opened.events) {
    if ("history" in item) for (const e of item.history) yield tracked(String(e.id), e);
    else yield tracked(String(item.live.id), item.live);
  }
}

export const realtimeRouter = router({
  /** Every event of the caller's tasks (the global channel). */
  userEvents: subscriptionOf(streams.userEvents, trackedEvents),
  /** Events of one task tree; another user's task is NOT_FOUND. */
  taskEvents: subscriptionOf(streams.taskEvents, trackedEvents),
  /** Who has the plan open now, the caller among them while subscribed (issue 41). */
  planPresence: subscriptionOf(streams.planPresence, async function* (viewers) {
    for await (const list of viewers) yield { viewers: list };
  }),
});
