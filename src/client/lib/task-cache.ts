import { useQueryClient } from "@tanstack/react-query";
import { useMemo } from "react";
import {
  AGENT_PLAN_QUERIES,
  LIST_QUERIES,
  PLAN_QUERIES,
  type TasksQuery,
  USAGE_QUERIES,
} from "./plan-queries";
import { useTRPC } from "./trpc";

/**
 * The task queries a change makes stale, by family (plan-queries.ts): the dashboard list and stats, the
 * monthly usage, and everything that shows a plan (a change to one node shows in every view of its plan).
 * Mutations and live events both come here.
 */
export function useTaskCache() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMemo(() => {
    const invalidate = (names: readonly TasksQuery[]) =>
      Promise.all(
        names.map((name) => queryClient.invalidateQueries({ queryKey: trpc.tasks[name].pathKey() })),
      );
    return {
      invalidateLists: () => invalidate(LIST_QUERIES),
      invalidateUsage: () => invalidate(USAGE_QUERIES),
      invalidateTasks: () =>
        Promise.all([
          invalidate(PLAN_QUERIES),
          ...AGENT_PLAN_QUERIES.map((name) =>
            queryClient.invalidateQueries({ queryKey: trpc.agent[name].pathKey() }),
          ),
        ]),
      /** One task's own answer (its header and panel), as a live event about it names it. */
      invalidateTask: (id: string) =>
        queryClient.invalidateQueries({ queryKey: trpc.tasks.get.queryKey({ id }) }),
      /** Drops a deleted task's own queries so nothing refetches a 404. */
      forgetTask: (id: string) => {
        queryClient.removeQueries({ queryKey: trpc.tasks.get.queryKey({ id }) });
        queryClient.removeQueries({ queryKey: trpc.tasks.tree.queryKey({ id }) });
      },
    };
  }, [trpc, queryClient]);
}
