import { useMutation } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { EXPORT_LABELS } from "../../../../shared/schemas/integrations";
import type { TaskTreeNode } from "../../../../shared/schemas/tasks";
import { taskTitle } from "../../../../shared/task-title";
import { workStatusOf } from "../../../../shared/work-state";
import { TaskStatusBadge } from "../../../components/task-status-badge";
import { useToast } from "../../../components/toast";
import { errorDetailOf } from "../../../lib/api-error";
import { complexityBadgeClass } from "../../../lib/complexity-badge";
import { workProgressText } from "../../../lib/task-status";
import { useTRPC } from "../../../lib/trpc";
import { useCanEdit } from "../shared/plan-access";
import { formatRange } from "../shared/plan-view";
import { lockText } from "../shared/replan-view";
import { formatComplexity, type TreeIndexEntry } from "../shared/task-tree";
import { useRefreshTask } from "../shared/use-task-detail";
import { useWorkStatus } from "../shared/use-work-status";
import { ActualsEditor } from "./actuals-editor";
import { ClaimSection } from "./claim-section";
import { DependenciesSection } from "./dependencies-section";
import { EstimateEditor } from "./estimate-editor";
import { MoveSection } from "./move-section";
import { NodeEditor } from "./node-editor";
import { NotesSection } from "./notes-section";
import { WorkControls } from "./work-controls";

/** "6 h", "1.5 h", "3 days" (8-hour days from 24 hours). */
function formatHours(hours: number): string {
  if (hours >= 24) return `${Math.round((hours / 8) * 10) / 10} days`;
  return `${Math.round(hours * 10) / 10} h`;
}

const dayFormat = new Intl.DateTimeFormat("en", { month: "short", day: "numeric", timeZone: "UTC" });

/** A leaf's actuals in a line: "Took 6 h (entered); started Nov 24, done Nov 26". */
function actualText(node: TaskTreeNode): string {
  const took =
    node.actual_hours != null
      ? `Took ${formatHours(node.actual_hours)} (${node.actual_source === "person" ? "entered" : "working time from start to done"})`
      : node.status === "completed"
        ? "Not recorded"
        : "Not done yet";
  const dates = [
    node.started_at ? `started ${dayFormat.format(new Date(node.started_at))}` : null,
    node.completed_at ? `done ${dayFormat.format(new Date(node.completed_at))}` : null,
  ].filter(Boolean);
  return dates.length ? `${took}; ${dates.join(", ")}` : took;
}

/** The Subtasks tab's side panel for the selected node. */
export function SubtaskDetailPanel({
  node,
  isRoot,
  rootId,
  index,
  requirements,
  onClose,
  onAddTask,
  onDelete,
  onSelect,
  onReplan,
  askReopen = false,
}: {
  node: TaskTreeNode;
  /** Opened by R in the tree: the reopen question is asked at once. */
  askReopen?: boolean;
  isRoot: boolean;
  rootId: string;
  /** Every node of the tree, for the dependency lists and search. */
  index: ReadonlyMap<string, TreeIndexEntry>;
  onSelect: (id: string) => void;
  /** The root's stated requirements, so the ids a node covers can be shown with their words. */
  requirements: { id: string; text: string }[];
  onClose: () => void;
  onAddTask: () => void;
  onDelete: () => void;
  onReplan: () => void;
}) {
  const work = useWorkStatus();
  const canEdit = useCanEdit();
  const [editingEstimate, setEditingEstimate] = useState(false);
  const [editingActual, setEditingActual] = useState(false);
  const [editing, setEditing] = useState(false);
  const isLeaf = node.children.length === 0;
  // The editor takes the place of the details and of the button that opened it: when it closes (saved
  // or cancelled), focus goes back to that button rather than to the page's start.
  const editButtonRef = useRef<HTMLButtonElement>(null);
  const wasEditing = useRef(false);
  useEffect(() => {
    if (wasEditing.current && !editing) editButtonRef.current?.focus();
    wasEditing.current = editing;
  }, [editing]);
  return (
    // Escape closes the details (issue 40), unless it was pressed in a field, whose own editor takes it.
    <section
      aria-labelledby="subtask-detail-heading"
      className="card h-fit border border-base-300 bg-base-200 lg:sticky lg:top-20"
      onKeyDown={(event) => {
        const field = (event.target as HTMLElement).closest("input, textarea, select, [role=dialog]");
        if (event.key !== "Escape" || event.defaultPrevented || field) return;
        event.preventDefault();
        onClose();
      }}
    >
      <div className="card-body gap-4 p-4">
        <div className="flex items-start justify-between gap-2">
          <div className="min-w-0">
            <p className="text-xs uppercase tracking-wide text-base-content/60">
              {isRoot ? "Root task" : "Subtask"} details
            </p>
            <h3 id="subtask-detail-heading" className="break-words font-semibold leading-snug">
              {taskTitle(node.description, 121)}
            </h3>
          </div>
          <button
            type="button"
            className="btn btn-ghost btn-sm btn-circle shrink-0"
            aria-label="Close details"
            onClick={onClose}
          >
            <span aria-hidden="true">✕</span>
          </button>
        </div>

        {node.needs_attention && (
          <div role="status" className="alert alert-warning alert-soft text-sm">
            <div>
              <p className="font-semibold">
                <span className="badge badge-sm badge-warning mr-2">Needs attention</span>
                This subtask could not be split
              </p>
              <p className="mt-1 whitespace-pre-wrap break-words">
                {node.attention_reason ?? "No reason was recorded."}
              </p>
            </div>
          </div>
        )}

        {(node.locked ?? []).length > 0 && <LockNotice node={node} rootId={rootId} />}

        {canEdit && (
          <>
            <WorkControls
              node={node}
              busy={work.pending}
              askReopen={askReopen}
              onAction={(action) => work.run(node.id, action)}
            />
            <ClaimSection node={node} rootId={rootId} />
          </>
        )}

        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
          <dt className="text-base-content/60">Status</dt>
          <dd>
            <TaskStatusBadge status={workStatusOf(node)} screen="detail" />
            {node.children.length > 0 && node.rollup && (
              <span className="ml-2 text-base-content/70">
                {workProgressText(node.rollup.leaves_done, node.rollup.leaves_total)}
              </span>
            )}
          </dd>
          <dt className="text-base-content/60">Complexity</dt>
          <dd>
            {node.complexity_score !== null ? (
              <span className={`badge badge-sm ${complexityBadgeClass(node.complexity_score)}`}>
                {formatComplexity(node.complexity_score)}
              </span>
            ) : (
              "Not scored yet"
            )}
          </dd>
          <dt className="text-base-content/60">Story points</dt>
          <dd>{node.story_points ?? "Not estimated yet"}</dd>
          <dt className="text-base-content/60">Estimate</dt>
          <dd data-testid="node-estimate">
            {node.rollup
              ? `${formatRange(node.rollup.estimate_hours)} in all`
              : node.estimate_hours
                ? formatRange(node.estimate_hours)
                : node.estimated_hours != null
                  ? `About ${formatHours(node.estimated_hours)}`
                  : "Not estimated yet"}
            {node.estimate_source === "rule" && (
              <span
                className="badge badge-sm badge-ghost ml-2"
                title="A rule of thumb from the description (its parts, integrations, data and screens), not a judgement: adjust it when the team knows more."
              >
                estimated by rule
              </span>
            )}
            {isLeaf && !editingEstimate && (
              <button
                type="button"
                className="btn btn-ghost btn-xs ml-1"
                aria-label="Edit estimate"
                onClick={() => setEditingEstimate(true)}
              >
                Edit
              </button>
            )}
          </dd>
          {isLeaf && editingEstimate && (
            <dd className="col-span-2">
              <EstimateEditor key={node.id} node={node} onDone={() => setEditingEstimate(false)} />
            </dd>
          )}
          {isLeaf && (
            <>
              <dt className="text-base-content/60">Actual</dt>
              <dd data-testid="node-actual">
                {actualText(node)}
                {!editingActual && (
                  <button
                    type="button"
                    className="btn btn-ghost btn-xs ml-1"
                    aria-label="Edit actual hours"
                    onClick={() => setEditingActual(true)}
                  >
                    Edit
                  </button>
                )}
              </dd>
              {editingActual && (
                <dd className="col-span-2">
                  <ActualsEditor key={node.id} node={node} onDone={() => setEditingActual(false)} />
                </dd>
              )}
            </>
          )}
          {node.rollup && (
            <>
              <dt className="text-base-content/60">Progress</dt>
              <dd data-testid="node-rollup">
                {node.rollup.leaves_done} of {node.rollup.leaves_total} done, {node.rollup.story_points}{" "}
                points
              </dd>
            </>
          )}
          <dt className="text-base-content/60">Atomic</dt>
          <dd>{node.is_atomic ? "Yes" : "No"}</dd>
          <dt className="text-base-content/60">Subtasks</dt>
          <dd data-testid="node-subtasks">
            {/* A leaf's answer leaves its zero counts out: say "None", never " direct" (issue 40). */}
            {node.children.length === 0
              ? "None"
              : `${node.children.length} direct${(node.total_subtasks ?? 0) > node.children.length ? `, ${node.total_subtasks} in all` : ""}`}
          </dd>
        </dl>

        {!isRoot && (
          // A fresh search and message for each node.
          <DependenciesSection key={node.id} node={node} rootId={rootId} index={index} onSelect={onSelect} />
        )}
        {!isRoot && <MoveSection key={`move-${node.id}`} node={node} rootId={rootId} index={index} />}
        <NotesSection key={`notes-${node.id}`} taskId={node.id} />

        {editing ? (
          <NodeEditor node={node} onDone={() => setEditing(false)} />
        ) : (
          <>
            <div>
              <h4 className="text-sm font-semibold">Description</h4>
              <p className="mt-1 max-h-60 overflow-y-auto whitespace-pre-wrap break-words text-sm text-base-content/85">
                {node.description}
              </p>
            </div>

            <div>
              <h4 className="text-sm font-semibold">Implementation details</h4>
              {node.implementation_details ? (
                <p className="mt-1 max-h-60 overflow-y-auto whitespace-pre-wrap break-words text-sm text-base-content/85">
                  {node.implementation_details}
                </p>
              ) : (
                <p className="mt-1 text-sm text-base-content/60">No implementation details yet.</p>
              )}
            </div>
          </>
        )}

        {(node.remote_links ?? []).length > 0 && (
          <div>
            <h4 className="text-sm font-semibold">Exported to</h4>
            <ul className="mt-1 flex flex-col gap-1 text-sm" data-testid="remote-links">
              {(node.remote_links ?? []).map((link) => (
                <li key={`${link.kind}-${link.url}`} className="flex flex-wrap items-center gap-2">
                  <span className="badge badge-sm badge-outline">{EXPORT_LABELS[link.kind]}</span>
                  <a className="link" href={link.url} target="_blank" rel="noopener noreferrer">
                    {link.key}
                    <span className="sr-only"> (opens in a new tab)</span>
                  </a>
                  {link.status && <span className="text-base-content/60">{link.status}</span>}
                </li>
              ))}
            </ul>
          </div>
        )}

        {(node.requirement_ids ?? []).length > 0 && (
          <div>
            <h4 className="text-sm font-semibold">Requirements covered</h4>
            <ul className="mt-1 space-y-1 text-sm text-base-content/85" data-testid="node-requirements">
              {(node.requirement_ids ?? []).map((id) => (
                <li key={id} className="break-words">
                  <span className="badge badge-sm badge-outline mr-2 font-mono">{id}</span>
                  {requirements.find((r) => r.id === id)?.text ?? ""}
                </li>
              ))}
            </ul>
          </div>
        )}

        <div>
          <h4 className="text-sm font-semibold">Acceptance criteria</h4>
          {(node.acceptance_criteria ?? []).length > 0 ? (
            <ul
              className="mt-1 list-disc space-y-1 pl-5 text-sm text-base-content/85"
              data-testid="node-criteria"
            >
              {(node.acceptance_criteria ?? []).map((c) => (
                <li key={c} className="break-words">
                  {c}
                </li>
              ))}
            </ul>
          ) : (
            <p className="mt-1 text-sm text-base-content/60">No acceptance criteria yet.</p>
          )}
        </div>

        {(node.files ?? []).length > 0 && (
          <div>
            <h4 className="text-sm font-semibold">Likely files</h4>
            <ul className="mt-1 space-y-1 text-sm" data-testid="node-files">
              {(node.files ?? []).map((f) => (
                <li key={f.path} className="flex flex-wrap items-center gap-2">
                  <code className="break-all">{f.path}</code>
                  <span className="badge badge-sm badge-ghost">
                    {f.new ? "new file" : `${f.confidence} confidence`}
                  </span>
                </li>
              ))}
            </ul>
          </div>
        )}

        <div className={canEdit ? "flex flex-wrap gap-2" : "hidden"}>
          {!isRoot && !editing && (
            <button
              ref={editButtonRef}
              type="button"
              className="btn btn-sm btn-outline"
              onClick={() => setEditing(true)}
            >
              Edit Subtask
            </button>
          )}
          <button type="button" className="btn btn-sm btn-outline" onClick={onAddTask}>
            Add Task Here
          </button>
          <button type="button" className="btn btn-sm btn-outline" onClick={onReplan}>
            Re-plan...
          </button>
          {!isRoot && (
            <button type="button" className="btn btn-sm btn-error btn-outline" onClick={onDelete}>
              Delete Subtask
            </button>
          )}
        </div>
      </div>
    </section>
  );
}

/** Why a re-plan leaves this node alone, with Unlock where a person can lift it. */
function LockNotice({ node, rootId }: { node: TaskTreeNode; rootId: string }) {
  const trpc = useTRPC();
  const toast = useToast();
  const refresh = useRefreshTask(rootId);
  const unlock = useMutation(
    trpc.tasks.unlock.mutationOptions({
      retry: false,
      onSuccess: (task) => {
        toast.success("Unlocked: a re-plan may change it now");
        void refresh(task);
      },
      onError: (err) => toast.error(errorDetailOf(err) ?? "The task could not be unlocked"),
    }),
  );
  const unlockable = (node.locked ?? []).some((l) => l !== "completed");
  return (
    <div className="alert alert-soft text-sm" data-testid="lock-notice">
      <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 shrink-0" fill="currentColor">
        <path d="M6 8V6a4 4 0 1 1 8 0v2h1a1 1 0 0 1 1 1v8a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V9a1 1 0 0 1 1-1h1Zm2 0h4V6a2 2 0 1 0-4 0v2Z" />
      </svg>
      <div className="min-w-0">
        <p className="font-semibold">{lockText(node.locked ?? [])}</p>
        <p className="text-base-content/70">
          Re-plans leave it as it is.
          {(node.locked ?? []).includes("completed") && !unlockable
            ? " Reopen it to let a re-plan change it."
            : ""}
        </p>
      </div>
      {unlockable && (
        <button
          type="button"
          className="btn btn-sm"
          disabled={unlock.isPending}
          onClick={() => unlock.mutate({ id: node.id })}
        >
          Unlock
        </button>
      )}
    </div>
  );
}
