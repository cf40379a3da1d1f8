/** The listeners of a small store (for useSyncExternalStore): `subscribe` adds one and returns its removal. */
export function listenerSet() {
  const listeners = new Set<() => void>();
  return {
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    notify(): void {
      for (const listener of listeners) listener();
    },
  };
}
