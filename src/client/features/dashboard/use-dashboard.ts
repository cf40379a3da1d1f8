import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  DASHBOARD_PAGE_SIZE,
  statsGroupOf,
  type TaskList,
  type TaskStats,
} from "../../../shared/schemas/tasks";
import { projectStatsGroup } from "../../../shared/work-state";
import { useTaskUsage } from "../../components/task-usage";
import { useToast } from "../../components/toast";
import { useTaskCache } from "../../lib/task-cache";
import { useTRPC } from "../../lib/trpc";

/** Stats stay fresh for 30 s. */
export const STATS_STALE_MS = 30_000;

export function useDashboardQueries(page: number, team: string | null = null) {
  const trpc = useTRPC();
  const list = useQuery(
    trpc.tasks.list.queryOptions(
      { page, page_size: DASHBOARD_PAGE_SIZE, top_level_only: true, ...(team ? { team } : {}) },
      { placeholderData: keepPreviousData },
    ),
  );
  const stats = useQuery(
    trpc.tasks.stats.queryOptions({ top_level_only: true }, { staleTime: STATS_STALE_MS }),
  );
  const usage = useTaskUsage();
  return { list, stats, usage };
}

/**
 * Deletion is applied optimistically to the cached lists (and stats) and rolled back on error.
 * The lists refetch once the last of several quick deletes has settled.
 */
export function useDeleteTaskOptimistic() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const cache = useTaskCache();
  const toast = useToast();
  const listKey = trpc.tasks.list.pathKey();
  const statsKey = trpc.tasks.stats.pathKey();

  return useMutation(
    trpc.tasks.delete.mutationOptions({
      onMutate: async ({ id }) => {
        await Promise.all([
          queryClient.cancelQueries({ queryKey: listKey }),
          queryClient.cancelQueries({ queryKey: statsKey }),
        ]);
        const lists = queryClient.getQueriesData<TaskList>({ queryKey: listKey });
        const stats = queryClient.getQueriesData<TaskStats>({ queryKey: statsKey });
        const removed = lists.flatMap(([, data]) => data?.tasks ?? []).find((t) => t.id === id);
        if (removed) {
          queryClient.setQueriesData<TaskList>({ queryKey: listKey }, (old) =>
            old
              ? { ...old, tasks: old.tasks.filter((t) => t.id !== id), total: Math.max(0, old.total - 1) }
              : old,
          );
          const bucket =
            removed.plan_state && removed.work_state
              ? projectStatsGroup(removed.plan_state, removed.work_state)
              : statsGroupOf(removed.status);
          queryClient.setQueriesData<TaskStats>({ queryKey: statsKey }, (old) =>
            old
              ? {
                  ...old,
                  total: Math.max(0, old.total - 1),
                  ...(bucket ? { [bucket]: Math.max(0, old[bucket] - 1) } : {}),
                }
              : old,
          );
        }
        return { lists, stats };
      },
      onError: (_err, _vars, context) => {
        for (const [key, data] of context?.lists ?? []) queryClient.setQueryData(key, data);
        for (const [key, data] of context?.stats ?? []) queryClient.setQueryData(key, data);
        toast.error("Failed to delete task");
      },
      onSuccess: (_res, { id }) => {
        cache.forgetTask(id);
        toast.success("Task deleted successfully");
      },
      onSettled: () => {
        // Only the last settling delete refetches, so an earlier refetch cannot bring back a later one.
        if (queryClient.isMutating({ mutationKey: trpc.tasks.delete.mutationKey() }) <= 1) {
          void cache.invalidateLists();
        }
      },
    }),
  );
}

/** Completing sets the status locally, then refreshes the list, tree and stats. */
export function useCompleteTask() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const cache = useTaskCache();
  const toast = useToast();
  return useMutation(
    trpc.tasks.complete.mutationOptions({
      onSuccess: (task) => {
        queryClient.setQueriesData<TaskList>({ queryKey: trpc.tasks.list.pathKey() }, (old) =>
          old
            ? {
                ...old,
                tasks: old.tasks.map((t) =>
                  t.id === task.id
                    ? { ...task, progress: t.progress, plan_state: t.plan_state, work_state: t.work_state }
                    : t,
                ),
              }
            : old,
        );
        void cache.invalidateLists();
        void cache.invalidateTasks();
      },
      onError: () => {
        toast.error("Failed to complete task");
      },
    }),
  );
}
