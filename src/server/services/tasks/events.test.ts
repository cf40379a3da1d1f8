import { describe, expect, it } from "vitest";
import type { Deps } from "../../deps";
import type { BusEvent } from "../../events/event-bus";
import { taskEventStream } from "./task-event-stream";

const event = (id: number): BusEvent =>
  ({
    id,
    user_id: "u1",
    root_task_id: "r1",
    task_id: "r1",
    type: "service.status",
    timestamp: "",
  }) as unknown as BusEvent;

/**
 * Events committed out of id order (PostgreSQL writers on several connections): one with a lower id
 * arriving live after the history held a higher one is still sent; one the history gave is not sent again.
 */
describe("taskEventStream", () => {
  it("sends a live event whose id is lower than the history's last, and never one the history gave", async () => {
    let listener: ((e: BusEvent) => void) | null = null;
    const deps = {
      events: {
        subscribe(l: (e: BusEvent) => void) {
          listener = l;
          return () => {
            listener = null;
          };
        },
        async history() {
          // While the history is read, event 9 (committed late) and 10 (already in it) arrive live.
          listener?.(event(10));
          listener?.(event(9));
          return [event(8), event(10)];
        },
      },
    } as unknown as Pick<Deps, "events">;
    const controller = new AbortController();
    const stream = taskEventStream(
      deps,
      { userId: "u1", rootTaskId: "r1" },
      { historyLimit: 100 },
      controller.signal,
    );
    const first = await stream.next();
    expect((first.value as { history: BusEvent[] }).history.map((e) => e.id)).toEqual([8, 10]);
    const second = await stream.next();
    expect((second.value as { live: BusEvent }).live.id).toBe(9);
    listener!(event(11));
    const third = await stream.next();
    expect((third.value as { live: BusEvent }).live.id).toBe(11);
    controller.abort();
    await stream.return(undefined);
  });
});
