import { describe, expect, it } from "vitest";
import { statsGroupOf, TASK_STATUSES } from "../../shared/schemas/tasks";
import {
  canComplete,
  humanizeStatus,
  planStateBadge,
  reopenText,
  statusBadge,
  taskBadge,
  workActions,
  workProgressText,
} from "./task-status";

describe("a plan's state and a task's state", () => {
  it("says what a root's status means for its plan: 'completed' is planned, not done", () => {
    expect(planStateBadge("completed").label).toBe("Planned");
    expect(planStateBadge("processing").label).toBe("Planning...");
    expect(planStateBadge("pending").label).toBe("Queued");
    expect(planStateBadge("submitted").label).toBe("Awaiting review");
    expect(planStateBadge("failed")).toEqual({ label: "Planning failed", tone: "error" });
    expect(planStateBadge("error").label).toBe("Planning failed");
    expect(planStateBadge("rejected").label).toBe("Plan rejected");
    expect(planStateBadge("completed").tone).not.toBe("success");
    expect(planStateBadge("awaiting_review")).toEqual({ label: "Check the reading", tone: "warning" });
  });

  it("knows every status the API sends", () => {
    for (const status of TASK_STATUSES) {
      expect(statusBadge(status, "list").tone, status).not.toBe("neutral");
      expect(planStateBadge(status).label, status).not.toBe(humanizeStatus(status));
      // The dashboard's counters count it somewhere.
      expect(statsGroupOf(status), status).not.toBeNull();
    }
    expect(canComplete("awaiting_review")).toBe(false);
  });

  it("uses the plan's state on a root and the task's own on a subtask", () => {
    expect(taskBadge({ status: "completed", parent_id: null }, "list").label).toBe("Planned");
    expect(taskBadge({ status: "completed", parent_id: "r" }, "detail")).toEqual(statusBadge("completed"));
    expect(taskBadge({ status: "completed", parent_id: "r" }, "detail").label).toBe("Completed");
  });

  it("words the work's progress", () => {
    expect(workProgressText(3, 12)).toBe("3 of 12 tasks done");
    expect(workProgressText(0, 1)).toBe("0 of 1 task done");
    expect(workProgressText(12, 12)).toBe("All 12 tasks done");
    expect(workProgressText(1, 1)).toBe("The task is done");
  });
});

describe("work where the task is (issue 40)", () => {
  const leaf = (status: string, actual_source: string | null = null) => ({
    status,
    children: [],
    actual_source,
  });
  it("offers a leaf's next steps by its status, and none on a group", () => {
    expect(workActions(leaf("pending"))).toEqual(["start", "done"]);
    expect(workActions(leaf("in_progress"))).toEqual(["done", "reopen"]);
    expect(workActions(leaf("completed"))).toEqual(["reopen"]);
    expect(workActions(leaf("failed"))).toEqual([]);
    expect(workActions({ status: "completed", children: [{}] })).toEqual([]);
  });

  it("says what reopening unlocks", () => {
    expect(reopenText(leaf("completed", "person"))).toBe(
      "It goes back to to-do. It is no longer locked as done work, so a re-plan may change or merge it. The hours you entered stay.",
    );
    expect(reopenText(leaf("completed", "working_time"))).toContain("Its measured working time is cleared.");
    expect(reopenText(leaf("in_progress"))).toBe("It goes back to to-do.");
  });
});
