import { describe, expect, it } from "vitest";
import type { ReplanChange } from "../../shared/schemas/replan";
import { uncoveredBy, uncoveredSentence } from "./replan-coverage";

const rows = [
  { id: "root", parentId: null, requirementIds: [] },
  { id: "a", parentId: "root", requirementIds: ["R1"] },
  { id: "a1", parentId: "a", requirementIds: ["R2"] },
  { id: "b", parentId: "root", requirementIds: ["R3"] },
  { id: "c", parentId: "root", requirementIds: ["R3"] },
];
const remove = (task_id: string): ReplanChange => ({
  change_id: `x-${task_id}`,
  op: "remove",
  task_id,
  before: { description: task_id, subtasks: 0 },
  requires: [],
});

describe("a re-plan's coverage of the stated requirements (issue 40)", () => {
  it("names a requirement whose only work a removal takes, subtasks included", () => {
    expect(uncoveredBy(rows, [remove("a")], ["R1", "R2", "R3"])).toEqual(["R1", "R2"]);
    // R3 has another task.
    expect(uncoveredBy(rows, [remove("b")], ["R1", "R2", "R3"])).toEqual([]);
    expect(uncoveredBy(rows, [remove("b"), remove("c")], ["R1", "R2", "R3"])).toEqual(["R3"]);
  });

  it("counts what an added or updated task takes over", () => {
    const add: ReplanChange = {
      change_id: "n1",
      op: "add",
      parent_id: "root",
      parent_change_id: null,
      position: 0,
      after: {
        description: "Merged",
        implementation_details: null,
        acceptance_criteria: [],
        requirement_ids: ["R1", "R2"],
        story_points: null,
        complexity_score: null,
        estimate_hours: null,
        depends_on: [],
      },
      requires: [],
    };
    expect(uncoveredBy(rows, [remove("a"), add], ["R1", "R2", "R3"])).toEqual([]);
    const update: ReplanChange = {
      change_id: "u1",
      op: "update",
      task_id: "b",
      before: { requirement_ids: ["R3"] },
      after: { requirement_ids: ["R1", "R2", "R3"] },
      requires: [],
    };
    expect(uncoveredBy(rows, [remove("a"), update], ["R1", "R2", "R3"])).toEqual([]);
  });

  it("never blames a re-plan for what was not covered before", () => {
    expect(uncoveredBy(rows, [remove("a")], ["R1", "R4"])).toEqual(["R1"]);
  });

  it("says it in a sentence", () => {
    expect(uncoveredSentence(["R5"])).toBe(
      "Accepting this leaves R5 with no task: the plan would no longer cover it.",
    );
    expect(uncoveredSentence(["R5", "R8", "R9"])).toBe(
      "Accepting this leaves R5, R8 and R9 with no task: the plan would no longer cover them.",
    );
  });
});
