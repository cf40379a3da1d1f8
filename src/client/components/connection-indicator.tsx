import { type ConnectionState, requestReconnect } from "../lib/realtime-connection";

export type ConnectionIndicatorProps = {
  /**
   * The state of the screen's own live-update subscription. The indicator shows it and runs no
   * subscription of its own: the socket's liveness is tRPC's keepAlive (TRPC_KEEPALIVE), which a
   * subscription's state already reflects.
   */
  state: ConnectionState;
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
export function ConnectionIndicator({ state: shown, className = "" }: ConnectionIndicatorProps) {
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
      {shown === "disconnected" && (
        <button type="button" className="btn btn-ghost btn-xs" onClick={requestReconnect}>
          Reconnect
        </button>
      )}
    </span>
  );
}
