import { skipToken } from "@tanstack/react-query";
import { useSubscription } from "@trpc/tanstack-react-query";
import { useState } from "react";
import { UUID_PATTERN } from "../../../../shared/ids";
import type { PlanViewer } from "../../../../shared/schemas/realtime";
import { useTRPC } from "../../../lib/trpc";

/**
 * Who else has the plan open now (issue 41): the `realtime.planPresence` subscription, which counts this
 * page among them while it is open. Each person once, each of their agents apart; the caller left out.
 */
export function usePlanPresence(taskId: string, selfId: string | undefined): PlanViewer[] {
  const trpc = useTRPC();
  const [viewers, setViewers] = useState<PlanViewer[]>([]);
  useSubscription(
    trpc.realtime.planPresence.subscriptionOptions(UUID_PATTERN.test(taskId) ? { taskId } : skipToken, {
      onData: (data) => setViewers(data.viewers),
      onError: () => setViewers([]),
    }),
  );
  return viewers.filter((v) => v.user_id !== selfId || v.agent !== null);
}
