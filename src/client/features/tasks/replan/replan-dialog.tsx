import { useMutation } from "@tanstack/react-query";
import { useId, useMemo, useState } from "react";
import { GUIDANCE_MAX, type ReplanProposal } from "../../../../shared/schemas/replan";
import type { TaskTreeNode } from "../../../../shared/schemas/tasks";
import { taskTitle } from "../../../../shared/task-title";
import { Modal } from "../../../components/modal";
import { useToast } from "../../../components/toast";
import { errorDetailOf } from "../../../lib/api-error";
import { useTRPC } from "../../../lib/trpc";
import { changeCounts, changeViews, lockText, toggleChange } from "../shared/replan-view";
import type { TreeIndexEntry } from "../shared/task-tree";
import { useRefreshTask } from "../shared/use-task-detail";

const OP_CLASS = {
  add: "border-success/50 bg-success/5",
  update: "border-info/50 bg-info/5",
  move: "border-warning/50 bg-warning/5",
  remove: "border-error/50 bg-error/5",
} as const;
const OP_BADGE = {
  add: "badge-success",
  update: "badge-info",
  move: "badge-warning",
  remove: "badge-error",
} as const;

/**
 * "Re-plan...": guidance, then the planner's proposal as a diff to review (additions, changes, moves,
 * removals, each with a checkbox), then accept all or some. Nothing changes until Accept; a proposal the
 * plan outgrew (409) offers a fresh one.
 */
export function ReplanDialog({
  node,
  rootId,
  index,
  onClose,
}: {
  node: TaskTreeNode;
  rootId: string;
  index: ReadonlyMap<string, TreeIndexEntry>;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const toast = useToast();
  const refresh = useRefreshTask(rootId);
  const guidanceId = useId();
  const [guidance, setGuidance] = useState("");
  const [proposal, setProposal] = useState<ReplanProposal | null>(null);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  // The person chose to leave the proposal's uncovered requirements without a task (issue 40).
  const [leaveUncovered, setLeaveUncovered] = useState(false);
  const [error, setError] = useState<{ message: string; stale: boolean } | null>(null);

  const propose = useMutation(
    trpc.tasks.replan.mutationOptions({
      retry: false,
      onSuccess: (p) => {
        setProposal(p);
        setSelected(new Set(p.changes.map((c) => c.change_id)));
        setError(null);
      },
      onError: (err) =>
        setError({ message: errorDetailOf(err) ?? "The planner could not re-plan this task.", stale: false }),
    }),
  );
  const accept = useMutation(
    trpc.tasks.acceptReplan.mutationOptions({
      retry: false,
      onSuccess: (result) => {
        const n = result.applied.length;
        toast.success(`Re-plan applied: ${n} change${n === 1 ? "" : "s"}`);
        void refresh();
        onClose();
      },
      onError: (err) => {
        const message = errorDetailOf(err) ?? "The changes could not be applied.";
        // A conflict is a stale proposal, unless it is the refusal to leave requirements uncovered.
        const stale =
          (err as { data?: { code?: string } }).data?.code === "CONFLICT" &&
          !message.startsWith("Accepting this leaves");
        setError({ message, stale });
      },
    }),
  );
  const views = useMemo(() => (proposal ? changeViews(proposal.changes, index) : []), [proposal, index]);
  const busy = propose.isPending || accept.isPending;
  const run = () =>
    propose.mutate({ id: node.id, ...(guidance.trim() ? { guidance: guidance.trim() } : {}) });

  const actions = proposal ? (
    <>
      <button type="button" className="btn btn-ghost" onClick={onClose} disabled={busy}>
        Cancel
      </button>
      <button
        type="button"
        className="btn"
        disabled={busy}
        onClick={() => {
          setProposal(null);
          setError(null);
        }}
      >
        Back
      </button>
      {proposal.changes.length > 0 && (
        <button
          type="button"
          className="btn btn-primary"
          disabled={busy || selected.size === 0}
          onClick={() =>
            accept.mutate({
              id: node.id,
              proposal_id: proposal.proposal_id,
              change_ids: [...selected],
              ...(leaveUncovered ? { accept_uncovered: true } : {}),
            })
          }
        >
          {accept.isPending && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
          {selected.size === proposal.changes.length
            ? "Accept all changes"
            : `Accept ${selected.size} of ${proposal.changes.length} changes`}
        </button>
      )}
    </>
  ) : (
    <>
      <button type="button" className="btn btn-ghost" onClick={onClose} disabled={busy}>
        Cancel
      </button>
      <button type="submit" form={`${guidanceId}-form`} className="btn btn-primary" disabled={busy}>
        {propose.isPending && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
        {propose.isPending ? "Planning..." : "Propose a new plan"}
      </button>
    </>
  );

  return (
    <Modal
      open
      onClose={onClose}
      title={`Re-plan "${taskTitle(node.description, 60)}"`}
      size="lg"
      dismissible={!busy}
      actions={actions}
    >
      {error && (
        <div role="alert" className="alert alert-error alert-soft mb-3 text-sm">
          <div className="flex flex-col gap-2">
            <p className="break-words">{error.message}</p>
            {error.stale && (
              <button type="button" className="btn btn-sm w-fit" onClick={run} disabled={busy}>
                Re-plan again
              </button>
            )}
          </div>
        </div>
      )}
      {!proposal ? (
        <form
          id={`${guidanceId}-form`}
          className="flex flex-col gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            run();
          }}
        >
          <p className="text-sm text-base-content/80">
            The planner plans this task's subtasks again. You review the difference before anything changes;
            completed tasks, tasks you edited and exported tasks are never changed.
          </p>
          <label htmlFor={guidanceId} className="text-sm font-semibold">
            Guidance (optional)
          </label>
          <textarea
            id={guidanceId}
            className="textarea textarea-bordered w-full"
            rows={3}
            maxLength={GUIDANCE_MAX}
            placeholder='For example "split by user role", "we already have auth", "less detail"'
            value={guidance}
            onChange={(e) => setGuidance(e.target.value)}
            disabled={busy}
          />
          <p className="text-xs text-base-content/60">
            {guidance.length}/{GUIDANCE_MAX}. "Less detail" merges tasks into fewer, larger ones and keeps
            their requirements and hours. Without a language model, the planner also follows "more detail" and
            "we already have ..." / "skip ...".
          </p>
        </form>
      ) : proposal.changes.length === 0 ? (
        <p role="status" className="text-sm" data-testid="replan-nothing">
          {proposal.why_nothing ??
            `The planner proposes no changes: the plan below this task already matches what it would plan${proposal.guidance ? " with your guidance" : ""}.`}
        </p>
      ) : (
        <div className="flex flex-col gap-3" data-testid="replan-diff">
          <p role="status" className="text-sm">
            Proposed: {changeCounts(proposal.changes)}. Untick what you do not want; a change that needs
            another (a new parent) takes it along.
          </p>
          {proposal.uncovered.length > 0 && (
            // Never a silent side effect: what would be left with no task, and a choice to accept it.
            <div
              role="alert"
              className="alert alert-warning alert-soft text-sm"
              data-testid="replan-uncovered"
            >
              <div className="flex flex-col gap-2">
                <p>
                  All of it would leave {proposal.uncovered.join(", ")} with no task: the plan would no longer
                  cover {proposal.uncovered.length === 1 ? "it" : "them"}. Untick the removals that hold their
                  work, or accept that.
                </p>
                <label className="flex cursor-pointer items-center gap-2">
                  <input
                    type="checkbox"
                    className="checkbox checkbox-sm"
                    checked={leaveUncovered}
                    onChange={(e) => setLeaveUncovered(e.target.checked)}
                  />
                  Leave {proposal.uncovered.join(", ")} without a task
                </label>
              </div>
            </div>
          )}
          <ul className="flex flex-col gap-2">
            {views.map((v) => {
              const id = `${guidanceId}-${v.id}`;
              return (
                <li
                  key={v.id}
                  className={`rounded-box border p-3 ${OP_CLASS[v.op]}`}
                  data-testid="replan-change"
                  data-op={v.op}
                >
                  <div className="flex items-start gap-3">
                    <input
                      id={id}
                      type="checkbox"
                      className="checkbox checkbox-sm mt-0.5"
                      checked={selected.has(v.id)}
                      onChange={() => setSelected((s) => toggleChange(s, v.id, proposal.changes))}
                      disabled={busy}
                    />
                    <label htmlFor={id} className="min-w-0 flex-1 cursor-pointer text-sm">
                      <span className={`badge badge-sm mr-2 ${OP_BADGE[v.op]}`}>{v.verb}</span>
                      <span className="break-words font-medium">{v.title}</span>
                      {v.note && <span className="text-base-content/70"> {v.note}</span>}
                    </label>
                  </div>
                  {v.lines.length > 0 && (
                    <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 pl-8 text-xs">
                      {v.lines.map((l) => (
                        <div key={l.field} className="contents">
                          <dt className="text-base-content/60">{l.field}</dt>
                          <dd className="break-words">
                            {l.before && (
                              <>
                                <del className="text-base-content/60">{l.before}</del>{" "}
                                <span aria-hidden="true">→</span>
                                <span className="sr-only">becomes</span>{" "}
                              </>
                            )}
                            <ins className="no-underline">{l.after}</ins>
                          </dd>
                        </div>
                      ))}
                    </dl>
                  )}
                </li>
              );
            })}
          </ul>
        </div>
      )}
      {proposal && proposal.kept_locked.length > 0 && (
        <details className="mt-3 text-sm">
          <summary className="cursor-pointer">
            {proposal.kept_locked.length} locked task{proposal.kept_locked.length === 1 ? "" : "s"} kept as{" "}
            {proposal.kept_locked.length === 1 ? "it is" : "they are"}
          </summary>
          <ul className="mt-2 list-disc pl-5" data-testid="replan-kept">
            {proposal.kept_locked.map((k) => (
              <li key={k.task_id} className="break-words">
                {taskTitle(k.description, 80)}{" "}
                <span className="text-base-content/60">({lockText(k.locked)})</span>
              </li>
            ))}
          </ul>
        </details>
      )}
    </Modal>
  );
}
