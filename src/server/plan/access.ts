import { AsyncLocalStorage } from "node:async_hooks";

/** Who a call acts for, as the plan's activity names them: the person, and the agent (its token's name). */
export type Actor = { userId: string; name: string; agent: string | null };

/**
 * What the call in progress is (issue 41): every operation runs in this context (operations/invoke.ts).
 * - `write`: a mutation changes something, so a plan's access check (plan/owned.ts) can refuse a team's
 *   viewer every change without each service saying which of its reads are for a write.
 * - `actor`: who the plan's activity (services/tasks/activity.ts) names for what the call does, without
 *   each service passing it down.
 * Outside an operation (a WebSocket subscription, a job) it is a read with no actor.
 */
const current = new AsyncLocalStorage<{ write: boolean; actor: Actor | null }>();

export function runAs<T>(write: boolean, actor: Actor | null, fn: () => T): T {
  return current.run({ write, actor }, fn);
}

export function isWrite(): boolean {
  return current.getStore()?.write ?? false;
}

export function currentActor(): Actor | null {
  return current.getStore()?.actor ?? null;
}

/** The actor of a signed-in caller: their name, and the token's when an agent or a script calls. */
export function actorOf(
  user: { id: string; fullName: string; username: string } | null,
  apiToken: { name: string } | null,
): Actor | null {
  if (!user) return null;
  return { userId: user.id, name: user.fullName.trim() || user.username, agent: apiToken?.name ?? null };
}
