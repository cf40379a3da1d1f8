import { useEffect, useSyncExternalStore } from "react";
import { listenerSet } from "./listeners";

/**
 * Loads the signed-in side of the client (lib/app-runtime.tsx: tRPC, TanStack Query, auth) on demand.
 * Public pages render and hydrate without it; it comes when a session cookie says someone may be signed
 * in, when a signed-in route opens, or when a visitor does something that needs the API (subscribing).
 */
export type Runtime = typeof import("./app-runtime");

let loaded: Runtime | null = null;
let loading: Promise<Runtime> | null = null;
const listeners = listenerSet();

export function loadRuntime(): Promise<Runtime> {
  loading ??= import("./app-runtime").then(
    (runtime) => {
      loaded = runtime;
      runtime.start();
      listeners.notify();
      return runtime;
    },
    (err: unknown) => {
      loading = null; // a failed chunk load may be retried by the next caller
      throw err;
    },
  );
  return loading;
}

/**
 * The runtime once it is loaded (null before, and while hydrating, as on the server). `load` asks for it
 * now, e.g. because the visitor is signed in.
 */
export function useRuntime(load = false): Runtime | null {
  const runtime = useSyncExternalStore(
    listeners.subscribe,
    () => loaded,
    () => null,
  );
  useEffect(() => {
    if (load) loadRuntime().catch((err: unknown) => console.warn("[atomize] could not load the app", err));
  }, [load]);
  return runtime;
}
