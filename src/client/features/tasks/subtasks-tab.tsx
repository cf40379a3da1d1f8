import { useMutation } from "@tanstack/react-query";
import { useEffect, useMemo, useRef, useState } from "react";
import type { TaskTreeNode } from "../../../shared/schemas/tasks";
import { DeleteTaskModal } from "../../components/delete-task-modal";
import { EmptyState } from "../../components/empty-state";
import { useToast } from "../../components/toast";
import { errorDetailOf } from "../../lib/api-error";
import { isAwaitingDecomposition } from "../../lib/task-status";
import { deleteSubtaskConfirmation } from "../../lib/task-text";
import { useTRPC } from "../../lib/trpc";
import { ReplanDialog } from "./replan/replan-dialog";
import { useCanEdit } from "./shared/plan-access";
import { dropPlacement, expandableIds, flattenVisible, indexTree } from "./shared/task-tree";
import { claimTime, useClaims } from "./shared/use-claims";
import { useRefreshTask } from "./shared/use-task-detail";
import { useWorkStatus } from "./shared/use-work-status";
import { SubtaskDetailPanel } from "./side-panel/subtask-detail-panel";
import { AddTaskModal } from "./tree/add-task-modal";
import { TaskTreeView } from "./tree/task-tree-view";

/** Small trees open fully; big ones start with the first level showing. */
const EXPAND_ALL_UP_TO = 100;

function initialExpanded(tree: TaskTreeNode, nodeCount: number): Set<string> {
  return nodeCount <= EXPAND_ALL_UP_TO ? expandableIds(tree) : new Set([tree.id]);
}

/** Subtasks tab: the hierarchy, a detail panel for the selection, add and delete. */
export function SubtasksTab({ tree, taskId }: { tree: TaskTreeNode; taskId: string }) {
  const trpc = useTRPC();
  const toast = useToast();
  const refresh = useRefreshTask(taskId);
  const index = useMemo(() => indexTree(tree), [tree]);
  const [expanded, setExpanded] = useState<Set<string>>(() => initialExpanded(tree, index.size));
  // A node that gains its first children while the tab is open (the plan growing live) opens as it would
  // have at first sight: in a small tree, and always the project itself. One the person closed stays closed.
  const known = useRef<Set<string>>(expandableIds(tree));
  useEffect(() => {
    const now = expandableIds(tree);
    const fresh = [...now].filter((id) => !known.current.has(id));
    known.current = now;
    if (fresh.length === 0) return;
    setExpanded((prev) => {
      const next = new Set(prev);
      for (const id of fresh) if (index.size <= EXPAND_ALL_UP_TO || id === tree.id) next.add(id);
      return next;
    });
  }, [tree, index]);
  const [activeId, setActiveId] = useState<string | null>(null);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  // The row whose reopen question R asked (the details ask it, and say what it unlocks).
  const [askReopen, setAskReopen] = useState<string | null>(null);
  const work = useWorkStatus();
  const claims = useClaims(tree.id);
  const canEdit = useCanEdit();
  const treeRef = useRef<HTMLDivElement>(null);
  const [addTargetId, setAddTargetId] = useState<string | null>(null);
  const [toDelete, setToDelete] = useState<TaskTreeNode | null>(null);
  const [replanId, setReplanId] = useState<string | null>(null);
  const replanTarget = replanId ? index.get(replanId)?.node : undefined;

  const rows = useMemo(() => flattenVisible(tree, expanded), [tree, expanded]);
  const selected = selectedId ? index.get(selectedId)?.node : undefined;
  const addTarget = addTargetId ? index.get(addTargetId)?.node : undefined;

  const toggle = (id: string) =>
    setExpanded((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  // Drag and drop: the dragged node goes under the row it is dropped on (last), or before or after it
  // (the side panel's Move section is the keyboard way). The server refuses a move that breaks the order.
  const moveNode = useMutation(
    trpc.tasks.move.mutationOptions({
      retry: false,
      onSuccess: (_res, { parent_id }) => {
        toast.success("Task moved");
        setExpanded((prev) => new Set(prev).add(parent_id));
        void refresh();
      },
      onError: (err) => toast.error(errorDetailOf(err) ?? "The task could not be moved"),
    }),
  );

  // Status from JIRA, Trello and GitHub: asked for on demand (webhooks bring it on their own).
  const exported = useMemo(
    () => [...index.values()].some((e) => (e.node.remote_links ?? []).length > 0),
    [index],
  );
  const syncNow = useMutation(
    trpc.tasks.sync.mutationOptions({
      retry: false,
      onSuccess: (result) => {
        if (result.problems.length) toast.error(result.problems.join(" "));
        toast.success(
          result.changed
            ? `Synced: ${result.changed} task${result.changed === 1 ? "" : "s"} updated`
            : `Synced: all ${result.checked} exported tasks are up to date`,
        );
        void refresh();
      },
      onError: (err) => toast.error(errorDetailOf(err) ?? "The plan could not be synced"),
    }),
  );

  const removeSubtask = useMutation(
    trpc.tasks.deleteSubtask.mutationOptions({
      retry: false,
      onSuccess: (_res, { id }) => {
        toast.success("Subtask deleted successfully");
        if (selectedId === id) setSelectedId(null);
        setToDelete(null);
        void refresh();
      },
      onError: (err) => {
        toast.error(errorDetailOf(err) ?? "Failed to delete subtask");
        setToDelete(null);
      },
    }),
  );

  const openAdd = () => setAddTargetId(selected?.id ?? tree.id);
  const onlyRoot = tree.children.length === 0;

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-base-content/70">
          {index.size - 1} {index.size - 1 === 1 ? "subtask" : "subtasks"}
          {!onlyRoot && ` · ${rows.length} shown`}
        </p>
        <div className="flex flex-wrap gap-2">
          {!onlyRoot && (
            <>
              <button type="button" className="btn btn-sm" onClick={() => setExpanded(expandableIds(tree))}>
                Expand All
              </button>
              <button type="button" className="btn btn-sm" onClick={() => setExpanded(new Set())}>
                Collapse All
              </button>
            </>
          )}
          {exported && (
            <button
              type="button"
              className="btn btn-sm"
              disabled={syncNow.isPending}
              onClick={() => syncNow.mutate({ id: tree.id })}
            >
              {syncNow.isPending && (
                <span className="loading loading-spinner loading-xs" aria-hidden="true" />
              )}
              Sync now
            </button>
          )}
          {!onlyRoot && canEdit && (
            <button type="button" className="btn btn-sm" onClick={() => setReplanId(selected?.id ?? tree.id)}>
              Re-plan...
            </button>
          )}
          {canEdit && (
            <button type="button" className="btn btn-sm btn-primary" onClick={openAdd}>
              Add Task to Tree
            </button>
          )}
        </div>
      </div>

      {onlyRoot ? (
        <EmptyState
          title="No Subtasks"
          actions={
            <button type="button" className="btn btn-sm btn-outline" onClick={openAdd}>
              Add a Subtask
            </button>
          }
        >
          {isAwaitingDecomposition(tree.status)
            ? "Decomposition has not run yet. Subtasks appear here once the AI has broken the task down; you can also add them yourself."
            : "This task has no subtasks. Add one to break it down further."}
        </EmptyState>
      ) : (
        <div
          className={`grid gap-4 ${selected ? "lg:grid-cols-[minmax(0,1fr)_22rem]" : ""}`}
          data-testid="task-hierarchy"
        >
          <div className="min-w-0">
            <TaskTreeView
              ref={treeRef}
              onDropOnto={(dragged, target, where) => {
                const placement = dropPlacement(index, dragged, target, where);
                if (placement) moveNode.mutate({ id: dragged, ...placement });
              }}
              rows={rows}
              activeId={activeId}
              selectedId={selected?.id ?? null}
              onActiveChange={setActiveId}
              onSelect={(id) => {
                setSelectedId(id);
                setAskReopen(null);
              }}
              onToggle={toggle}
              label="Task hierarchy"
              idPrefix="tree"
              claimOf={(id) => {
                const c = claims.byTask.get(id);
                if (!c) return undefined;
                return `${claims.mine(c) ? "You hold it" : `Held by ${c.claimed_by}`} until ${claimTime(c)}`;
              }}
              onWorkKey={
                !canEdit
                  ? undefined
                  : (id, action) => {
                      // Reopening asks first, in the details, and says what it unlocks.
                      if (action === "reopen") {
                        setSelectedId(id);
                        setAskReopen(id);
                      } else work.run(id, action);
                    }
              }
            />
            <p className="mt-2 text-xs text-base-content/60">
              Use the arrow keys to move, Right and Left to expand and collapse, Enter to open details; on a
              task, S starts it, D marks it done and R reopens it.
            </p>
          </div>
          {selected && (
            // On a phone the details open as a sheet over the tree's foot, not below its fold (issue 40).
            <div
              className="max-lg:fixed max-lg:inset-x-0 max-lg:bottom-0 max-lg:z-40 max-lg:max-h-[70vh] max-lg:overflow-y-auto max-lg:rounded-t-box max-lg:shadow-2xl"
              data-testid="details-sheet"
            >
              <SubtaskDetailPanel
                key={`${selected.id}${askReopen === selected.id ? ":reopen" : ""}`}
                askReopen={askReopen === selected.id}
                node={selected}
                isRoot={selected.id === tree.id}
                rootId={tree.id}
                index={index}
                onSelect={setSelectedId}
                requirements={tree.stated_scope?.requirements ?? []}
                onClose={() => {
                  setSelectedId(null);
                  // Back to the tree, on the row that was open.
                  treeRef.current?.focus();
                }}
                onAddTask={() => setAddTargetId(selected.id)}
                onDelete={() => setToDelete(selected)}
                onReplan={() => setReplanId(selected.id)}
              />
            </div>
          )}
        </div>
      )}

      {addTarget && (
        <AddTaskModal
          open
          target={addTarget}
          targetIsRoot={addTarget.id === tree.id}
          onClose={() => setAddTargetId(null)}
          onAdded={(_task, position) => {
            if (position === "child") setExpanded((prev) => new Set(prev).add(addTarget.id));
            void refresh();
          }}
        />
      )}

      {replanTarget && (
        <ReplanDialog
          key={replanTarget.id}
          node={replanTarget}
          rootId={tree.id}
          index={index}
          onClose={() => setReplanId(null)}
        />
      )}

      <DeleteTaskModal
        open={toDelete !== null}
        title="Delete Subtask"
        message={
          toDelete ? deleteSubtaskConfirmation(toDelete.description, toDelete.total_subtasks ?? 0) : ""
        }
        pending={removeSubtask.isPending}
        onClose={() => setToDelete(null)}
        onConfirm={() => {
          if (toDelete) removeSubtask.mutate({ id: toDelete.id });
        }}
      />
    </div>
  );
}
