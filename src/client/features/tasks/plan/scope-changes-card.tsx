import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import type { ScopeChanges } from "../../../../shared/schemas/actuals";
import { ErrorAlert } from "../../../components/error-alert";
import { errorDetailOf } from "../../../lib/api-error";
import { useTRPC } from "../../../lib/trpc";

/** The default "since": a week before today (UTC), as YYYY-MM-DD. */
export function weekAgo(today: Date): string {
  return new Date(today.getTime() - 7 * 86_400_000).toISOString().slice(0, 10);
}

const figures = (f: { hours: number | null; story_points: number | null }) =>
  [f.hours != null ? `${f.hours} h` : null, f.story_points != null ? `${f.story_points} pts` : null]
    .filter(Boolean)
    .join(", ") || "no estimate";

function ChangeList({
  title,
  items,
  tone,
}: {
  title: string;
  items: { id: string; title: string; note?: string }[];
  tone: string;
}) {
  if (items.length === 0) return null;
  return (
    <div>
      <h4 className="text-sm font-semibold">
        {title} <span className={`badge badge-sm ${tone}`}>{items.length}</span>
      </h4>
      <ul className="mt-1 flex flex-col gap-1 text-sm">
        {items.slice(0, 50).map((i) => (
          <li key={i.id} className="break-words rounded-box bg-base-100 px-3 py-1">
            {i.title}
            {i.note && <span className="text-base-content/70"> ({i.note})</span>}
          </li>
        ))}
        {items.length > 50 && <li className="px-3 text-base-content/70">and {items.length - 50} more</li>}
      </ul>
    </div>
  );
}

function Summary({ data }: { data: ScopeChanges }) {
  const total = data.added.length + data.removed.length + data.re_estimated.length;
  const delta = Math.round((data.hours_now - data.hours_before) * 10) / 10;
  return (
    <p className="text-sm" data-testid="scope-summary">
      {total === 0
        ? "No tasks added, removed or re-estimated since then."
        : `${data.added.length} added, ${data.removed.length} removed, ${data.re_estimated.length} re-estimated: scope ${data.hours_before} h then, ${data.hours_now} h now (${delta >= 0 ? "+" : ""}${delta} h).`}
      {!data.complete &&
        ` The history kept starts ${data.history_from ? new Date(data.history_from).toISOString().slice(0, 10) : "later"}: earlier changes are not shown.`}
    </p>
  );
}

/** "What changed since": tasks added, removed and re-estimated since a chosen date, from the plan's history. */
export function ScopeChangesCard({ projectId }: { projectId: string }) {
  const trpc = useTRPC();
  const dateId = useId();
  const [since, setSince] = useState(() => weekAgo(new Date()));
  const valid = /^\d{4}-\d{2}-\d{2}$/.test(since);
  const changes = useQuery(
    trpc.tasks.scopeChanges.queryOptions(
      { id: projectId, since },
      { enabled: valid, placeholderData: keepPreviousData },
    ),
  );
  return (
    <section aria-labelledby="scope-heading" className="card border border-base-300 bg-base-200">
      <div className="card-body gap-3 p-4">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <h3 id="scope-heading" className="card-title text-base">
            What changed since
          </h3>
          <div className="form-control">
            <label htmlFor={dateId} className="label py-0 text-sm">
              Since
            </label>
            <input
              id={dateId}
              type="date"
              className={`input input-sm ${valid ? "" : "input-error"}`}
              value={since}
              max={new Date().toISOString().slice(0, 10)}
              aria-invalid={!valid}
              onChange={(e) => setSince(e.target.value)}
            />
          </div>
        </div>
        {!valid ? (
          <ErrorAlert message="Choose a date." line />
        ) : changes.isPending ? (
          <p className="text-sm text-base-content/70">Reading the history...</p>
        ) : changes.isError ? (
          <ErrorAlert message={errorDetailOf(changes.error) ?? "The history could not be read."} line />
        ) : (
          <div className="flex flex-col gap-3" data-testid="scope-changes" aria-busy={changes.isFetching}>
            <Summary data={changes.data} />
            <ChangeList title="Added" items={changes.data.added} tone="badge-success" />
            <ChangeList title="Removed" items={changes.data.removed} tone="badge-error" />
            <ChangeList
              title="Re-estimated"
              tone="badge-info"
              items={changes.data.re_estimated.map((r) => ({
                id: r.id,
                title: r.title,
                note: `${figures(r.before)} → ${figures(r.after)}`,
              }))}
            />
          </div>
        )}
      </div>
    </section>
  );
}
