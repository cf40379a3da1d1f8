import { describe, expect, it } from "vitest";
import { plannedSubtask, projectContext } from "../../shared/schemas/plan";
import { failureReason } from "./failure-reason";

const subtask = {
  description: "Build the catalogue",
  complexity_score: 3,
  story_points: 2,
  implementation_details: "How.",
  acceptance_criteria: ["It works", "It is tested"],
  requirement_ids: ["R1"],
  estimated_hours: 4,
};

function zodErrorOf(schema: { parse(v: unknown): unknown }, value: unknown): unknown {
  try {
    schema.parse(value);
  } catch (err) {
    return err;
  }
  throw new Error("expected the value to be refused");
}

describe("the reason a person reads when a decomposition step fails", () => {
  it("says in words which rule a planner's answer broke, never the validation dump", () => {
    const criteria = zodErrorOf(plannedSubtask, { ...subtask, acceptance_criteria: Array(6).fill("Done") });
    expect(failureReason(criteria, "plan")).toBe(
      "The planner's answer for this step did not fit the plan's rules (too many acceptance criteria). Use Restart to try again.",
    );
    const notes = zodErrorOf(plannedSubtask, { ...subtask, implementation_details: "x".repeat(4001) });
    expect(failureReason(notes, "subtask")).toBe(
      "The planner's answer for this subtask did not fit the plan's rules (notes too long). Restart its decomposition to try again.",
    );
    const ids = zodErrorOf(plannedSubtask, { ...subtask, requirement_ids: "R1" });
    expect(failureReason(ids, "plan")).toMatch(/\(requirement ids missing or malformed\)\./);
    const epics = zodErrorOf(projectContext.shape.epics, []);
    expect(failureReason(epics, "plan")).toBe(
      "The planner's answer for this step did not fit the plan's rules. Use Restart to try again.",
    );
  });

  it("words any other error as ours, without its message", () => {
    const reason = failureReason(new Error('relation "tasks" does not exist at {"detail": 1}'), "plan");
    expect(reason).toBe(
      "The decomposition stopped on an error of ours, which has been logged. Use Restart to try again.",
    );
    expect(failureReason(new RangeError("Maximum call stack size exceeded"), "subtask")).toBe(
      "Splitting this subtask stopped on an error of ours, which has been logged. Restart its decomposition to try again.",
    );
  });
});
