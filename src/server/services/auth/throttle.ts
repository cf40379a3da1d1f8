import { eq, inArray, sql } from "drizzle-orm";
import { authThrottle } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";

/** Failed-login limits live in the database so they hold across every app process. */
function keys(deps: Deps, email: string, ip: string | null) {
  const list = [{ key: `acct:${email}`, max: deps.config.LOGIN_MAX_FAILURES_PER_ACCOUNT }];
  if (ip) list.push({ key: `ip:${ip}`, max: deps.config.LOGIN_MAX_FAILURES_PER_IP });
  return list;
}

export async function assertLoginAllowed(deps: Deps, email: string, ip: string | null): Promise<void> {
  const rows = await deps.db
    .select()
    .from(authThrottle)
    .where(
      inArray(
        authThrottle.key,
        keys(deps, email, ip).map((k) => k.key),
      ),
    );
  const now = Date.now();
  const lockedUntil = Math.max(0, ...rows.map((r) => r.lockedUntil?.getTime() ?? 0));
  if (lockedUntil > now) {
    const seconds = Math.ceil((lockedUntil - now) / 1000);
    const minutes = Math.ceil(seconds / 60);
    throw new AppError(
      "TOO_MANY_REQUESTS",
      `Too many failed login attempts. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
      { headers: { "Retry-After": String(seconds) } },
    );
  }
}

export async function recordLoginFailure(deps: Deps, email: string, ip: string | null): Promise<void> {
  const windowMs = deps.config.LOGIN_LOCK_MINUTES * 60_000;
  const windowStart = sql`${new Date(Date.now() - windowMs).toISOString()}::timestamptz`;
  const lockUntilDate = new Date(Date.now() + windowMs);
  const lockUntil = sql`${lockUntilDate.toISOString()}::timestamptz`;
  for (const { key, max } of keys(deps, email, ip)) {
    // Counts restart when the previous window has passed; reaching `max` locks the key for one window.
    await deps.db
      .insert(authThrottle)
      .values({ key, failures: 1, windowStartedAt: new Date(), lockedUntil: max <= 1 ? lockUntilDate : null })
      .onConflictDoUpdate({
        target: authThrottle.key,
        set: {
          failures: sql`case when ${authThrottle.windowStartedAt} < ${windowStart} then 1 else ${authThrottle.failures} + 1 end`,
          windowStartedAt: sql`case when ${authThrottle.windowStartedAt} < ${windowStart} then now() else ${authThrottle.windowStartedAt} end`,
          lockedUntil: sql`case when (case when ${authThrottle.windowStartedAt} < ${windowStart} then 1 else ${authThrottle.failures} + 1 end) >= ${max} then ${lockUntil} else ${authThrottle.lockedUntil} end`,
        },
      });
  }
}

export async function clearLoginFailures(deps: Deps, email: string): Promise<void> {
  await deps.db.delete(authThrottle).where(eq(authThrottle.key, `acct:${email}`));
}
