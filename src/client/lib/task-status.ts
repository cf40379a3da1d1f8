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

/** Complete: hidden for completed or rejected tasks. */
export function canComplete(status: string): boolean {
  return status !== "completed" && status !== "rejected";
}

/** A task the decomposition pipeline has not finished with yet. */
export function isAwaitingDecomposition(status: string): boolean {
  return status === "pending" || status === "submitted" || status === "processing";
}
