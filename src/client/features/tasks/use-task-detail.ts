import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import type { Task } from "../../../shared/schemas/tasks";
import { useTaskCache } from "../../lib/task-cache";
import { useTRPC } from "../../lib/trpc";

/** While the pipeline works on a task, look again every few seconds (live events come later). */
const PROCESSING_REFETCH_MS = 5_000;

export function useTaskDetail(id: string) {
  const trpc = useTRPC();
  const task = useQuery(
    trpc.tasks.get.queryOptions(
      { id },
      { refetchInterval: (q) => (q.state.data?.status === "processing" ? PROCESSING_REFETCH_MS : false) },
    ),
  );
  const tree = useQuery(
    trpc.tasks.tree.queryOptions(
      { id },
      { refetchInterval: (q) => (q.state.data?.status === "processing" ? PROCESSING_REFETCH_MS : false) },
    ),
  );
  return { task, tree };
}

/** After a change to this task or its tree: the task, every tree, and the dashboard lists. */
export function useRefreshTask(id: string) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const cache = useTaskCache();
  return useCallback(
    async (changed?: Task) => {
      if (changed && changed.id === id) queryClient.setQueryData(trpc.tasks.get.queryKey({ id }), changed);
      await Promise.all([cache.invalidateTasks(), cache.invalidateLists()]);
    },
    [id, trpc, queryClient, cache],
  );
}
