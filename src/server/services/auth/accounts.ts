import { eq, sql } from "drizzle-orm";
import type { AuthResponse, LoginInput, PublicUser, RegisterInput } from "../../../shared/schemas/auth";
import { loginInput, registerInput } from "../../../shared/schemas/auth";
import { burnPasswordCheck, hashPassword, verifyPassword } from "../../auth/password";
import { users } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { parseInput } from "../validation";
import { createSession, type IssuedTokens, type SessionMeta, type UserRow } from "./sessions";
import { assertLoginAllowed, clearLoginFailures, recordLoginFailure } from "./throttle";

export const INVALID_CREDENTIALS = "Incorrect email or password";

export function currentUsagePeriod(now = new Date()): string {
  return now.toISOString().slice(0, 7);
}

export function toPublicUser(u: UserRow): PublicUser {
  // The monthly counter belongs to a calendar month; a stale one reads as zero until the next write resets it.
  const used = u.usagePeriod === currentUsagePeriod() ? u.tasksCreatedThisMonth : 0;
  return {
    id: u.id,
    email: u.email,
    username: u.username,
    full_name: u.fullName,
    role: u.role,
    provider: u.provider,
    subscription_tier: u.subscriptionTier,
    subscription_status: u.subscriptionStatus,
    monthly_task_limit: u.monthlyTaskLimit,
    tasks_created_this_month: used,
    created_at: u.createdAt.toISOString(),
  };
}

export function authResponse(
  user: UserRow,
  tokens: Pick<IssuedTokens, "accessToken" | "refreshToken">,
): AuthResponse {
  return {
    access_token: tokens.accessToken,
    token_type: "bearer",
    refresh_token: tokens.refreshToken,
    user: toPublicUser(user),
  };
}

function roleFor(deps: Deps, email: string): "user" | "admin" {
  return deps.config.ADMIN_EMAILS.includes(email.toLowerCase()) ? "admin" : "user";
}

export async function findUserByEmail(deps: Pick<Deps, "db">, email: string): Promise<UserRow | undefined> {
  const [u] = await deps.db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
    .limit(1);
  return u;
}

export async function register(
  deps: Deps,
  raw: RegisterInput | unknown,
  meta: SessionMeta = {},
): Promise<{ user: UserRow; tokens: IssuedTokens }> {
  const input = parseInput(registerInput, raw);
  if (await findUserByEmail(deps, input.email)) throw new AppError("CONFLICT", "Email already registered");
  const passwordHash = await hashPassword(input.password);
  const inserted = await deps.db
    .insert(users)
    .values({
      email: input.email,
      username: input.email,
      fullName: input.full_name ?? "",
      passwordHash,
      provider: "local",
      role: roleFor(deps, input.email),
    })
    .onConflictDoNothing()
    .returning();
  const user = inserted[0];
  // A concurrent registration of the same address loses the unique index race here.
  if (!user) throw new AppError("CONFLICT", "Email already registered");
  const tokens = await createSession(deps, user.id, meta);
  deps.log.info("user registered", { userId: user.id });
  return { user, tokens };
}

export async function login(
  deps: Deps,
  raw: LoginInput | unknown,
  meta: SessionMeta = {},
): Promise<{ user: UserRow; tokens: IssuedTokens }> {
  const input = parseInput(loginInput, raw);
  const ip = meta.ip ?? null;
  await assertLoginAllowed(deps, input.email, ip);
  const user = await findUserByEmail(deps, input.email);
  if (!user?.passwordHash) {
    await burnPasswordCheck(input.password);
    await recordLoginFailure(deps, input.email, ip);
    throw new AppError("UNAUTHORIZED", INVALID_CREDENTIALS);
  }
  if (!(await verifyPassword(user.passwordHash, input.password))) {
    await recordLoginFailure(deps, input.email, ip);
    throw new AppError("UNAUTHORIZED", INVALID_CREDENTIALS);
  }
  if (user.disabled) throw new AppError("FORBIDDEN", "This account is disabled");
  await clearLoginFailures(deps, input.email);
  const promoted = await syncAdminRole(deps, user);
  const tokens = await createSession(deps, promoted.id, meta);
  return { user: promoted, tokens };
}

/** Accounts listed in ADMIN_EMAILS become admins when they next sign in. */
export async function syncAdminRole(deps: Deps, user: UserRow): Promise<UserRow> {
  if (user.role === "admin" || roleFor(deps, user.email) !== "admin") return user;
  const [updated] = await deps.db
    .update(users)
    .set({ role: "admin", updatedAt: new Date() })
    .where(eq(users.id, user.id))
    .returning();
  return updated ?? user;
}

export async function setRole(
  deps: Pick<Deps, "db">,
  email: string,
  role: "user" | "admin",
): Promise<UserRow> {
  const user = await findUserByEmail(deps, email);
  if (!user) throw new AppError("NOT_FOUND", `No account with e-mail ${email}`);
  const [updated] = await deps.db
    .update(users)
    .set({ role, updatedAt: new Date() })
    .where(eq(users.id, user.id))
    .returning();
  return updated!;
}

export const DEV_BYPASS_EMAIL = "dev@atomize.local";

/** Development-only sign-in (spec section 4): an admin on the enterprise tier, limit 1000, nothing used. */
export async function devBypass(
  deps: Deps,
  meta: SessionMeta = {},
): Promise<{ user: UserRow; tokens: IssuedTokens }> {
  if (deps.config.NODE_ENV !== "development") throw new AppError("NOT_FOUND", "Not found");
  let user = await findUserByEmail(deps, DEV_BYPASS_EMAIL);
  if (!user) {
    [user] = await deps.db
      .insert(users)
      .values({
        email: DEV_BYPASS_EMAIL,
        username: DEV_BYPASS_EMAIL,
        fullName: "Development User",
        provider: "dev",
        role: "admin",
        subscriptionTier: "enterprise",
        subscriptionStatus: "active",
        monthlyTaskLimit: 1000,
        tasksCreatedThisMonth: 0,
      })
      .returning();
  }
  const tokens = await createSession(deps, user!.id, meta);
  return { user: user!, tokens };
}
