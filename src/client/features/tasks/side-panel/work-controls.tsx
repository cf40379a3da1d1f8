import { useId, useState } from "react";
import type { TaskTreeNode } from "../../../../shared/schemas/tasks";
import { reopenText, WORK_ACTIONS, type WorkAction, workActions } from "../../../lib/task-status";

/**
 * A leaf's work where it is (issue 40): Start, Done and Reopen, each with its key in the tree (S, D, R).
 * Reopening says first what it unlocks, and asks.
 */
export function WorkControls({
  node,
  busy,
  askReopen = false,
  onAction,
}: {
  node: TaskTreeNode;
  busy: boolean;
  /** Ask at once (R in the tree). */
  askReopen?: boolean;
  onAction: (action: WorkAction) => void;
}) {
  const [confirming, setConfirming] = useState(askReopen && workActions(node).includes("reopen"));
  const explainId = useId();
  const actions = workActions(node);
  if (actions.length === 0) return null;
  if (confirming) {
    return (
      <fieldset className="rounded-box border border-warning/40 bg-warning/10 p-3 text-sm">
        <legend className="float-left w-full font-medium">Reopen this task?</legend>
        <p id={explainId} className="mt-1 text-base-content/80">
          {reopenText(node)}
        </p>
        <div className="mt-2 flex gap-2">
          <button
            type="button"
            className="btn btn-sm btn-warning"
            aria-describedby={explainId}
            disabled={busy}
            onClick={() => {
              setConfirming(false);
              onAction("reopen");
            }}
          >
            Reopen
          </button>
          <button type="button" className="btn btn-sm btn-ghost" onClick={() => setConfirming(false)}>
            Keep it as it is
          </button>
        </div>
      </fieldset>
    );
  }
  return (
    <fieldset className="flex flex-wrap gap-2">
      <legend className="sr-only">Work on this task</legend>
      {actions.map((action) => (
        <button
          key={action}
          type="button"
          className={`btn btn-sm ${action === "done" ? "btn-success" : "btn-outline"}`}
          aria-keyshortcuts={WORK_ACTIONS[action].key.toUpperCase()}
          title={`${WORK_ACTIONS[action].label} (${WORK_ACTIONS[action].key.toUpperCase()} in the tree)`}
          disabled={busy}
          onClick={() => (action === "reopen" ? setConfirming(true) : onAction(action))}
        >
          {WORK_ACTIONS[action].label}
        </button>
      ))}
    </fieldset>
  );
}
