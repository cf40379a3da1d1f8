import { describe, expect, it } from "vitest";
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
});
