import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { Revision, RevisionKind } from "../../../../shared/schemas/replan";
import { ConfirmModal } from "../../../components/confirm-modal";
import { EmptyState, LoadError } from "../../../components/empty-state";
import { BlockSpinner } from "../../../components/spinner";
import { useToast } from "../../../components/toast";
import { errorDetailOf } from "../../../lib/api-error";
import { useTRPC } from "../../../lib/trpc";
import { useRefreshTask } from "../shared/use-task-detail";

const KIND_LABEL: Record<RevisionKind, string> = {
  baseline: "Original",
  edit: "Edit",
  move: "Move",
  add: "Added",
  remove: "Deleted",
  dependency: "Order",
  replan: "Re-plan",
  restore: "Restore",
};

function when(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

/** The plan's history: every accepted re-plan, move and edit, newest first, each one restorable. */
export function HistoryTab({ rootId }: { rootId: string }) {
  const trpc = useTRPC();
  const toast = useToast();
  const refresh = useRefreshTask(rootId);
  const revisions = useQuery(trpc.tasks.revisions.queryOptions({ id: rootId }));
  const [toRestore, setToRestore] = useState<Revision | null>(null);
  const restore = useMutation(
    trpc.tasks.restoreRevision.mutationOptions({
      retry: false,
      onSuccess: () => {
        toast.success("Plan restored");
        setToRestore(null);
        void refresh();
        void revisions.refetch();
      },
      onError: (err) => {
        toast.error(errorDetailOf(err) ?? "The plan could not be restored");
        setToRestore(null);
      },
    }),
  );

  if (revisions.isPending) {
    return <BlockSpinner label="Loading history..." />;
  }
  if (revisions.isError) {
    return (
      <LoadError title="The history could not be loaded" onRetry={() => void revisions.refetch()}>
        {errorDetailOf(revisions.error) ?? "Try again in a moment."}
      </LoadError>
    );
  }
  const list = revisions.data.revisions;
  if (list.length === 0) {
    return (
      <EmptyState title="No changes yet">
        Every edit, move, dependency change and accepted re-plan is saved here, and the plan can be brought
        back to any of them.
      </EmptyState>
    );
  }
  return (
    <div className="flex flex-col gap-3">
      <p className="text-sm text-base-content/70">
        {list.length} revision{list.length === 1 ? "" : "s"}, newest first. Restoring one brings the plan back
        as it was then (work marked done stays done) and is saved as a new revision.
      </p>
      <ol className="flex flex-col gap-2" data-testid="revisions">
        {list.map((r, i) => (
          <li
            key={r.revision_id}
            className="flex flex-wrap items-center gap-3 rounded-box border border-base-300 bg-base-200 p-3"
            data-testid="revision"
          >
            <span className="badge badge-sm badge-outline">{KIND_LABEL[r.kind]}</span>
            <div className="min-w-0 flex-1">
              <p className="break-words text-sm">{r.summary}</p>
              <p className="text-xs text-base-content/60">
                <time dateTime={r.created_at}>{when(r.created_at)}</time> · {r.tasks} task
                {r.tasks === 1 ? "" : "s"}
                {i === 0 ? " · current" : ""}
              </p>
            </div>
            {i > 0 && (
              <button type="button" className="btn btn-sm" onClick={() => setToRestore(r)}>
                Restore
              </button>
            )}
          </li>
        ))}
      </ol>
      <ConfirmModal
        open={toRestore !== null}
        title="Restore this version?"
        message={
          toRestore
            ? `The plan goes back to how it was after "${toRestore.summary}". Tasks added since are removed; your current version stays in the history.`
            : ""
        }
        confirmLabel="Restore"
        pendingLabel="Restoring..."
        tone="primary"
        pending={restore.isPending}
        onClose={() => setToRestore(null)}
        onConfirm={() => {
          if (toRestore) restore.mutate({ id: rootId, revision_id: toRestore.revision_id });
        }}
      />
    </div>
  );
}
