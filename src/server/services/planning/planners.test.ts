import { describe, expect, it } from "vitest";
import { waitUntil } from "../../../../tests/support/wait";
import { createOfflinePlanner } from "./offline-planner";
import type { Planner } from "./planner";
import { withConcurrency } from "./planners";

describe("withConcurrency", () => {
  it("runs at most `limit` calls of a planner at once and lets the others wait their turn", async () => {
    const offline = createOfflinePlanner();
    let active = 0;
    let most = 0;
    const slow: Planner = {
      ...offline,
      name: offline.name,
      model: offline.model,
      async assessComplexity(brief, signal) {
        active++;
        most = Math.max(most, active);
        await new Promise((r) => setTimeout(r, 20));
        active--;
        return offline.assessComplexity(brief, signal);
      },
    };
    const limited = withConcurrency(slow, 2);
    const brief = {
      description: "A todo list",
      applicationType: null,
      stack: null,
      additionalRequirements: null,
      repositorySummary: null,
      scope: { requirements: [], nonGoals: [], context: [] },
    };
    const results = await Promise.all(Array.from({ length: 7 }, () => limited.assessComplexity(brief)));
    expect(results).toHaveLength(7);
    expect(most).toBe(2);
    expect(limited.name).toBe("offline");
  });

  it("frees the slot of a call that failed", async () => {
    const offline = createOfflinePlanner();
    const failing: Planner = {
      ...offline,
      name: offline.name,
      model: offline.model,
      assessComplexity: async () => {
        throw new Error("provider down");
      },
    };
    const limited = withConcurrency(failing, 1);
    const brief = {
      description: "x",
      applicationType: null,
      stack: null,
      additionalRequirements: null,
      repositorySummary: null,
      scope: { requirements: [], nonGoals: [], context: [] },
    };
    for (let i = 0; i < 3; i++)
      await expect(limited.assessComplexity(brief)).rejects.toThrow("provider down");
  });

  it("lets a call whose job is cancelled leave the line, and hands the slot to the next in order", async () => {
    const offline = createOfflinePlanner();
    const order: string[] = [];
    const gates: Array<() => void> = [];
    const gated: Planner = {
      ...offline,
      name: offline.name,
      model: offline.model,
      async assessComplexity(brief, signal) {
        order.push(brief.description);
        await new Promise<void>((r) => gates.push(r));
        return offline.assessComplexity(brief, signal);
      },
    };
    const limited = withConcurrency(gated, 1);
    const brief = (description: string) => ({
      description,
      applicationType: null,
      stack: null,
      additionalRequirements: null,
      repositorySummary: null,
      scope: { requirements: [], nonGoals: [], context: [] },
    });
    const first = limited.assessComplexity(brief("first"));
    const cancel = new AbortController();
    const cancelled = limited.assessComplexity(brief("cancelled"), cancel.signal);
    const third = limited.assessComplexity(brief("third"));
    cancel.abort(new Error("cancelled"));
    await expect(cancelled).rejects.toThrow("cancelled");
    await waitUntil(() => gates.length === 1, { message: "the first call started" });
    gates.shift()!();
    await first;
    await waitUntil(() => gates.length === 1, { message: "the third call started" });
    gates.shift()!();
    await third;
    expect(order).toEqual(["first", "third"]);
  });
});
