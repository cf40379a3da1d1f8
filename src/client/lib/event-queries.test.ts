import { describe, expect, it } from "vitest";
import { TASK_EVENT_TYPES } from "../../shared/schemas/realtime";
import { EVENT_QUERIES } from "./event-queries";

describe("what a live event makes stale", () => {
  it("refreshes the dashboard for every change to a task or a plan's run, and for nothing else", () => {
    const listed = TASK_EVENT_TYPES.filter((t) => EVENT_QUERIES[t].list);
    expect(listed).toEqual(
      TASK_EVENT_TYPES.filter((t) => t.startsWith("task.") || t.startsWith("decomposition.")),
    );
  });

  it("refreshes a plan's views at once after a task changes, gradually while it is made, fully when done", () => {
    expect(EVENT_QUERIES["task.updated"].plan).toBe("now");
    expect(EVENT_QUERIES["task.decomposed"].plan).toBe("now");
    expect(EVENT_QUERIES["decomposition.error"].plan).toBe("now");
    expect(EVENT_QUERIES["service.status"].plan).toBe("progress");
    expect(EVENT_QUERIES["event_modeling.completed"].plan).toBe("progress");
    expect(EVENT_QUERIES["decomposition.completed"].plan).toBe("completion");
    for (const t of ["export.progress", "comment.mentioned", "team.member_added"] as const)
      expect(EVENT_QUERIES[t]).toEqual({ plan: null, list: false });
  });
});
