import { useMutation, useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import type { ClaimResult } from "../../../../shared/schemas/claims";
import { useToast } from "../../../components/toast";
import { errorDetailOf } from "../../../lib/api-error";
import { useAuth } from "../../../lib/auth";
import { useTaskCache } from "../../../lib/task-cache";
import { useTRPC } from "../../../lib/trpc";

/**
 * Who works on which leaf of a plan (issue 41), for the tree, the side panel and Next up. A claim past
 * its time is left out as the clock passes it. "Mine" is a claim the person made here; one their coding
 * agent made is the agent's, and is passed over like anyone else's.
 */
export function useClaims(rootId: string) {
  const trpc = useTRPC();
  const { user } = useAuth();
  const answer = useQuery(trpc.tasks.claims.queryOptions({ id: rootId }));
  return useMemo(() => {
    const now = Date.now();
    const byTask = new Map<string, ClaimResult>();
    for (const c of answer.data?.claims ?? [])
      if (Date.parse(c.claimed_until) > now) byTask.set(c.task_id, c);
    const mine = (c: ClaimResult | undefined) =>
      Boolean(c && c.claimed_by_user_id === user?.id && c.agent === null);
    return {
      byTask,
      mine,
      /** Held by someone else (or by one of the person's agents). */
      others: (id: string) => {
        const c = byTask.get(id);
        return c && !mine(c) ? c : undefined;
      },
    };
  }, [answer.data, user?.id]);
}

/** Claim a leaf for yourself, renew it, or let a claim go. */
export function useClaimActions() {
  const trpc = useTRPC();
  const cache = useTaskCache();
  const toast = useToast();
  const onError = (error: unknown) => toast.error(errorDetailOf(error) ?? "The claim could not be changed.");
  const claim = useMutation(
    trpc.agent.claim.mutationOptions({
      retry: false,
      onSuccess: () => void cache.invalidateTasks(),
      onError,
    }),
  );
  const release = useMutation(
    trpc.agent.releaseClaim.mutationOptions({
      retry: false,
      onSuccess: () => void cache.invalidateTasks(),
      onError,
    }),
  );
  return {
    pending: claim.isPending || release.isPending,
    claim: (id: string) => claim.mutate({ id }),
    release: (id: string) => release.mutate({ id }),
  };
}

/** "until 14:05": a claim's end, in the reader's time. */
export function claimTime(claim: ClaimResult): string {
  return new Date(claim.claimed_until).toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" });
}
