/** Task statuses: how a status shows as a badge. */
export type StatusTone = "success" | "info" | "warning" | "error" | "neutral";

export type StatusBadgeInfo = { label: string; tone: StatusTone };

const KNOWN: Record<string, StatusBadgeInfo> = {
  completed: { label: "Completed", tone: "success" },
  in_progress: { label: "In Progress", tone: "info" },
  processing: { label: "In Progress", tone: "info" },
  pending: { label: "Pending", tone: "warning" },
  submitted: { label: "Pending", tone: "warning" },
  failed: { label: "Failed", tone: "error" },
  error: { label: "Failed", tone: "error" },
  rejected: { label: "Failed", tone: "error" },
  awaiting_review: { label: "Check the reading", tone: "warning" },
};

/** "some_status" -> "Some Status", for statuses the product does not know. */
export function humanizeStatus(status: string): string {
  return status
    .split(/[_\s-]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(" ");
}

/**
 * The badge for a status. Anything unknown is neutral on lists and warning on the detail screen.
 */
export function statusBadge(status: string, screen: "list" | "detail" = "list"): StatusBadgeInfo {
  return (
    KNOWN[status] ?? {
      label: humanizeStatus(status) || "Unknown",
      tone: screen === "detail" ? "warning" : "neutral",
    }
  );
}

/**
 * A plan's state, from its root's status (the API's values, unchanged). The root is "completed" once the
 * plan is made, not when the work is done: the work's progress is its leaves (`progress` on list
 * answers, the tree on the task page), shown beside this, never folded into it.
 */
const PLAN_STATES: Record<string, StatusBadgeInfo> = {
  pending: { label: "Queued", tone: "warning" },
  processing: { label: "Planning...", tone: "info" },
  submitted: { label: "Awaiting review", tone: "warning" },
  completed: { label: "Planned", tone: "neutral" },
  // A person may set a root's status by hand; its plan is made all the same.
  in_progress: { label: "Planned", tone: "neutral" },
  failed: { label: "Planning failed", tone: "error" },
  error: { label: "Planning failed", tone: "error" },
  rejected: { label: "Plan rejected", tone: "error" },
  // Read, not planned: the owner checks what was read first (issue 38).
  awaiting_review: { label: "Check the reading", tone: "warning" },
};

export function planStateBadge(status: string): StatusBadgeInfo {
  return PLAN_STATES[status] ?? statusBadge(status, "detail");
}

/** What a task's own status badge says: a plan's state on a root, the task's state on a subtask. */
export function taskBadge(task: { status: string; parent_id: string | null }, screen: "list" | "detail") {
  return task.parent_id === null ? planStateBadge(task.status) : statusBadge(task.status, screen);
}

/** "3 of 12 tasks done"; "All 12 tasks done". */
export function workProgressText(done: number, total: number): string {
  if (total > 0 && done === total) return total === 1 ? "The task is done" : `All ${total} tasks done`;
  return `${done} of ${total} ${total === 1 ? "task" : "tasks"} done`;
}

/** Complete: hidden for completed or rejected tasks, and for a project not planned yet. */
export function canComplete(status: string): boolean {
  return status !== "completed" && status !== "rejected" && status !== "awaiting_review";
}

/** A task the decomposition pipeline has not finished with yet. */
export function isAwaitingDecomposition(status: string): boolean {
  return (
    status === "pending" || status === "submitted" || status === "processing" || status === "awaiting_review"
  );
}

/** What a person can do to a leaf's work where it is (issue 40): start it, finish it, reopen it. */
export type WorkAction = "start" | "done" | "reopen";

export const WORK_ACTIONS: Record<
  WorkAction,
  { label: string; status: "in_progress" | "completed" | "pending"; key: string }
> = {
  start: { label: "Start", status: "in_progress", key: "s" },
  done: { label: "Done", status: "completed", key: "d" },
  reopen: { label: "Reopen", status: "pending", key: "r" },
};

/**
 * The work actions a node offers: a leaf's by its status; none on a group or the project, whose state is
 * its leaves' (shared/work-state.ts), nor on failed or rejected work.
 */
export function workActions(node: { status: string; children: readonly unknown[] }): WorkAction[] {
  if (node.children.length > 0) return [];
  switch (node.status) {
    case "pending":
      return ["start", "done"];
    case "in_progress":
      return ["done", "reopen"];
    case "completed":
      return ["reopen"];
    default:
      return [];
  }
}

/** What reopening a leaf unlocks, said before it is done. */
export function reopenText(node: { status: string; actual_source?: string | null }): string {
  const parts = ["It goes back to to-do."];
  if (node.status === "completed")
    parts.push("It is no longer locked as done work, so a re-plan may change or merge it.");
  if (node.actual_source === "person") parts.push("The hours you entered stay.");
  else if (node.actual_source === "working_time") parts.push("Its measured working time is cleared.");
  return parts.join(" ");
}
