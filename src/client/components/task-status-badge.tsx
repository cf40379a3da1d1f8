import { type StatusTone, statusBadge } from "../lib/task-status";

const TONE_CLASS: Record<StatusTone, string> = {
  success: "badge-success",
  info: "badge-info",
  warning: "badge-warning",
  error: "badge-error",
  neutral: "badge-neutral",
};

/** A task status as a badge; `screen="detail"` shows unknown statuses as warning. */
export function TaskStatusBadge({
  status,
  screen = "list",
  className = "",
}: {
  status: string;
  screen?: "list" | "detail";
  className?: string;
}) {
  const { label, tone } = statusBadge(status, screen);
  // The pipeline is working on it: an animated badge.
  const working = status === "processing";
  return (
    <span
      className={`badge badge-sm shrink-0 whitespace-nowrap ${TONE_CLASS[tone]} ${working ? "gap-1" : ""} ${className}`}
      data-status={status}
    >
      {working && <span aria-hidden="true" className="loading loading-spinner loading-xs" />}
      {label}
    </span>
  );
}
