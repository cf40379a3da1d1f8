import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useState } from "react";
import {
  REJECT_REASON_MAX,
  rejectTaskInput,
  resubmitTaskInput,
  type Task,
  type TaskTreeNode,
} from "../../../../shared/schemas/tasks";
import { Field } from "../../../components/field";
import { FormModal } from "../../../components/modal";
import { Spinner } from "../../../components/spinner";
import { useToast } from "../../../components/toast";
import { errorDetailOf } from "../../../lib/api-error";
import { useAuth } from "../../../lib/auth";
import { complexityBadgeClass } from "../../../lib/complexity-badge";
import { schemaFieldErrors, serverFieldErrors } from "../../../lib/field-errors";
import { useTaskCache } from "../../../lib/task-cache";
import { useTRPC } from "../../../lib/trpc";
import { formatComplexity } from "../shared/task-tree";

/** The one field of each review form: rejectTaskInput's reason, resubmitTaskInput's description. */
const REASON = { reason: "reason" } as const;
const DESCRIPTION = { description: "description" } as const;

/**
 * After a review action: show the saved task at once, then refetch task, tree and lists. The outcome
 * toast shares its id with the realtime event's toast, so when live updates are connected the
 * event's wording replaces ours rather than adding a second toast.
 */
function useReviewOutcome() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const cache = useTaskCache();
  return (saved: Task) => {
    queryClient.setQueryData(trpc.tasks.get.queryKey({ id: saved.id }), saved);
    void cache.invalidateTasks();
    void cache.invalidateLists();
  };
}

function SubtaskRow({ node, index }: { node: TaskTreeNode; index: number }) {
  const score = node.complexity_score ?? node.complexity;
  return (
    <li className="flex flex-col gap-2 rounded-box border border-base-300 bg-base-100 p-3 sm:flex-row sm:items-start sm:justify-between">
      <p className="min-w-0 flex-1 whitespace-pre-line break-words text-sm">
        <span className="mr-1 font-semibold tabular-nums text-base-content/60">{index + 1}.</span>
        {node.description}
      </p>
      <div className="flex shrink-0 flex-wrap gap-1.5">
        {score != null && (
          <span className={`badge badge-sm ${complexityBadgeClass(score)}`}>
            Complexity {formatComplexity(score)}
          </span>
        )}
        {node.story_points !== null && (
          <span className="badge badge-sm badge-ghost">
            {node.story_points} {node.story_points === 1 ? "story point" : "story points"}
          </span>
        )}
      </div>
    </li>
  );
}

/** Review before commit: a `submitted` root shows its first-level plan with Approve Plan and Reject. */
export function PlanReviewCard({
  task,
  tree,
  treeLoading,
}: {
  task: Task;
  tree: TaskTreeNode | undefined;
  treeLoading: boolean;
}) {
  const trpc = useTRPC();
  const toast = useToast();
  const outcome = useReviewOutcome();
  const { user } = useAuth();
  const [rejecting, setRejecting] = useState(false);
  const subtasks = tree && tree.id === task.id ? tree.children : [];

  const approve = useMutation(
    trpc.tasks.approve.mutationOptions({
      retry: false,
      onSuccess: (saved) => {
        // The task.approved event's wording, so whichever arrives last reads the same.
        const who = user?.full_name || user?.email || "you";
        toast.success(`Task approved: ${saved.id} by ${who}`, { id: `review-${saved.id}` });
        outcome(saved);
      },
      onError: (err) => {
        toast.error(errorDetailOf(err) ?? "Failed to approve the plan");
      },
    }),
  );

  return (
    <section
      aria-labelledby="plan-review-heading"
      className="card border border-warning/50 bg-base-200"
      data-testid="plan-review"
    >
      <div className="card-body gap-4 p-4 sm:p-6">
        <div>
          <h2 id="plan-review-heading" className="card-title text-lg">
            Review the proposed plan
          </h2>
          <p className="mt-1 text-sm text-base-content/70">
            The AI has planned the first level. Approve it to decompose each part further, or reject it with a
            reason.
          </p>
        </div>

        {subtasks.length > 0 ? (
          <ol className="flex flex-col gap-2" aria-label="Proposed subtasks">
            {subtasks.map((node, i) => (
              <SubtaskRow key={node.id} node={node} index={i} />
            ))}
          </ol>
        ) : treeLoading ? (
          <Spinner label="Loading the plan..." />
        ) : (
          <p className="text-sm text-base-content/60">The plan has no subtasks.</p>
        )}

        <div className="flex flex-wrap justify-end gap-2">
          <button
            type="button"
            className="btn btn-error btn-outline"
            onClick={() => setRejecting(true)}
            disabled={approve.isPending}
          >
            Reject
          </button>
          <button
            type="button"
            className="btn btn-success"
            onClick={() => approve.mutate({ id: task.id })}
            disabled={approve.isPending}
          >
            {approve.isPending && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
            Approve Plan
          </button>
        </div>
      </div>
      <RejectPlanModal open={rejecting} task={task} onClose={() => setRejecting(false)} />
    </section>
  );
}

function RejectPlanModal({ open, task, onClose }: { open: boolean; task: Task; onClose: () => void }) {
  const trpc = useTRPC();
  const toast = useToast();
  const outcome = useReviewOutcome();
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | null>(null);
  const reject = useMutation(trpc.tasks.reject.mutationOptions({ retry: false }));

  useEffect(() => {
    if (!open) return;
    setReason("");
    setError(null);
  }, [open]);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (reject.isPending) return;
    const input = { reason: reason.trim() };
    const found = schemaFieldErrors(rejectTaskInput, input, REASON).reason;
    if (found) {
      setError(found);
      return;
    }
    setError(null);
    try {
      const saved = await reject.mutateAsync({ id: task.id, ...input });
      toast.error(`Task rejected: ${input.reason}`, { id: `review-${saved.id}` });
      outcome(saved);
      onClose();
    } catch (err) {
      setError(serverFieldErrors(err, REASON).reason ?? errorDetailOf(err) ?? "Failed to reject the plan");
    }
  };

  return (
    <FormModal
      open={open}
      onClose={onClose}
      title="Reject the proposed plan"
      formId="reject-plan-form"
      onSubmit={onSubmit}
      submitLabel="Reject Plan"
      submitClassName="btn-error"
      pending={reject.isPending}
    >
      <Field
        as="textarea"
        id="reject-reason"
        label="Reason"
        required
        error={error}
        rows={4}
        autoFocus
        maxLength={REJECT_REASON_MAX}
        value={reason}
        onChange={(e) => {
          setReason(e.target.value);
          if (error) setError(null);
        }}
        placeholder="What should change? e.g. Split the backend work by service."
        disabled={reject.isPending}
      />
    </FormModal>
  );
}

/** A rejected root: the reason, prominently, and 'Resubmit' with an edited description. */
export function RejectedPlanCard({ task }: { task: Task }) {
  const [resubmitting, setResubmitting] = useState(false);
  return (
    <section
      aria-labelledby="plan-rejected-heading"
      role="alert"
      className="alert alert-error alert-soft flex flex-col items-stretch gap-3 sm:flex-row sm:items-start sm:justify-between"
      data-testid="plan-rejected"
    >
      <div className="min-w-0 text-sm">
        <h2 id="plan-rejected-heading" className="text-base font-semibold">
          This plan was rejected
        </h2>
        <p className="mt-1 break-words">
          <span className="font-semibold">Reason: </span>
          {task.rejection_reason || "No reason was given."}
        </p>
        <p className="mt-1 text-base-content/70">Edit the description and resubmit to plan it again.</p>
      </div>
      <button type="button" className="btn btn-sm btn-primary shrink-0" onClick={() => setResubmitting(true)}>
        Resubmit
      </button>
      <ResubmitModal open={resubmitting} task={task} onClose={() => setResubmitting(false)} />
    </section>
  );
}

function ResubmitModal({ open, task, onClose }: { open: boolean; task: Task; onClose: () => void }) {
  const trpc = useTRPC();
  const toast = useToast();
  const outcome = useReviewOutcome();
  const [description, setDescription] = useState(task.description);
  const [error, setError] = useState<string | null>(null);
  const resubmit = useMutation(trpc.tasks.resubmit.mutationOptions({ retry: false }));

  useEffect(() => {
    if (!open) return;
    setDescription(task.description);
    setError(null);
  }, [open, task.description]);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (resubmit.isPending) return;
    const input = { description: description.trim() };
    const found = schemaFieldErrors(resubmitTaskInput, input, DESCRIPTION).description;
    if (found) {
      setError(found);
      return;
    }
    setError(null);
    try {
      const saved = await resubmit.mutateAsync({ id: task.id, ...input });
      toast.info("Task rejected and resubmitted", { id: `review-${saved.id}` });
      outcome(saved);
      onClose();
    } catch (err) {
      setError(
        serverFieldErrors(err, DESCRIPTION).description ??
          errorDetailOf(err) ??
          "Failed to resubmit the task",
      );
    }
  };

  return (
    <FormModal
      open={open}
      onClose={onClose}
      title="Edit and resubmit"
      size="lg"
      formId="resubmit-form"
      onSubmit={onSubmit}
      submitLabel="Resubmit Task"
      pending={resubmit.isPending}
    >
      <Field
        as="textarea"
        id="resubmit-description"
        label="Description"
        required
        error={error}
        rows={8}
        autoFocus
        value={description}
        onChange={(e) => {
          setDescription(e.target.value);
          if (error) setError(null);
        }}
        disabled={resubmit.isPending}
      />
    </FormModal>
  );
}
