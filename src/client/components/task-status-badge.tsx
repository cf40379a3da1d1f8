import { type StatusBadgeInfo, type StatusTone, statusBadge, workProgressText } from "../lib/task-status";

const TONE_CLASS: Record<StatusTone, string> = {
  success: "badge-success",
  info: "badge-info",
  warning: "badge-warning",
  error: "badge-error",
  neutral: "badge-neutral",
};

/**
 * A task status as a badge; `screen="detail"` shows unknown statuses as warning. `badge` overrides the
 * label and tone (a plan's state, lib/task-status.ts planStateBadge) while `data-status` keeps the API's
 * value.
 */
export function TaskStatusBadge({
  status,
  screen = "list",
  badge,
  className = "",
  compact = false,
}: {
  status: string;
  screen?: "list" | "detail";
  badge?: StatusBadgeInfo;
  className?: string;
  /** On a phone, a dot of the status's colour, its words for screen readers (the tree's rows; issue 40). */
  compact?: boolean;
}) {
  const { label, tone } = badge ?? statusBadge(status, screen);
  // The pipeline is working on it: an animated badge.
  const working = status === "processing";
  return (
    <span
      className={`badge badge-sm shrink-0 whitespace-nowrap ${TONE_CLASS[tone]} ${working ? "gap-1" : ""} ${compact ? "max-sm:size-3 max-sm:p-0" : ""} ${className}`}
      data-status={status}
    >
      {working && <span aria-hidden="true" className="loading loading-spinner loading-xs" />}
      {compact ? <span className="max-sm:sr-only">{label}</span> : label}
    </span>
  );
}

/**
 * The work's progress: a bar and "3 of 12 tasks done", labelled for assistive technology by `label`
 * (the bar's name) and its text.
 */
export function WorkProgress({
  done,
  total,
  label = "Work done",
  className = "",
}: {
  done: number;
  total: number;
  label?: string;
  className?: string;
}) {
  const percent = total > 0 ? Math.round((done / total) * 100) : 0;
  return (
    <div className={`flex flex-col gap-1 ${className}`} data-testid="work-progress">
      <div className="flex justify-between gap-2 text-xs text-base-content/70">
        <span>{label}</span>
        <span className="tabular-nums">
          {percent}% · {workProgressText(done, total)}
        </span>
      </div>
      <progress
        className="progress progress-success h-1.5 w-full"
        value={percent}
        max={100}
        aria-label={label}
        aria-valuetext={`${percent}%, ${workProgressText(done, total)}`}
      />
    </div>
  );
}
