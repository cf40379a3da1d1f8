import { describe, expect, it } from "vitest";
import type { RequirementProgress, RequirementStatusAnswer } from "../../../../shared/schemas/requirements";
import { hiddenText, requirementsSummary, visibleRequirements, workText } from "./requirements-view";

const req = (id: string, status: RequirementProgress["status"]): RequirementProgress => ({
  id,
  text: `Requirement ${id}`,
  status,
  leaves_done: 0,
  leaves_total: 0,
  tasks: [],
  pull_requests: [],
});

describe("the Requirements tab's view", () => {
  const list = [req("R1", "done"), req("R2", "in_progress"), req("R3", "no_tasks"), req("R4", "done")];

  it("shows only what is not done when asked, keeping the plan's order", () => {
    expect(visibleRequirements(list, true).map((r) => r.id)).toEqual(["R2", "R3"]);
    expect(visibleRequirements(list, false).map((r) => r.id)).toEqual(["R1", "R2", "R3", "R4"]);
    expect(hiddenText(4, 2)).toBe("2 done requirements are hidden.");
    expect(hiddenText(4, 3)).toBe("1 done requirement is hidden.");
    expect(hiddenText(4, 4)).toBeNull();
  });

  it("sums the plan up in one line", () => {
    const answer = {
      totals: { requirements: 8, done: 5, not_done: 3, without_tasks: 2 },
    } as RequirementStatusAnswer;
    expect(requirementsSummary(answer)).toBe("5 of 8 requirements done; 2 have no task");
    expect(workText(1, 3)).toBe("1 of 3 tasks done");
    expect(workText(0, 1)).toBeNull();
  });
});
