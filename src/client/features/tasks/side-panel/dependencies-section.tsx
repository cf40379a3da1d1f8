import { useMutation } from "@tanstack/react-query";
import { useId, useMemo, useState } from "react";
import type { TaskTreeNode } from "../../../../shared/schemas/tasks";
import { errorDetailOf } from "../../../lib/api-error";
import { useTRPC } from "../../../lib/trpc";
import { blockedTasks, dependencyCandidates, titleOf } from "../shared/plan-view";
import type { TreeIndexEntry } from "../shared/task-tree";
import { useRefreshTask } from "../shared/use-task-detail";

/**
 * A node's place in the order, in the side panel: what it waits for ("Blocked by", with add and remove)
 * and what waits for it ("Blocks"). The server checks every new dependency and names a cycle; its message
 * shows here, next to the search.
 */
export function DependenciesSection({
  node,
  rootId,
  index,
  onSelect,
}: {
  node: TaskTreeNode;
  rootId: string;
  index: ReadonlyMap<string, TreeIndexEntry>;
  onSelect?: (id: string) => void;
}) {
  const trpc = useTRPC();
  const refresh = useRefreshTask(rootId);
  const [query, setQuery] = useState("");
  const [error, setError] = useState<string | null>(null);
  const searchId = useId();
  const candidates = useMemo(() => dependencyCandidates(index, node, query), [index, node, query]);
  const blocks = useMemo(() => blockedTasks(index, node.id), [index, node.id]);

  const add = useMutation(
    trpc.tasks.addDependency.mutationOptions({
      retry: false,
      onSuccess: () => {
        setQuery("");
        setError(null);
        void refresh();
      },
      onError: (err) => setError(errorDetailOf(err) ?? "The dependency could not be added."),
    }),
  );
  const remove = useMutation(
    trpc.tasks.removeDependency.mutationOptions({
      retry: false,
      onSuccess: () => {
        setError(null);
        void refresh();
      },
      onError: (err) => setError(errorDetailOf(err) ?? "The dependency could not be removed."),
    }),
  );
  const nameOf = (id: string) => {
    const other = index.get(id)?.node;
    return other ? titleOf(other) : "A task no longer in the plan";
  };
  const link = (id: string) =>
    onSelect ? (
      <button type="button" className="link link-hover text-left" onClick={() => onSelect(id)}>
        {nameOf(id)}
      </button>
    ) : (
      <span>{nameOf(id)}</span>
    );

  return (
    <div className="flex flex-col gap-3" data-testid="dependencies">
      <div>
        <h4 className="text-sm font-semibold">Blocked by</h4>
        {node.depends_on.length === 0 ? (
          <p className="mt-1 text-sm text-base-content/60">
            Nothing: it can start once its parent's work can.
          </p>
        ) : (
          <ul className="mt-1 flex flex-col gap-1 text-sm" data-testid="blocked-by">
            {node.depends_on.map((id) => (
              <li key={id} className="flex items-start justify-between gap-2">
                <span className="min-w-0 break-words">{link(id)}</span>
                <button
                  type="button"
                  className="btn btn-ghost btn-xs"
                  aria-label={`Remove dependency on ${nameOf(id)}`}
                  disabled={remove.isPending}
                  onClick={() => remove.mutate({ id: node.id, depends_on_id: id })}
                >
                  <span aria-hidden="true">✕</span>
                </button>
              </li>
            ))}
          </ul>
        )}
        <div className="mt-2">
          <label htmlFor={searchId} className="text-xs text-base-content/70">
            Add a task it waits for
          </label>
          <input
            id={searchId}
            type="search"
            className="input input-sm mt-1 w-full"
            placeholder="Search by title"
            value={query}
            autoComplete="off"
            aria-describedby={error ? `${searchId}-error` : undefined}
            onChange={(e) => {
              setQuery(e.target.value);
              setError(null);
            }}
          />
          {query.trim() !== "" && (
            <ul
              className="mt-1 flex flex-col gap-1"
              aria-label="Matching tasks"
              data-testid="dependency-candidates"
            >
              {candidates.length === 0 ? (
                <li className="text-sm text-base-content/60">No other task of this plan matches.</li>
              ) : (
                candidates.map((c) => (
                  <li key={c.id}>
                    <button
                      type="button"
                      className="btn btn-ghost btn-sm h-auto min-h-8 w-full justify-start whitespace-normal py-1 text-left font-normal"
                      disabled={add.isPending}
                      onClick={() => add.mutate({ id: node.id, depends_on: c.id })}
                    >
                      {titleOf(c)}
                    </button>
                  </li>
                ))
              )}
            </ul>
          )}
          {error && (
            <p
              id={`${searchId}-error`}
              role="alert"
              className="mt-1 text-sm text-error"
              data-testid="dependency-error"
            >
              {error}
            </p>
          )}
        </div>
      </div>
      <div>
        <h4 className="text-sm font-semibold">Blocks</h4>
        {blocks.length === 0 ? (
          <p className="mt-1 text-sm text-base-content/60">Nothing waits for it.</p>
        ) : (
          <ul className="mt-1 flex flex-col gap-1 text-sm" data-testid="blocks">
            {blocks.map((b) => (
              <li key={b.id} className="break-words">
                {link(b.id)}
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
