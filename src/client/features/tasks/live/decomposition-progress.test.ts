import { describe, expect, it } from "vitest";
import type { RealtimeEvent, StageId, StageStatus } from "../../../../shared/schemas/realtime";
import {
  COMPLETE_PROGRESS,
  initialProgress,
  type ProgressAction,
  type ProgressState,
  progressReducer,
  progressView,
  START_HINT_MESSAGE,
} from "./decomposition-progress";

/** An event as a test writes it: any type with the data it needs for the case (cast once, here). */
type LooseEvent = Partial<Omit<RealtimeEvent, "type" | "data">> & {
  type?: RealtimeEvent["type"];
  data?: Record<string, unknown>;
};

const ROOT = "11111111-1111-4111-8111-111111111111";
let nextId = 1;

function event(type: RealtimeEvent["type"], extra: LooseEvent = {}): RealtimeEvent {
  return {
    id: nextId++,
    type,
    task_id: ROOT,
    root_task_id: ROOT,
    timestamp: new Date().toISOString(),
    data: {},
    ...extra,
  } as RealtimeEvent;
}

function stage(id: StageId, status: StageStatus, message?: string): RealtimeEvent {
  return event("service.status", {
    operator_id: id,
    status,
    ...(message ? { message } : {}),
    data: { stage: id },
  });
}

function run(actions: ProgressAction[], from: ProgressState = initialProgress()): ProgressState {
  return actions.reduce(progressReducer, from);
}

const stepStatus = (state: ProgressState, id: StageId) => state.steps.find((s) => s.id === id)?.status;

describe("progressReducer", () => {
  it("sets each stage's value when it starts", () => {
    const expected: [StageId, number][] = [
      ["source", 10],
      ["context_fetch", 25],
      ["complexity_scorer", 40],
      ["root_processor", 55],
      ["decomposer", 75],
      ["composer", 90],
    ];
    for (const [id, value] of expected) {
      const state = run([event("decomposition.started"), stage(id, "started")]);
      expect(state.progress).toBe(value);
      expect(state.phase).toBe("running");
      expect(stepStatus(state, id)).toBe("in_progress");
    }
  });

  it("adds 10 when a stage completes and marks it completed", () => {
    let state = run([event("decomposition.started"), stage("source", "started")]);
    state = progressReducer(state, stage("source", "completed", "Description read"));
    expect(state.progress).toBe(20);
    expect(stepStatus(state, "source")).toBe("completed");
    expect(state.steps[0]?.message).toBe("Description read");
    state = run([stage("context_fetch", "started"), stage("context_fetch", "completed")], state);
    expect(state.progress).toBe(35);
  });

  it("sets 85 for task.decomposed and event_modeling.started, 100 on completion", () => {
    let state = run([event("decomposition.started"), stage("decomposer", "started")]);
    expect(state.progress).toBe(75);
    state = progressReducer(state, event("task.decomposed"));
    expect(state.progress).toBe(85);
    state = progressReducer(state, stage("composer", "started"));
    expect(state.progress).toBe(90);
    state = progressReducer(state, event("event_modeling.started"));
    expect(state.progress).toBe(90);

    const fresh = run([event("decomposition.started"), event("event_modeling.started")]);
    expect(fresh.progress).toBe(85);

    state = progressReducer(
      state,
      event("decomposition.completed", { message: "Decomposed into 12 subtasks" }),
    );
    expect(state.progress).toBe(COMPLETE_PROGRESS);
    expect(state.phase).toBe("complete");
    expect(state.steps.every((s) => s.status === "completed")).toBe(true);
    expect(state.message).toBe("Decomposed into 12 subtasks");
  });

  it("never goes backwards", () => {
    let state = run([event("decomposition.started"), stage("decomposer", "completed")]);
    expect(state.progress).toBe(85);
    state = run(
      [
        stage("source", "started"),
        stage("decomposer", "processing", 'Split "A" into 3 subtasks'),
        event("event_modeling.started"),
      ],
      state,
    );
    expect(state.progress).toBe(85);
    expect(state.message).toBe('Split "A" into 3 subtasks');
  });

  it("marks earlier stages completed when a later one reports (truncated history)", () => {
    const state = run([stage("root_processor", "started")]);
    expect(state.phase).toBe("running");
    expect(stepStatus(state, "source")).toBe("completed");
    expect(stepStatus(state, "complexity_scorer")).toBe("completed");
    expect(stepStatus(state, "root_processor")).toBe("in_progress");
    expect(stepStatus(state, "decomposer")).toBe("waiting");
  });

  it("records a stage error and fails the run", () => {
    const state = run([
      event("decomposition.started"),
      stage("source", "completed"),
      stage("context_fetch", "completed"),
      stage("complexity_scorer", "completed"),
      stage("root_processor", "started"),
      event("task.status_changed", { status: "failed" }),
      stage("root_processor", "error", "The model returned an invalid plan"),
      event("decomposition.error", { message: "The model returned an invalid plan" }),
    ]);
    expect(state.phase).toBe("failed");
    expect(state.error).toBe("The model returned an invalid plan");
    expect(stepStatus(state, "root_processor")).toBe("error");
    expect(state.steps.find((s) => s.id === "root_processor")?.message).toBe(
      "The model returned an invalid plan",
    );
    expect(state.progress).toBe(55);
    const view = progressView(state, { status: "failed", failure_reason: "ignored" });
    expect(view.phase).toBe("failed");
    expect(view.error).toBe("The model returned an invalid plan");
  });

  it("blames the stage still running when a later stage reports the error", () => {
    const state = run([
      event("decomposition.started"),
      stage("source", "completed"),
      stage("context_fetch", "completed"),
      stage("complexity_scorer", "started"),
      stage("root_processor", "error", "The AI provider failed (500) during complexity analysis."),
    ]);
    expect(stepStatus(state, "complexity_scorer")).toBe("error");
    expect(stepStatus(state, "root_processor")).toBe("waiting");
    expect(state.phase).toBe("failed");
  });

  it("fails the running step on decomposition.error without a stage error", () => {
    const state = run([
      event("decomposition.started"),
      stage("decomposer", "started"),
      event("decomposition.error", { message: "Planner unavailable" }),
    ]);
    expect(state.phase).toBe("failed");
    expect(stepStatus(state, "decomposer")).toBe("error");
    expect(state.error).toBe("Planner unavailable");
  });

  it("starts over on a restart or resubmission (root back at pending)", () => {
    let state = run([event("decomposition.started"), stage("decomposer", "started")]);
    state = progressReducer(state, event("decomposition.error", { message: "boom" }));
    expect(state.phase).toBe("failed");
    const before = state.run;
    state = progressReducer(state, event("task.updated", { status: "pending" }));
    expect(state.phase).toBe("running");
    expect(state.progress).toBe(0);
    expect(state.error).toBeNull();
    expect(state.run).toBe(before + 1);
    expect(state.steps.every((s) => s.status === "waiting")).toBe(true);
  });

  it("ignores task events of subtasks and replayed events", () => {
    const start = run([event("decomposition.started"), stage("context_fetch", "completed")]);
    const child = progressReducer(
      start,
      event("task.created", { task_id: "22222222-2222-4222-8222-222222222222", status: "pending" }),
    );
    expect(child.progress).toBe(35);
    expect(child.phase).toBe("running");

    const old = { ...stage("source", "started"), id: 1 };
    const replayed = progressReducer({ ...child, lastEventId: 10_000 }, old);
    expect(replayed.progress).toBe(35);
  });

  it("shows the 5 s hint at 15 % only while nothing has arrived", () => {
    let state = run([event("decomposition.started"), { type: "start_hint" }]);
    expect(state.analyzing).toBe(true);
    expect(state.progress).toBe(15);
    expect(progressView(state, { status: "processing" }).message).toBe(START_HINT_MESSAGE);
    state = progressReducer(state, stage("source", "started", "Reading your description"));
    expect(state.progress).toBe(15);
    expect(progressView(state, { status: "processing" }).message).toBe("Reading your description");

    const busy = run([event("decomposition.started"), stage("source", "started"), { type: "start_hint" }]);
    expect(busy.analyzing).toBe(false);
    expect(busy.progress).toBe(10);
  });

  it("falls back to the task's status when no event has arrived", () => {
    const idle = initialProgress();
    expect(progressView(idle, { status: "pending" }).phase).toBe("running");
    expect(progressView(idle, { status: "completed" })).toMatchObject({ phase: "complete", progress: 100 });
    expect(progressView(idle, { status: "failed", failure_reason: "No model configured" })).toMatchObject({
      phase: "failed",
      error: "No model configured",
    });
  });
});
