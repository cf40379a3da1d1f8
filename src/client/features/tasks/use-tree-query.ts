import { useCallback } from "react";
import { expandTree } from "../../../shared/tree-compact";
import { useTRPC, useTRPCClient } from "../../lib/trpc";

/**
 * Query options for a task's tree: cached under the tree's own key (so live updates and invalidations
 * find it), fetched in the compact shape and expanded here to exactly the tree answer (issue 32: about a
 * third of the bytes on large plans; shared/tree-compact.ts).
 */
export function useTreeQueryOptions() {
  const trpc = useTRPC();
  const client = useTRPCClient();
  return useCallback(
    (id: string) => ({
      ...trpc.tasks.tree.queryOptions({ id }),
      queryFn: async ({ signal }: { signal?: AbortSignal }) =>
        expandTree(await client.tasks.treeCompact.query({ id }, { signal })),
    }),
    [trpc, client],
  );
}
