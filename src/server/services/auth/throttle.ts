import { and, eq, type SQL, sql } from "drizzle-orm";
import { authThrottle as t } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";

/**
 * Failed-login limits, held in the database so they apply across every app process, and taken before a
 * password is evaluated: each attempt first reserves a slot with one atomic upsert (the row lock makes
 * parallel attempts queue), so N parallel guesses can never get more than the limit evaluated.
 *
 * Three counters per attempt (docs/decisions/008-sign-in-hardening.md):
 * - `ip:<address>`: failures from one address over all accounts (LOGIN_MAX_FAILURES_PER_IP);
 * - `acct-ip:<email>|<address>`: one account from one address (LOGIN_MAX_FAILURES_PER_ACCOUNT). Only this
 *   pair is locked, so an attacker elsewhere cannot lock the owner out;
 * - `acct:<email>`: one account over all addresses, a slower global backoff: after
 *   LOGIN_ACCOUNT_BACKOFF_AFTER failures each further try waits a doubling delay, capped at
 *   LOGIN_ACCOUNT_BACKOFF_MAX_SECONDS, so a distributed guesser gets few tries and the owner waits at most
 *   that long.
 */

export const ipKey = (ip: string) => `ip:${ip}`;
export const pairKey = (email: string, ip: string | null) => `acct-ip:${email}|${ip ?? "unknown"}`;
export const accountKey = (email: string) => `acct:${email}`;

function tooManyFailures(seconds: number): AppError {
  const minutes = Math.ceil(seconds / 60);
  return new AppError(
    "TOO_MANY_REQUESTS",
    `Too many failed login attempts. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
    { headers: { "Retry-After": String(seconds) } },
  );
}

const secs = (ms: number) => sql`make_interval(secs => ${ms / 1000})`;

/** Seconds (at least 1, by the database clock) until `until` passes. */
async function secondsUntil(deps: Pick<Deps, "db">, key: string, until: SQL): Promise<number> {
  const [row] = await deps.db
    .select({ seconds: sql<number>`greatest(1, ceil(extract(epoch from (${until} - now()))))::int` })
    .from(t)
    .where(eq(t.key, key));
  return row?.seconds ?? 1;
}

/** A reserved slot: the key and the window it was counted in (as the database's text, exact to the µs). */
type Slot = { key: string; window: string };

/**
 * Hard limit: at most `max` attempts that were not given back in a window of `windowMs`; a failure that
 * brings the count to `max` locks the key for `windowMs`, after which it starts afresh.
 */
async function reserveHard(deps: Deps, key: string, max: number, windowMs: number): Promise<Slot> {
  const stale = sql`coalesce(${t.lockedUntil}, ${t.windowStartedAt} + ${secs(windowMs)}) <= now()`;
  const [row] = await deps.db
    .insert(t)
    .values({ key, failures: 1, windowStartedAt: sql`now()`, lockedUntil: null })
    .onConflictDoUpdate({
      target: t.key,
      set: {
        failures: sql`case when ${stale} then 1 else ${t.failures} + 1 end`,
        windowStartedAt: sql`case when ${stale} then now() else ${t.windowStartedAt} end`,
        lockedUntil: sql`case when ${stale} then null else ${t.lockedUntil} end`,
      },
      setWhere: sql`${stale} or (${t.lockedUntil} is null and ${t.failures} < ${max})`,
    })
    .returning({ window: sql<string>`${t.windowStartedAt}::text` });
  if (row) return { key, window: row.window };
  // Locked, or `max` attempts are already counted (failed or still being checked).
  throw tooManyFailures(
    await secondsUntil(deps, key, sql`coalesce(${t.lockedUntil}, ${t.windowStartedAt} + ${secs(windowMs)})`),
  );
}

async function lockIfFull(deps: Deps, slot: Slot, max: number, lockMs: number): Promise<void> {
  await deps.db
    .update(t)
    .set({ lockedUntil: sql`now() + ${secs(lockMs)}` })
    .where(
      and(
        eq(t.key, slot.key),
        sql`${t.windowStartedAt} = ${slot.window}::timestamptz`,
        sql`${t.failures} >= ${max}`,
        sql`${t.lockedUntil} is null`,
      ),
    );
}

/** Gives a reservation back (the attempt succeeded or was refused elsewhere), within the window it counted in. */
async function giveBack(deps: Deps, slot: Slot, opts: { unlock?: boolean } = {}): Promise<void> {
  await deps.db
    .update(t)
    .set({
      failures: sql`greatest(${t.failures} - 1, 0)`,
      ...(opts.unlock ? { lockedUntil: null } : {}),
    })
    .where(and(eq(t.key, slot.key), sql`${t.windowStartedAt} = ${slot.window}::timestamptz`));
}

/**
 * The global per-account backoff. A try is allowed only once `locked_until` (the earliest next try) has
 * passed, and an allowed try past the threshold moves it on at once, so parallel tries from many addresses
 * get one evaluation per delay.
 */
async function reserveBackoff(deps: Deps, key: string): Promise<Slot> {
  const { LOGIN_ACCOUNT_BACKOFF_AFTER: after, LOGIN_ACCOUNT_BACKOFF_MAX_SECONDS: cap } = deps.config;
  const windowMs = deps.config.LOGIN_LOCK_MINUTES * 60_000;
  const open = sql`(${t.lockedUntil} is null or ${t.lockedUntil} <= now())`;
  const stale = sql`(${t.windowStartedAt} + ${secs(windowMs)} <= now() and ${open})`;
  const count = sql`(case when ${stale} then 1 else ${t.failures} + 1 end)`;
  // The exponent is bounded so a long window with many failures cannot overflow the double.
  const nextTry = (n: SQL) =>
    sql`case when ${n} >= ${after} then now() + make_interval(secs => least(${cap}, power(2, least(${n} - ${after}, 30)))) else null end`;
  const [row] = await deps.db
    .insert(t)
    .values({ key, failures: 1, windowStartedAt: sql`now()`, lockedUntil: nextTry(sql`1`) })
    .onConflictDoUpdate({
      target: t.key,
      set: {
        failures: count,
        windowStartedAt: sql`case when ${stale} then now() else ${t.windowStartedAt} end`,
        lockedUntil: nextTry(count),
      },
      setWhere: open,
    })
    .returning({ window: sql<string>`${t.windowStartedAt}::text` });
  if (row) return { key, window: row.window };
  throw tooManyFailures(await secondsUntil(deps, key, sql`${t.lockedUntil}`));
}

export type LoginAttempt = {
  /** The password was right: the pair starts afresh and the other reservations are given back. */
  succeeded(): Promise<void>;
  /** The password was wrong (or the account unknown): the reservations stay counted as failures. */
  failed(): Promise<void>;
  /** The attempt ended without an answer about the password (an unexpected error): give everything back. */
  abandoned(): Promise<void>;
};

/**
 * Reserves one login attempt on every counter, in order address -> pair -> account, or throws 429 with
 * Retry-After. A refusal gives back what was already reserved, so refused attempts count nowhere.
 */
export async function reserveLoginAttempt(
  deps: Deps,
  email: string,
  ip: string | null,
): Promise<LoginAttempt> {
  const windowMs = deps.config.LOGIN_LOCK_MINUTES * 60_000;
  const perIp = deps.config.LOGIN_MAX_FAILURES_PER_IP;
  const perPair = deps.config.LOGIN_MAX_FAILURES_PER_ACCOUNT;
  const reserved: Slot[] = [];
  let ipSlot: Slot | undefined;
  let pairSlot: Slot;
  let accountSlot: Slot;
  try {
    if (ip) {
      ipSlot = await reserveHard(deps, ipKey(ip), perIp, windowMs);
      reserved.push(ipSlot);
    }
    pairSlot = await reserveHard(deps, pairKey(email, ip), perPair, windowMs);
    reserved.push(pairSlot);
    accountSlot = await reserveBackoff(deps, accountKey(email));
  } catch (err) {
    for (const slot of reserved) await giveBack(deps, slot);
    throw err;
  }
  return {
    async succeeded() {
      await deps.db.delete(t).where(eq(t.key, pairSlot.key));
      if (ipSlot) await giveBack(deps, ipSlot);
      await giveBack(deps, accountSlot, { unlock: true });
    },
    async failed() {
      if (ipSlot) await lockIfFull(deps, ipSlot, perIp, windowMs);
      await lockIfFull(deps, pairSlot, perPair, windowMs);
    },
    async abandoned() {
      for (const slot of reserved) await giveBack(deps, slot);
      await giveBack(deps, accountSlot, { unlock: true });
    },
  };
}
