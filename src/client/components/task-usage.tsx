import { useQuery } from "@tanstack/react-query";
import type { TaskUsage } from "../../shared/schemas/tasks";
import { formatDate } from "../lib/time-format";
import { useTRPC } from "../lib/trpc";

export function useTaskUsage() {
  const trpc = useTRPC();
  return useQuery(trpc.tasks.usage.queryOptions(undefined, { staleTime: 30_000 }));
}

/** "3 of 10 projects planned with a model this month"; admins have no limit. */
export function usageSentence(usage: TaskUsage): string {
  if (usage.limit === null) {
    return `Unlimited projects · ${usage.used} planned this month`;
  }
  return `${usage.used} of ${usage.limit} projects planned with a model this month`;
}

/** Whether a project planned now would be refused: the limit is reached and this planning counts. */
export function isAtLimit(usage: TaskUsage): boolean {
  return usage.counts_now && usage.limit !== null && usage.used >= usage.limit;
}

/** What a person at the limit can do (issue 40: the refusal named no way out). */
export const LIMIT_WAY_OUT =
  "Planning without a model (the offline planner) or with your coding agent does not count. Admins have no limit: the operator names them in ADMIN_EMAILS or runs npm run make-admin.";

/** The monthly task allowance: a sentence, a meter and the reset date. */
export function TaskUsageSummary({
  usage,
  compact = false,
  className = "",
}: {
  usage: TaskUsage | undefined;
  compact?: boolean;
  className?: string;
}) {
  if (!usage) {
    return (
      <div className={`min-h-10 ${className}`} aria-hidden="true">
        <div className="skeleton h-4 w-48" />
      </div>
    );
  }
  const resets = formatDate(usage.resets_at, { utc: true });
  const atLimit = isAtLimit(usage);
  return (
    <div className={`text-sm ${className}`} data-testid="task-usage">
      <p className={atLimit ? "font-medium text-warning" : "text-base-content/80"}>{usageSentence(usage)}</p>
      {usage.limit !== null && !compact && (
        <progress
          className={`progress mt-1 w-full max-w-xs ${atLimit ? "progress-warning" : "progress-primary"}`}
          value={Math.min(usage.used, usage.limit)}
          max={Math.max(usage.limit, 1)}
          aria-label="Monthly task usage"
        />
      )}
      {usage.limit !== null && resets && (
        <p className="text-xs text-base-content/60" id="task-usage-note">
          {atLimit ? "Monthly limit reached. " : ""}Resets on {resets}.{atLimit && ` ${LIMIT_WAY_OUT}`}
          {!usage.counts_now &&
            usage.used >= usage.limit &&
            " Your next project is planned without a model and does not count."}
        </p>
      )}
    </div>
  );
}
