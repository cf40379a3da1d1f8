import { describe, expect, it } from "vitest";
import type { RealtimeEvent } from "../../../../shared/schemas/realtime";
import { patchOf } from "./task-event-cache";

/** An event as a test writes it: any type with the data it needs for the case (cast once, here). */
type LooseEvent = Partial<Omit<RealtimeEvent, "type" | "data">> & {
  type?: RealtimeEvent["type"];
  data?: Record<string, unknown>;
};

const event = (extra: LooseEvent): RealtimeEvent =>
  ({
    id: 1,
    type: "task.updated",
    task_id: "n1",
    root_task_id: "r1",
    timestamp: "2026-01-01T00:00:00.000Z",
    data: {},
    ...extra,
  }) as RealtimeEvent;

describe("patchOf", () => {
  it("flags a subtask that needs attention, with the reason, from its task.updated event", () => {
    const patch = patchOf(
      event({
        status: "pending",
        is_atomic: false,
        data: { needs_attention: true, attention_reason: "The model kept failing." },
      }),
    );
    expect(patch).toEqual({
      status: "pending",
      is_atomic: false,
      needs_attention: true,
      attention_reason: "The model kept failing.",
    });
  });

  it("leaves the flag alone when the event says nothing about it", () => {
    expect(patchOf(event({ status: "completed" }))).toEqual({ status: "completed" });
  });
});
