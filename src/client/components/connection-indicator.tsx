import { skipToken } from "@tanstack/react-query";
import { useSubscription } from "@trpc/tanstack-react-query";
import {
  type ConnectionState,
  connectionStateOf,
  requestReconnect,
  useRealtimeGaveUp,
  useReconnectable,
} from "../lib/realtime-connection";
import { useTRPC } from "../lib/trpc";

export type ConnectionIndicatorProps = {
  /**
   * The state of the screen's own live-update subscription. When given, the indicator shows it; when
   * absent, it runs its own `system.heartbeat` subscription as a fallback.
   */
  state?: ConnectionState;
  /** Subscribe to the heartbeat only while true (it needs a signed-in user). Default true. */
  enabled?: boolean;
  /** Heartbeat interval asked of the server (1000-60000 ms); the server's default otherwise. */
  intervalMs?: number;
  className?: string;
};

const LABEL: Record<ConnectionState, string> = {
  connected: "Connected",
  connecting: "Connecting...",
  disconnected: "Disconnected",
};

const TITLE: Record<ConnectionState, string> = {
  connected: "Live updates are connected",
  connecting: "Connecting to live updates",
  disconnected: "Live updates are not connected",
};

/**
 * The task detail page's live connection indicator (states disconnected, connecting, connected).
 * When disconnected it offers 'Reconnect', which restarts every live-update subscription.
 */
export function ConnectionIndicator({
  state,
  enabled = true,
  intervalMs,
  className = "",
}: ConnectionIndicatorProps) {
  const trpc = useTRPC();
  const gaveUp = useRealtimeGaveUp();
  const heartbeat = useSubscription(
    trpc.system.heartbeat.subscriptionOptions(
      enabled && state === undefined ? (intervalMs ? { intervalMs } : undefined) : skipToken,
    ),
  );
  const heartbeatState = connectionStateOf(heartbeat.status, gaveUp);
  useReconnectable(heartbeat.reset, state === undefined ? heartbeatState : "connected");
  const shown: ConnectionState = state ?? (enabled ? heartbeatState : "disconnected");

  return (
    <span className={`inline-flex items-center gap-1 ${className}`}>
      <span
        role="status"
        aria-live="polite"
        data-state={shown}
        className={`badge gap-2 ${shown === "connected" ? "badge-success" : shown === "connecting" ? "badge-warning" : "badge-ghost"}`}
        title={TITLE[shown]}
      >
        {shown === "connecting" ? (
          <span aria-hidden="true" className="loading loading-ring loading-xs" />
        ) : (
          <span
            aria-hidden="true"
            className={`inline-block size-2 rounded-full ${shown === "connected" ? "bg-success-content" : "bg-error"}`}
          />
        )}
        {LABEL[shown]}
      </span>
      {shown === "disconnected" && enabled && (
        <button type="button" className="btn btn-ghost btn-xs" onClick={requestReconnect}>
          Reconnect
        </button>
      )}
    </span>
  );
}
