import { AsyncLocalStorage } from "node:async_hooks";

/**
 * Whether the call in progress changes something (issue 41): every operation runs in this context
 * (operations/invoke.ts), a mutation as a write, so a plan's access check (plan/owned.ts) can refuse a
 * team's viewer every change without each service saying which of its reads are for a write. Outside an
 * operation (a WebSocket subscription, a job) it is a read.
 */
const current = new AsyncLocalStorage<{ write: boolean }>();

export function runAs<T>(write: boolean, fn: () => T): T {
  return current.run({ write }, fn);
}

export function isWrite(): boolean {
  return current.getStore()?.write ?? false;
}
