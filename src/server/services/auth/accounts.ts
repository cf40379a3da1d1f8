import { and, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import type {
  AuthResponse,
  loginInput,
  PublicUser,
  registerInput,
  verifyEmailInput,
} from "../../../shared/schemas/auth";
import { users } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { burnPasswordCheck, hashPassword, verifyPassword } from "../../lib/password";
import {
  checkVerificationToken,
  EMAIL_ALREADY_VERIFIED,
  EMAIL_VERIFIED,
  sendVerificationEmail,
  VERIFICATION_INVALID,
  VERIFICATION_SENT,
  verificationTokenUserId,
} from "./email-verification";
import { consumeRateLimit, perAddress } from "./rate-limit";
import {
  createSession,
  type IssuedTokens,
  rotateRefreshToken,
  type SessionMeta,
  type UserRow,
} from "./sessions";
import { reserveLoginAttempt } from "./throttle";

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
    email_verified: u.emailVerifiedAt !== null,
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

const HOUR_MS = 60 * 60_000;

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

/**
 * Creates a local account and signs it in (spec: registration logs the user in), then mails a verification
 * link. Limited per address before the password is hashed, so a flood of registrations cannot take the
 * CPU from sign-ins; the limit also makes probing which addresses have accounts (the 409) slow.
 */
export async function register(
  deps: Deps,
  input: z.output<typeof registerInput>,
  meta: SessionMeta = {},
): Promise<{ user: UserRow; tokens: IssuedTokens }> {
  await consumeRateLimit(
    deps,
    {
      key: perAddress("register", meta.ip),
      max: deps.config.REGISTRATIONS_PER_IP_PER_HOUR,
      windowMs: HOUR_MS,
    },
    "Too many accounts were created from your network. Please try again later.",
  );
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
      // Even an address in ADMIN_EMAILS starts as a user: the role follows the verification link.
      role: "user",
    })
    .onConflictDoNothing()
    .returning();
  const user = inserted[0];
  // A concurrent registration of the same address loses the unique index race here.
  if (!user) throw new AppError("CONFLICT", "Email already registered");
  const tokens = await createSession(deps, user.id, meta);
  await sendVerificationEmail(deps, user);
  deps.log.info("user registered", { userId: user.id });
  return { user, tokens };
}

export async function login(
  deps: Deps,
  input: z.output<typeof loginInput>,
  meta: SessionMeta = {},
): Promise<{ user: UserRow; tokens: IssuedTokens }> {
  // Reserved before the password is evaluated: parallel guesses cannot outrun the limits (throttle.ts).
  const attempt = await reserveLoginAttempt(deps, input.email, meta.ip ?? null);
  let user: UserRow | undefined;
  try {
    user = await findUserByEmail(deps, input.email);
    const ok = user?.passwordHash
      ? await verifyPassword(user.passwordHash, input.password)
      : await burnPasswordCheck(input.password).then(() => false);
    if (!ok) user = undefined;
  } catch (err) {
    await attempt.abandoned();
    throw err;
  }
  if (!user) {
    await attempt.failed();
    throw new AppError("UNAUTHORIZED", INVALID_CREDENTIALS);
  }
  await attempt.succeeded();
  if (user.disabled) throw new AppError("FORBIDDEN", "This account is disabled");
  const promoted = await syncAdminRole(deps, user);
  const tokens = await createSession(deps, promoted.id, meta);
  return { user: promoted, tokens };
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

/** Follows a verification link: marks the address verified and applies ADMIN_EMAILS at once. */
export async function verifyEmail(
  deps: Deps,
  { token }: z.output<typeof verifyEmailInput>,
): Promise<{ user: UserRow; detail: string }> {
  const userId = verificationTokenUserId(token);
  if (!userId) throw new AppError("BAD_REQUEST", VERIFICATION_INVALID);
  const [user] = await deps.db.select().from(users).where(eq(users.id, userId)).limit(1);
  checkVerificationToken(deps.unsubscribeKey, token, user);
  // The address is matched again in the update: a change of e-mail in between voids the link.
  const [verified] = await deps.db
    .update(users)
    .set({ emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())`, updatedAt: new Date() })
    .where(and(eq(users.id, user.id), sql`lower(${users.email}) = ${user.email.toLowerCase()}`))
    .returning();
  if (!verified) throw new AppError("BAD_REQUEST", VERIFICATION_INVALID);
  if (!user.emailVerifiedAt) deps.log.info("e-mail verified", { userId: verified.id });
  return { user: await syncAdminRole(deps, verified), detail: EMAIL_VERIFIED };
}

export const RESENDS_PER_HOUR = 5;

/** Mails a signed-in user a new verification link (a few an hour, so the button cannot flood an inbox). */
export async function resendVerification(deps: Deps, user: UserRow): Promise<{ detail: string }> {
  if (user.emailVerifiedAt) return { detail: EMAIL_ALREADY_VERIFIED };
  await consumeRateLimit(
    deps,
    { key: `verify-email-resend:user:${user.id}`, max: RESENDS_PER_HOUR, windowMs: HOUR_MS },
    "Too many verification e-mails were requested. Please try again later.",
  );
  if (!(await sendVerificationEmail(deps, user))) {
    throw new AppError(
      "SERVICE_UNAVAILABLE",
      "The verification e-mail could not be sent. Please try again later.",
    );
  }
  return { detail: VERIFICATION_SENT };
}

/**
 * Refresh-token rotation behind a per-address limit: a refresh needs no password, but each one writes a
 * session secret and a token, so one address gets REFRESH_PER_IP_FACTOR times the anonymous-write budget
 * (many users can share an office's address; a browser refreshes only after a 401).
 */
export const REFRESH_PER_IP_FACTOR = 10;

export async function refreshSession(deps: Deps, token: string, meta: SessionMeta = {}) {
  await consumeRateLimit(deps, {
    key: perAddress("refresh", meta.ip),
    max: deps.config.ANONYMOUS_WRITES_PER_IP_PER_HOUR * REFRESH_PER_IP_FACTOR,
    windowMs: HOUR_MS,
  });
  return rotateRefreshToken(deps, token);
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

/** Development-only sign-in: an admin on the enterprise tier, limit 1000, nothing used. */
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
