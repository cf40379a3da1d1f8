import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { Reading } from "../../../../shared/schemas/reading";
import type { Task } from "../../../../shared/schemas/tasks";
import { errorDetailOf, fieldErrorsOf, isNetworkError, NETWORK_ERROR_MESSAGE } from "../../../lib/api-error";
import { useAuth } from "../../../lib/auth";
import { useTaskCache } from "../../../lib/task-cache";
import { useTRPC } from "../../../lib/trpc";
import {
  type DraftErrors,
  draftErrors,
  draftOf,
  hasDraftErrors,
  isChanged,
  type ReadingDraft,
  readingInput,
  serverDraftErrors,
} from "./reading-draft";

const NO_ERRORS: DraftErrors = { items: {}, form: null };
export const PLAN_FAILED = "The project could not be planned. Please try again.";

/**
 * A project's reading and the draft a person edits (issue 38): loaded once, saved and planned with one
 * action ("Plan it"), the server's refusals placed on the items they name.
 */
export function useReadingReview(taskId: string, onPlanned: (task: Task) => void) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const cache = useTaskCache();
  const { refetchUser } = useAuth();
  const reading = useQuery(trpc.tasks.reading.queryOptions({ id: taskId }, { staleTime: Infinity }));
  const [draft, setDraft] = useState<ReadingDraft | null>(null);
  const [errors, setErrors] = useState<DraftErrors>(NO_ERRORS);
  // Neither is idempotent to repeat behind the user's back: planning uses one of the monthly allowance.
  const save = useMutation(trpc.tasks.setReading.mutationOptions({ retry: false }));
  const plan = useMutation(trpc.tasks.plan.mutationOptions({ retry: false }));

  useEffect(() => {
    if (reading.data && draft === null) setDraft(draftOf(reading.data));
  }, [reading.data, draft]);

  const edit = (change: (d: ReadingDraft) => ReadingDraft) => {
    setDraft((d) => (d ? change(d) : d));
    setErrors(NO_ERRORS);
  };

  /** Saves the draft when it changed, then plans. Whether it went through. */
  const planIt = async (): Promise<boolean> => {
    if (!draft || !reading.data || save.isPending || plan.isPending) return false;
    const found = draftErrors(draft);
    setErrors(found);
    if (hasDraftErrors(found)) return false;
    try {
      if (isChanged(draft, reading.data)) {
        const saved: Reading = await save.mutateAsync({ id: taskId, ...readingInput(draft) });
        queryClient.setQueryData(trpc.tasks.reading.queryKey({ id: taskId }), saved);
      }
      const task = await plan.mutateAsync({ id: taskId });
      queryClient.setQueryData(trpc.tasks.get.queryKey({ id: task.id }), task);
      void cache.invalidateTasks();
      void cache.invalidateLists();
      void cache.invalidateUsage();
      refetchUser().catch(() => undefined);
      onPlanned(task);
      return true;
    } catch (err) {
      const fields = fieldErrorsOf(err);
      const placed = serverDraftErrors(fields);
      const detail = errorDetailOf(err) ?? (isNetworkError(err) ? NETWORK_ERROR_MESSAGE : PLAN_FAILED);
      setErrors({ items: placed.items, form: placed.form ?? detail });
      return false;
    }
  };

  return {
    reading,
    draft,
    errors,
    edit,
    planIt,
    busy: save.isPending || plan.isPending,
  };
}
