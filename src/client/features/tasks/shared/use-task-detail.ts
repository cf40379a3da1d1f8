import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import type { Task } from "../../../../shared/schemas/tasks";
import { useTaskCache } from "../../../lib/task-cache";
import { useTRPC } from "../../../lib/trpc";
import { useTreeQueryOptions } from "./use-tree-query";

/** While the pipeline works on a task and live updates are down, look again every few seconds. */
const PROCESSING_REFETCH_MS = 5_000;

/** Only a root task is decomposed (subtasks stay `pending` until someone works on them). */
const poll =
  (live: boolean) =>
  (q: { state: { data?: { status: string; parent_id: string | null } | undefined } }): number | false => {
    const data = q.state.data;
    const decomposing =
      !!data && !data.parent_id && (data.status === "pending" || data.status === "processing");
    return !live && decomposing ? PROCESSING_REFETCH_MS : false;
  };

/** The task and its tree. `live`: the realtime subscription is connected, so no polling is needed. */
export function useTaskDetail(id: string, { live = false }: { live?: boolean } = {}) {
  const trpc = useTRPC();
  const treeOptions = useTreeQueryOptions();
  const task = useQuery(trpc.tasks.get.queryOptions({ id }, { refetchInterval: poll(live) }));
  const tree = useQuery({ ...treeOptions(id), refetchInterval: poll(live) });
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
