import type { TaskStats } from "../../../shared/schemas/tasks";

const ITEMS: { key: keyof TaskStats; label: string; className: string }[] = [
  { key: "total", label: "Total", className: "text-base-content" },
  // Projects by their work (issue 40): done, started, or not started yet (planning included).
  { key: "completed", label: "Done", className: "text-success" },
  { key: "in_progress", label: "In progress", className: "text-info" },
  { key: "pending", label: "Not started", className: "text-warning" },
  { key: "rejected", label: "Rejected", className: "text-error" },
  { key: "failed", label: "Failed", className: "text-error" },
];

/** The dashboard stats panel: projects by their work (Done, In progress, Not started), Rejected and Failed. */
export function StatsPanel({ stats }: { stats: TaskStats | undefined }) {
  return (
    <section aria-labelledby="task-stats-heading">
      <h2 id="task-stats-heading" className="sr-only">
        Projects by their work
      </h2>
      <dl className="grid grid-cols-3 gap-2 sm:gap-3 lg:grid-cols-6">
        {ITEMS.map((item) => (
          <div
            key={item.key}
            className="flex flex-col-reverse rounded-box border border-base-300 bg-base-200 px-3 py-3 sm:px-4"
            data-testid={`stat-${item.key}`}
          >
            <dt className="truncate text-xs text-base-content/70 sm:text-sm">{item.label}</dt>
            <dd className={`text-2xl font-bold tabular-nums sm:text-3xl ${item.className}`}>
              {stats ? (
                stats[item.key]
              ) : (
                <>
                  <span className="skeleton inline-block h-8 w-10 align-middle" aria-hidden="true" />
                  <span className="sr-only">Loading</span>
                </>
              )}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
