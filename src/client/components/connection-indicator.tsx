import { skipToken } from "@tanstack/react-query";
import { useSubscription } from "@trpc/tanstack-react-query";
import { useTRPC } from "../lib/trpc";

export type ConnectionIndicatorProps = {
  /** Subscribe only while true (the heartbeat needs a signed-in user). Default true. */
  enabled?: boolean;
  /** Heartbeat interval asked of the server (1000-60000 ms); the server's default otherwise. */
  intervalMs?: number;
  className?: string;
};

/** Spec 2 task detail: a live connection indicator, 'Connected' / 'Disconnected', fed by system.heartbeat. */
export function ConnectionIndicator({
  enabled = true,
  intervalMs,
  className = "",
}: ConnectionIndicatorProps) {
  const trpc = useTRPC();
  const subscription = useSubscription(
    trpc.system.heartbeat.subscriptionOptions(
      enabled ? (intervalMs ? { intervalMs } : undefined) : skipToken,
    ),
  );
  // "pending" is tRPC's state for a running subscription; connecting, idle and error count as down.
  const connected = subscription.status === "pending";
  return (
    <span
      role="status"
      aria-live="polite"
      className={`badge gap-2 ${connected ? "badge-success" : "badge-ghost"} ${className}`}
      title={connected ? "Live updates are connected" : "Live updates are not connected"}
    >
      <span
        aria-hidden="true"
        className={`inline-block size-2 rounded-full ${connected ? "bg-success-content" : "bg-error"}`}
      />
      {connected ? "Connected" : "Disconnected"}
    </span>
  );
}
