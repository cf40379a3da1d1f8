import { useEffect, useRef, useSyncExternalStore } from "react";
import { listenerSet } from "./listeners";

/** Global channel reconnect: up to 5 attempts, the delay doubling from 1 s, capped at 30 s. */
export const RECONNECT_ATTEMPTS = 5;
export const RECONNECT_FIRST_DELAY_MS = 1_000;
export const RECONNECT_MAX_DELAY_MS = 30_000;

/** The wait before reconnect attempt `attemptIndex` (0-based): 1 s, 2 s, 4 s, 8 s, 16 s, then 30 s at most. */
export function reconnectDelayMs(attemptIndex: number): number {
  return Math.min(RECONNECT_FIRST_DELAY_MS * 2 ** Math.max(0, attemptIndex), RECONNECT_MAX_DELAY_MS);
}

export type ConnectionState = "connecting" | "connected" | "disconnected";

/**
 * Connection states from a tRPC subscription's status: `pending` is a running subscription,
 * `connecting` is (re)connecting, and `idle` / `error` are down. After the last reconnect attempt the
 * socket is closed for good (until asked again), which the subscription cannot see: `gaveUp` says so.
 */
export function connectionStateOf(
  status: "idle" | "connecting" | "pending" | "error",
  gaveUp = false,
): ConnectionState {
  if (status === "pending") return "connected";
  if (status === "connecting" && !gaveUp) return "connecting";
  return "disconnected";
}

// -- a tiny store: "the socket gave up reconnecting", and "please reconnect" requests -----------------
let gaveUp = false;
const listeners = listenerSet();
const reconnectors = new Set<() => void>();

export function setRealtimeGaveUp(value: boolean): void {
  if (gaveUp === value) return;
  gaveUp = value;
  listeners.notify();
}

/** True once the shared socket stopped retrying (5 failed attempts). */
export function useRealtimeGaveUp(): boolean {
  return useSyncExternalStore(
    listeners.subscribe,
    () => gaveUp,
    () => false,
  );
}

/** Registers a subscription's restart (its `reset`); `requestReconnect()` runs them all. */
export function onReconnectRequest(restart: () => void): () => void {
  reconnectors.add(restart);
  return () => {
    reconnectors.delete(restart);
  };
}

/** Restarts every live-update subscription (after the socket gave up, or when the browser is back online). */
export function requestReconnect(): void {
  setRealtimeGaveUp(false);
  for (const restart of [...reconnectors]) restart();
}

/**
 * Lets `requestReconnect()` restart this subscription, and restarts it when the browser comes back
 * online while it is down. `reset` is useSubscription's.
 */
export function useReconnectable(reset: () => void, state: ConnectionState): void {
  const resetRef = useRef(reset);
  resetRef.current = reset;
  const stateRef = useRef(state);
  stateRef.current = state;
  useEffect(() => {
    const unregister = onReconnectRequest(() => resetRef.current());
    const online = () => {
      if (stateRef.current === "disconnected") requestReconnect();
    };
    window.addEventListener("online", online);
    return () => {
      unregister();
      window.removeEventListener("online", online);
    };
  }, []);
}
