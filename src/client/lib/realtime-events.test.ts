import { describe, expect, it } from "vitest";
import type { RealtimeEvent } from "../../shared/schemas/realtime";
import { connectionStateOf, reconnectDelayMs } from "./realtime-connection";
import { createReplayGate, mayHaveMissed, readEvent, toastForEvent } from "./realtime-events";

/** An event as a test writes it: any type with the data it needs for the case (cast once, here). */
type LooseEvent = Partial<Omit<RealtimeEvent, "type" | "data">> & {
  type?: RealtimeEvent["type"];
  data?: Record<string, unknown>;
};

const at = (ms: number) => new Date(ms).toISOString();
const event = (type: RealtimeEvent["type"], extra: LooseEvent = {}): RealtimeEvent =>
  ({
    id: 1,
    type,
    task_id: "t1",
    root_task_id: "t1",
    timestamp: at(0),
    data: {},
    ...extra,
  }) as RealtimeEvent;

describe("readEvent", () => {
  const sent = {
    id: 7,
    type: "task.ready",
    task_id: "t1",
    root_task_id: "r1",
    timestamp: at(0),
    data: { ready: ["a", "b"], ready_count: 2 },
  };
  it("reads an event whose data is what its type declares", () => {
    expect(readEvent(sent)).toEqual(sent);
    expect(toastForEvent(readEvent(sent)!)?.message).toBe("2 tasks are ready to start");
  });
  it("skips one it cannot read: data of another shape, an unknown type or stage, not an event", () => {
    expect(readEvent({ ...sent, data: { ready: "a" } })).toBeNull();
    expect(readEvent({ ...sent, data: {} })).toBeNull();
    expect(readEvent({ ...sent, type: "task.renamed" })).toBeNull();
    expect(
      readEvent({
        ...sent,
        type: "service.status",
        data: { stage: "nowhere", stage_name: "x", progress: 5 },
      }),
    ).toBeNull();
    expect(readEvent("task.ready")).toBeNull();
  });
});

describe("replay gate", () => {
  it("says when data fetched before a late start may lack a change the replay will call history", () => {
    expect(mayHaveMissed(100_000, 101_000, 2_000)).toBe(false);
    expect(mayHaveMissed(100_000, 102_500, 2_000)).toBe(true);
    // Nothing fetched yet: the first fetch comes after the start and sees everything.
    expect(mayHaveMissed(undefined, 102_500, 2_000)).toBe(false);
    expect(mayHaveMissed(0, 102_500, 2_000)).toBe(false);
  });

  it("treats old events of the opening burst as history, everything after it as live", () => {
    const gate = createReplayGate(400, 2_000);
    gate.start(100_000);
    expect(gate.isLive({ timestamp: at(50_000) }, 100_010)).toBe(false);
    expect(gate.isLive({ timestamp: at(99_000) }, 100_020)).toBe(true);
    expect(gate.isLive({ timestamp: at(60_000) }, 100_030)).toBe(false);
    // quiet for more than 400 ms: the burst is over
    expect(gate.isLive({ timestamp: at(60_000) }, 101_000)).toBe(true);
  });
});

describe("toastForEvent", () => {
  it("toasts each event type with its message and kind", () => {
    expect(toastForEvent(event("task.approved", { message: "Task approved: t1 by Ann" }))).toEqual({
      type: "success",
      id: "review-t1",
      message: "Task approved: t1 by Ann",
    });
    expect(toastForEvent(event("task.rejected", { message: "Task rejected: too big" }))?.type).toBe("error");
    expect(
      toastForEvent(event("task.rejected", { data: { reason: "x", new_description: "y" } }))?.message,
    ).toBe("Task rejected and resubmitted");
    expect(toastForEvent(event("decomposition.completed"))?.message).toBe("Decomposition complete");
    expect(toastForEvent(event("decomposition.error", { message: "boom" }))).toMatchObject({
      type: "error",
      message: "boom",
    });
    expect(toastForEvent(event("service.status"))).toBeNull();
  });
});

describe("reconnect", () => {
  it("doubles from 1 s and caps at 30 s", () => {
    expect([0, 1, 2, 3, 4, 5, 6].map(reconnectDelayMs)).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000,
    ]);
  });

  it("maps subscription status to connection states", () => {
    expect(connectionStateOf("pending")).toBe("connected");
    expect(connectionStateOf("connecting")).toBe("connecting");
    expect(connectionStateOf("connecting", true)).toBe("disconnected");
    expect(connectionStateOf("error")).toBe("disconnected");
    expect(connectionStateOf("idle")).toBe("disconnected");
  });
});
