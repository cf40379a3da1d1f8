import { coverageSummary, type RequirementStatus } from "../../../../shared/requirement-coverage";
import type {
  LinkedPullRequest,
  RequirementProgress,
  RequirementStatusAnswer,
} from "../../../../shared/schemas/requirements";
import type { StatusBadgeInfo } from "../../../lib/task-status";

/** The Requirements tab's words and filtering (requirements-tab.tsx), kept pure for its tests. */

/** A requirement's status as a badge: the words carry it, the colour only repeats them. */
export const REQUIREMENT_BADGE: Record<RequirementStatus, StatusBadgeInfo> = {
  done: { label: "Done", tone: "success" },
  in_progress: { label: "In progress", tone: "info" },
  not_started: { label: "Not started", tone: "neutral" },
  no_tasks: { label: "No tasks yet", tone: "warning" },
};

export const PULL_REQUEST_BADGE: Record<LinkedPullRequest["state"], StatusBadgeInfo> = {
  open: { label: "Open", tone: "info" },
  merged: { label: "Merged", tone: "success" },
  closed: { label: "Closed unmerged", tone: "neutral" },
};

/** "5 of 8 requirements done; 2 have no task". */
export function requirementsSummary(answer: RequirementStatusAnswer): string {
  return coverageSummary(answer.totals);
}

/** The requirements shown: all of them, or only those not done yet. */
export function visibleRequirements(
  list: readonly RequirementProgress[],
  onlyNotDone: boolean,
): RequirementProgress[] {
  return onlyNotDone ? list.filter((r) => r.status !== "done") : [...list];
}

/** "1 of 3 tasks done", or nothing for a requirement with a single work item (its badge says it). */
export function workText(done: number, total: number): string | null {
  if (total <= 1) return null;
  return `${done} of ${total} tasks done`;
}

/** What the filter hid, in words, when it hid everything or some. */
export function hiddenText(total: number, shown: number): string | null {
  const hidden = total - shown;
  if (hidden <= 0) return null;
  return `${hidden} done requirement${hidden === 1 ? " is" : "s are"} hidden.`;
}
