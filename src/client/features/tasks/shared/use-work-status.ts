import { useMutation } from "@tanstack/react-query";
import { useToast } from "../../../components/toast";
import { errorDetailOf } from "../../../lib/api-error";
import { useTaskCache } from "../../../lib/task-cache";
import { WORK_ACTIONS, type WorkAction } from "../../../lib/task-status";
import { useTRPC } from "../../../lib/trpc";

/** Changes a leaf's work status from where it is shown (the side panel, the tree's keys). */
export function useWorkStatus() {
  const trpc = useTRPC();
  const cache = useTaskCache();
  const toast = useToast();
  const update = useMutation(
    trpc.tasks.update.mutationOptions({
      onSuccess: () => {
        void cache.invalidateTasks();
        void cache.invalidateLists();
      },
      onError: (error) => toast.error(errorDetailOf(error) ?? "The status could not be changed."),
    }),
  );
  return {
    pending: update.isPending,
    run: (id: string, action: WorkAction) =>
      update.mutate({ id, updates: { status: WORK_ACTIONS[action].status } }),
  };
}
