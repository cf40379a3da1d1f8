import { useMutation } from "@tanstack/react-query";
import { useId, useMemo, useState } from "react";
import type { TaskTreeNode } from "../../../../shared/schemas/tasks";
import { useToast } from "../../../components/toast";
import { errorDetailOf } from "../../../lib/api-error";
import { useTRPC } from "../../../lib/trpc";
import { titleOf } from "../shared/plan-view";
import type { TreeIndexEntry } from "../shared/task-tree";
import { useRefreshTask } from "../shared/use-task-detail";

/** Where a node may go: every node outside its own subtree, in tree order, with its depth for indenting. */
export function moveTargets(
  index: ReadonlyMap<string, TreeIndexEntry>,
  node: TaskTreeNode,
): { node: TaskTreeNode; depth: number }[] {
  const inside = new Set<string>();
  const stack = [node];
  while (stack.length) {
    const n = stack.pop()!;
    inside.add(n.id);
    stack.push(...n.children);
  }
  const depthOf = (id: string) => {
    let d = 0;
    for (let p = index.get(id)?.parent; p; p = index.get(p.id)?.parent ?? null) d++;
    return d;
  };
  const out: { node: TaskTreeNode; depth: number }[] = [];
  for (const { node: n } of index.values())
    if (!inside.has(n.id)) out.push({ node: n, depth: depthOf(n.id) });
  return out;
}

/**
 * The keyboard way to move a node: up and down among its siblings, or under another parent of the plan
 * (placed last there). The server refuses moves that break the plan's order; its message shows here.
 */
export function MoveSection({
  node,
  rootId,
  index,
}: {
  node: TaskTreeNode;
  rootId: string;
  index: ReadonlyMap<string, TreeIndexEntry>;
}) {
  const trpc = useTRPC();
  const toast = useToast();
  const refresh = useRefreshTask(rootId);
  const selectId = useId();
  const [target, setTarget] = useState("");
  const [error, setError] = useState<string | null>(null);
  const parent = index.get(node.id)?.parent ?? null;
  const siblings = parent?.children ?? [];
  const at = siblings.findIndex((s) => s.id === node.id);
  const targets = useMemo(() => moveTargets(index, node), [index, node]);
  const move = useMutation(
    trpc.tasks.move.mutationOptions({
      retry: false,
      onSuccess: () => {
        setError(null);
        setTarget("");
        toast.success("Task moved");
        void refresh();
      },
      onError: (err) => setError(errorDetailOf(err) ?? "The task could not be moved."),
    }),
  );
  if (!parent) return null;
  const to = (parentId: string, position: number) =>
    move.mutate({ id: node.id, parent_id: parentId, position });

  return (
    <div className="flex flex-col gap-2" data-testid="move">
      <h4 className="text-sm font-semibold">Move</h4>
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          className="btn btn-xs btn-outline"
          disabled={at <= 0 || move.isPending}
          onClick={() => to(parent.id, at - 1)}
        >
          Move up
        </button>
        <button
          type="button"
          className="btn btn-xs btn-outline"
          disabled={at < 0 || at >= siblings.length - 1 || move.isPending}
          onClick={() => to(parent.id, at + 1)}
        >
          Move down
        </button>
      </div>
      <div className="flex items-end gap-2">
        <div className="min-w-0 flex-1">
          <label htmlFor={selectId} className="text-xs text-base-content/70">
            Move under
          </label>
          <select
            id={selectId}
            className="select select-sm mt-1 w-full"
            value={target}
            aria-describedby={error ? `${selectId}-error` : undefined}
            onChange={(e) => {
              setTarget(e.target.value);
              setError(null);
            }}
          >
            <option value="">Choose a parent...</option>
            {targets.map(({ node: t, depth }) => (
              <option key={t.id} value={t.id} disabled={t.id === parent.id}>
                {`${"\u00a0\u00a0".repeat(depth)}${titleOf(t)}`}
              </option>
            ))}
          </select>
        </div>
        <button
          type="button"
          className="btn btn-sm"
          disabled={!target || move.isPending}
          onClick={() => to(target, index.get(target)?.node.children.length ?? 0)}
        >
          Move
        </button>
      </div>
      {error && (
        <p id={`${selectId}-error`} role="alert" className="text-sm text-error" data-testid="move-error">
          {error}
        </p>
      )}
    </div>
  );
}
