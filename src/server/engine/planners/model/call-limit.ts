/**
 * Holds a provider's model calls to its concurrency (decision 026). A gate wraps the HTTP call alone:
 * the prompt is built before a call takes its slot and the answer is read after it gives it back, so a
 * slot is never held by our own work and the next call goes out as soon as one comes back.
 */
export type CallGate = <T>(signal: AbortSignal | undefined, call: () => Promise<T>) => Promise<T>;

/** No limit (a planner used on its own, as the eval does). */
export const ungated: CallGate = (_signal, call) => call();

/**
 * At most `limit` calls through this gate at once in this process; later calls wait their turn, in
 * order. A call whose job is cancelled while it waits leaves the line at once.
 */
export function callLimit(limit: number): CallGate {
  let active = 0;
  const waiting: (() => void)[] = [];
  function acquire(signal: AbortSignal | undefined): Promise<void> {
    signal?.throwIfAborted();
    if (active < limit) {
      active++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        waiting.splice(waiting.indexOf(turn), 1);
        reject(signal!.reason);
      };
      // A finishing call hands its slot over directly, so a newcomer cannot take it first.
      const turn = () => {
        signal?.removeEventListener("abort", onAbort);
        active++;
        resolve();
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      waiting.push(turn);
    });
  }
  return async (signal, call) => {
    await acquire(signal);
    try {
      return await call();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}
