import { setTimeout as sleep } from "node:timers/promises";

export type WaitOptions = {
  /** Give up after this long (default 10 s). */
  timeoutMs?: number;
  /** Pause between two probes (default 50 ms). */
  intervalMs?: number;
  /** What was awaited, for the error on timeout; a function is asked only then (to show the last state). */
  message?: string | (() => string);
};

type Truthy<T> = Exclude<T, false | 0 | "" | null | undefined>;

/**
 * Calls `probe` until it returns a truthy value and returns that value; throws once `timeoutMs` has
 * passed without one. The one polling helper of the test suites: a probe that throws fails the wait at
 * once (catch inside the probe what only means "not yet").
 */
export async function waitUntil<T>(probe: () => T | Promise<T>, opts: WaitOptions = {}): Promise<Truthy<T>> {
  const { timeoutMs = 10_000, intervalMs = 50, message = "condition" } = opts;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value as Truthy<T>;
    if (Date.now() >= deadline) {
      throw new Error(`${typeof message === "function" ? message() : message}: not within ${timeoutMs} ms`);
    }
    await sleep(intervalMs);
  }
}
