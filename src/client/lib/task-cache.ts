import { useQueryClient } from "@tanstack/react-query";
import { useMemo } from "react";
import { useTRPC } from "./trpc";

/**
 * The task queries a change makes stale, in one place: the dashboard list and stats, the monthly usage,
 * and single tasks, trees and schedules (a change to one node shows in every tree that holds it).
 */
export function useTaskCache() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMemo(
    () => ({
      invalidateLists: () =>
        Promise.all([
          queryClient.invalidateQueries({ queryKey: trpc.tasks.list.pathKey() }),
          queryClient.invalidateQueries({ queryKey: trpc.tasks.stats.pathKey() }),
        ]),
      invalidateUsage: () => queryClient.invalidateQueries({ queryKey: trpc.tasks.usage.pathKey() }),
      invalidateTasks: () =>
        Promise.all([
          queryClient.invalidateQueries({ queryKey: trpc.tasks.get.pathKey() }),
          queryClient.invalidateQueries({ queryKey: trpc.tasks.tree.pathKey() }),
          queryClient.invalidateQueries({ queryKey: trpc.tasks.schedule.pathKey() }),
          queryClient.invalidateQueries({ queryKey: trpc.tasks.revisions.pathKey() }),
          queryClient.invalidateQueries({ queryKey: trpc.tasks.trackerChanges.pathKey() }),
          queryClient.invalidateQueries({ queryKey: trpc.tasks.requirements.pathKey() }),
        ]),
      /** Drops a deleted task's own queries so nothing refetches a 404. */
      forgetTask: (id: string) => {
        queryClient.removeQueries({ queryKey: trpc.tasks.get.queryKey({ id }) });
        queryClient.removeQueries({ queryKey: trpc.tasks.tree.queryKey({ id }) });
      },
    }),
    [trpc, queryClient],
  );
}
