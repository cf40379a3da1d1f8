import { useMutation, useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import type { Task } from "../../../../shared/schemas/tasks";
import { ErrorAlert } from "../../../components/error-alert";
import { errorDetailOf } from "../../../lib/api-error";
import { useTaskCache } from "../../../lib/task-cache";
import { useTRPC } from "../../../lib/trpc";
import { useCanEdit } from "../shared/plan-access";

const STATE_TEXT = {
  not_required: "Exports need no approval.",
  waiting: "Waiting for an approval: exports are held until an owner or admin approves the plan.",
  approved: "Approved: exports may go ahead.",
  changes_requested: "Changes requested: exports are held until the plan is approved.",
  stale: "Changed since it was approved: exports are held until it is approved again.",
} as const;

/**
 * The project's approval before export (issue 41): whether it needs one, where it stands (with what
 * changed since an approval), and Approve / Request changes. The server decides who may: a refusal
 * is shown as its sentence.
 */
export function ReviewCard({ task }: { task: Task }) {
  const trpc = useTRPC();
  const cache = useTaskCache();
  const canEdit = useCanEdit();
  const id = useId();
  const state = useQuery(trpc.tasks.reviews.queryOptions({ id: task.id }));
  const [comment, setComment] = useState("");
  const [error, setError] = useState<string | null>(null);
  const done = () => {
    setError(null);
    setComment("");
    void cache.invalidateTasks();
  };
  const onError = (err: unknown) => setError(errorDetailOf(err) ?? "That did not work. Try again.");
  const review = useMutation(trpc.tasks.review.mutationOptions({ retry: false, onSuccess: done, onError }));
  const toggle = useMutation(trpc.tasks.update.mutationOptions({ retry: false, onSuccess: done, onError }));
  if (task.parent_id !== null || !state.data) return null;
  const s = state.data;
  const required = s.state !== "not_required";
  return (
    <section
      className="card border border-base-300 bg-base-200 md:col-span-2"
      aria-labelledby={`${id}-title`}
      data-testid="review-card"
    >
      <div className="card-body gap-3 p-4">
        <h3 id={`${id}-title`} className="card-title text-base">
          Approval before export
        </h3>
        <p className="text-sm" data-testid="review-state" data-state={s.state}>
          {STATE_TEXT[s.state]}
        </p>
        {s.state === "stale" && s.changed_since.length > 0 && (
          <ul className="list-disc pl-5 text-sm text-base-content/80">
            {s.changed_since.map((c) => (
              <li key={c} className="break-words">
                {c}
              </li>
            ))}
          </ul>
        )}
        {s.reviews[0] && (
          <p className="text-xs text-base-content/70">
            Last review: {s.reviews[0].decision === "approve" ? "approved" : "changes requested"} by{" "}
            {s.reviews[0].reviewer_name ?? "someone"}
            {s.reviews[0].comment ? `: “${s.reviews[0].comment}”` : ""}
          </p>
        )}
        {required && (
          <div className="flex flex-col gap-2">
            <label className="flex flex-col gap-1 text-sm" htmlFor={`${id}-comment`}>
              Review comment (optional)
              <input
                id={`${id}-comment`}
                className="input input-bordered input-sm w-full max-w-md"
                value={comment}
                maxLength={2000}
                onChange={(e) => setComment(e.target.value)}
              />
            </label>
            <div className="flex flex-wrap gap-2">
              <button
                type="button"
                className="btn btn-sm btn-success"
                disabled={review.isPending}
                onClick={() => review.mutate({ id: task.id, decision: "approve", comment })}
              >
                Approve
              </button>
              <button
                type="button"
                className="btn btn-sm btn-outline"
                disabled={review.isPending}
                onClick={() => review.mutate({ id: task.id, decision: "request_changes", comment })}
              >
                Request changes
              </button>
            </div>
          </div>
        )}
        {s.required_by === "team" ? (
          <p className="text-sm text-base-content/70">
            Its team has every plan approved before export: an owner or admin changes that in Settings →
            Teams.
          </p>
        ) : (
          canEdit && (
            <button
              type="button"
              className="btn btn-ghost btn-sm self-start"
              disabled={toggle.isPending}
              onClick={() => toggle.mutate({ id: task.id, updates: { requires_approval: !required } })}
            >
              {required ? "Stop requiring approval" : "Require approval first"}
            </button>
          )
        )}
        <ErrorAlert message={error} line />
      </div>
    </section>
  );
}
