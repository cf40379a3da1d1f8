import { useCallback } from "react";
import { type CompactTree, expandTree } from "../../../../shared/tree-compact";
import { useTRPC } from "../../../lib/trpc";
import { getApiJson } from "../../../lib/trpc-client";

/**
 * Query options for a task's tree: cached under the tree's own key (so live updates and invalidations
 * find it), fetched in the compact shape and expanded here to exactly the tree answer (issue 32: about a
 * third of the bytes on large plans; shared/tree-compact.ts). It is read over REST, where the answer has
 * an entity tag (issue 39): a refetch of a plan that has not changed is a 304 the browser answers from
 * its own copy, with no body sent and nothing built on the server.
 */
export function useTreeQueryOptions() {
  const trpc = useTRPC();
  return useCallback(
    (id: string) => ({
      ...trpc.tasks.tree.queryOptions({ id }),
      queryFn: async ({ signal }: { signal?: AbortSignal }) =>
        expandTree(
          await getApiJson<CompactTree>(`/api/tasks/${encodeURIComponent(id)}/tree/compact`, signal),
        ),
    }),
    [trpc],
  );
}
