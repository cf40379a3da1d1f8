import { type FormEvent, type ReactNode, useEffect, useRef } from "react";
import type { ReadingKind, ReadingRole } from "../../../../shared/schemas/reading";
import type { Task } from "../../../../shared/schemas/tasks";
import { BlockSpinner } from "../../../components/spinner";
import { classifyTaskError } from "../shared/task-error";
import {
  addWorkItem,
  mergeWithNext,
  ROLE_OPTIONS,
  removeItem,
  requirementIds,
  setKind,
  setRole,
  setText,
  splitItem,
  splitPoint,
} from "./reading-draft";
import { useReadingReview } from "./use-reading";

/**
 * "Here is what I read" (issue 38): the kind of work and each item of the reading, for the owner to
 * correct before anything is planned. Every control has a label and works from the keyboard; the edits
 * themselves live in reading-draft.ts.
 */
export function ReadingReviewPanel({
  taskId,
  onPlanned,
  headingLevel = 2,
  focusOnLoad = false,
}: {
  taskId: string;
  onPlanned: (task: Task) => void;
  headingLevel?: 2 | 3;
  /** Takes the focus when it appears in place of what had it (the new-project form). */
  focusOnLoad?: boolean;
}) {
  const review = useReadingReview(taskId, onPlanned);
  const { reading, draft, errors, edit, busy } = review;
  const carets = useRef(new Map<number, number>());
  const focusKey = useRef<number | null>(null);
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const heading = useRef<HTMLHeadingElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when it first appears
  useEffect(() => {
    if (focusOnLoad) heading.current?.focus();
  }, []);

  // After an item is added or split, the new item's text box takes the focus.
  useEffect(() => {
    if (focusKey.current === null) return;
    document.getElementById(`reading-item-${focusKey.current}-text`)?.focus();
    focusKey.current = null;
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void review.planIt();
  };

  let body: ReactNode;
  if (reading.isPending || (reading.isSuccess && !draft)) {
    body = <BlockSpinner label="Loading what was read..." minHeight="min-h-32" />;
  } else if (reading.isError) {
    body = (
      <div role="alert" className="alert alert-error">
        <span>{classifyTaskError(reading.error).message}</span>
        <button type="button" className="btn btn-sm" onClick={() => void reading.refetch()}>
          Retry
        </button>
      </div>
    );
  } else if (draft && reading.data) {
    const ids = requirementIds(draft);
    const kindHint = `kind-reasons-${taskId}`;
    body = (
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4" aria-busy={busy}>
        {errors.form && (
          <div role="alert" className="alert alert-error">
            <span>{errors.form}</span>
          </div>
        )}
        <div className="flex flex-col gap-1">
          <label htmlFor="reading-kind" className="text-sm font-medium">
            Kind of work
          </label>
          <select
            id="reading-kind"
            className="select select-bordered w-full sm:max-w-sm"
            value={draft.kind}
            aria-describedby={kindHint}
            disabled={busy}
            onChange={(e) => edit((d) => setKind(d, e.target.value as ReadingKind))}
          >
            {reading.data.kinds.map((k) => (
              <option key={k.id} value={k.id}>
                {k.label}
              </option>
            ))}
          </select>
          <p id={kindHint} className="text-xs text-base-content/70">
            {draft.kind === reading.data.kind
              ? `Read as ${reading.data.kind_label}, because ${reading.data.kind_reasons.join("; ")}.`
              : "Your choice: the plan takes this kind's shape."}
          </p>
        </div>

        {draft.items.length === 0 ? (
          <p className="rounded-box border border-dashed border-base-300 p-4 text-sm text-base-content/70">
            Nothing was read from the description. Add the work to plan below.
          </p>
        ) : (
          <ol className="flex flex-col gap-3" aria-label="What was read">
            {draft.items.map((item, i) => {
              const n = i + 1;
              const name = ids[i] ? `item ${n} (${ids[i]})` : `item ${n}`;
              const error = errors.items[i];
              const errorId = `reading-item-${item.key}-error`;
              const canSplit = splitPoint(item.text, carets.current.get(item.key) ?? null) !== null;
              return (
                <li
                  key={item.key}
                  className="flex flex-col gap-2 rounded-box border border-base-300 bg-base-100 p-3"
                  data-testid="reading-item"
                >
                  <div className="flex flex-wrap items-center gap-2">
                    <span
                      className={`badge ${ids[i] ? "badge-primary" : "badge-ghost"} tabular-nums`}
                      aria-hidden="true"
                    >
                      {ids[i] ?? n}
                    </span>
                    <label htmlFor={`reading-item-${item.key}-role`} className="sr-only">
                      Role of {name}
                    </label>
                    <select
                      id={`reading-item-${item.key}-role`}
                      className="select select-bordered select-sm"
                      value={item.role}
                      disabled={busy}
                      onChange={(e) => edit((d) => setRole(d, i, e.target.value as ReadingRole))}
                    >
                      {ROLE_OPTIONS.map((r) => (
                        <option key={r.id} value={r.id}>
                          {r.label}
                        </option>
                      ))}
                    </select>
                    <div className="ml-auto flex flex-wrap gap-1">
                      <button
                        type="button"
                        className="btn btn-ghost btn-xs"
                        aria-label={`Split ${name} in two`}
                        disabled={busy || !canSplit}
                        onClick={() => {
                          focusKey.current = draft.nextKey + 1;
                          edit((d) => splitItem(d, i, carets.current.get(item.key) ?? null));
                        }}
                      >
                        Split
                      </button>
                      <button
                        type="button"
                        className="btn btn-ghost btn-xs"
                        aria-label={`Merge ${name} with the next item`}
                        disabled={busy || i === draft.items.length - 1}
                        onClick={() => {
                          focusKey.current = item.key;
                          edit((d) => mergeWithNext(d, i));
                        }}
                      >
                        Merge
                      </button>
                      <button
                        type="button"
                        className="btn btn-ghost btn-xs text-error"
                        aria-label={`Delete ${name}`}
                        disabled={busy}
                        onClick={() => {
                          const next = draft.items[i + 1] ?? draft.items[i - 1];
                          focusKey.current = next ? next.key : null;
                          edit((d) => removeItem(d, i));
                          if (!next) document.getElementById("reading-add-work")?.focus();
                        }}
                      >
                        Delete
                      </button>
                    </div>
                  </div>
                  <label htmlFor={`reading-item-${item.key}-text`} className="sr-only">
                    Text of {name}
                  </label>
                  <textarea
                    id={`reading-item-${item.key}-text`}
                    className={`textarea textarea-bordered w-full text-sm ${error ? "textarea-error" : ""}`}
                    rows={Math.min(6, Math.max(1, Math.ceil(item.text.length / 90)))}
                    value={item.text}
                    disabled={busy}
                    aria-invalid={error ? true : undefined}
                    aria-describedby={error ? errorId : undefined}
                    onChange={(e) => edit((d) => setText(d, i, e.target.value))}
                    onSelect={(e) => carets.current.set(item.key, e.currentTarget.selectionStart)}
                  />
                  {error && (
                    <p id={errorId} className="text-sm text-error">
                      {error}
                    </p>
                  )}
                </li>
              );
            })}
          </ol>
        )}

        <div className="flex flex-col-reverse gap-2 border-t border-base-300 pt-4 sm:flex-row sm:items-center sm:justify-between">
          <button
            id="reading-add-work"
            type="button"
            className="btn btn-outline btn-sm"
            disabled={busy}
            onClick={() => {
              focusKey.current = draft.nextKey;
              edit(addWorkItem);
            }}
          >
            Add a work item
          </button>
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
            {busy ? "Planning..." : "Plan it"}
          </button>
        </div>
      </form>
    );
  }

  return (
    <section
      aria-labelledby={`reading-title-${taskId}`}
      className="card border border-warning/40 bg-base-200"
      data-testid="reading-review"
    >
      <div className="card-body gap-4 p-4 sm:p-6">
        <div>
          <Heading
            id={`reading-title-${taskId}`}
            ref={heading}
            tabIndex={-1}
            className="card-title text-lg focus:outline-none"
          >
            Here is what I read
          </Heading>
          <p className="mt-1 text-sm text-base-content/70">
            Check it before anything is planned: only work items become tasks, each traced to its id (R1, R2,
            ...). Change a role, edit, split or merge items, add what is missing, or choose another kind of
            work. Nothing counts toward your monthly plans until you plan it.
          </p>
        </div>
        {body}
      </div>
    </section>
  );
}
