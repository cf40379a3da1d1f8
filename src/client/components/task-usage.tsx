import { useQuery } from "@tanstack/react-query";
import type { TaskUsage } from "../../shared/schemas/tasks";
import { formatDate } from "../lib/time-format";
import { useTRPC } from "../lib/trpc";

export function useTaskUsage() {
  const trpc = useTRPC();
  return useQuery(trpc.tasks.usage.queryOptions(undefined, { staleTime: 30_000 }));
}

/** "3 of 10 tasks used this month"; admins have no limit. */
export function usageSentence(usage: TaskUsage): string {
  if (usage.limit === null) {
    return `Unlimited tasks · ${usage.used} created this month`;
  }
  return `${usage.used} of ${usage.limit} tasks used this month`;
}

export function isAtLimit(usage: TaskUsage): boolean {
  return usage.limit !== null && usage.used >= usage.limit;
}

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
        <p className="text-xs text-base-content/60">
          {atLimit ? "Monthly limit reached. " : ""}Resets on {resets}
        </p>
      )}
    </div>
  );
}
