import { eq, sql } from "drizzle-orm";
import { users } from "../../db/schema/index";
import type { Deps } from "../../deps";
import type { UserRow } from "./sessions";

export const INVALID_CREDENTIALS = "Incorrect email or password";

export function currentUsagePeriod(now = new Date()): string {
  return now.toISOString().slice(0, 7);
}

export const HOUR_MS = 60 * 60_000;

/** ADMIN_EMAILS names addresses, so it applies only to an account that has proven it owns its address. */
function listedAdmin(deps: Deps, user: Pick<UserRow, "email" | "emailVerifiedAt">): boolean {
  return user.emailVerifiedAt !== null && deps.config.ADMIN_EMAILS.includes(user.email.toLowerCase());
}

export async function findUserByEmail(deps: Pick<Deps, "db">, email: string): Promise<UserRow | undefined> {
  const [u] = await deps.db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
    .limit(1);
  return u;
}

/** Accounts listed in ADMIN_EMAILS become admins once their address is verified (at verification or sign-in). */
export async function syncAdminRole(deps: Deps, user: UserRow): Promise<UserRow> {
  if (user.role === "admin" || !listedAdmin(deps, user)) return user;
  const [updated] = await deps.db
    .update(users)
    .set({ role: "admin", updatedAt: new Date() })
    .where(eq(users.id, user.id))
    .returning();
  return updated ?? user;
}

export const RESENDS_PER_HOUR = 5;

/**
 * Refresh-token rotation behind a per-address limit: a refresh needs no password, but each one writes a
 * session secret and a token, so one address gets REFRESH_PER_IP_FACTOR times the anonymous-write budget
 * (many users can share an office's address; a browser refreshes only after a 401).
 */
export const REFRESH_PER_IP_FACTOR = 10;

export const DEV_BYPASS_EMAIL = "dev@atomize.local";
