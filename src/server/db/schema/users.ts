import { sql } from "drizzle-orm";
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

export type UserSettings = {
  darkMode: boolean;
  notifications: boolean;
  /** Check the reading before planning (issue 38); absent reads as true. */
  reviewReading?: boolean;
};

export const users = pgTable(
  "users",
  {
    id: uuid().primaryKey().defaultRandom(),
    email: text().notNull(),
    username: text().notNull(),
    fullName: text().notNull().default(""),
    passwordHash: text(),
    provider: text().notNull().default("local"),
    disabled: boolean().notNull().default(false),
    role: text({ enum: ["user", "admin"] })
      .notNull()
      .default("user"),
    subscriptionTier: text().notNull().default("free"),
    subscriptionStatus: text().notNull().default("active"),
    monthlyTaskLimit: integer().notNull().default(10),
    tasksCreatedThisMonth: integer().notNull().default(0),
    /** Calendar month (YYYY-MM, UTC) that tasksCreatedThisMonth counts. */
    usagePeriod: text().notNull().default(sql`to_char(now() at time zone 'utc', 'YYYY-MM')`),
    /** When the address was proven: a Google ID token with email_verified, or our verification link. */
    emailVerifiedAt: timestamp({ withTimezone: true }),
    settings: jsonb().$type<UserSettings>().notNull().default({ darkMode: false, notifications: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("users_email_lower_idx").on(sql`lower(${t.email})`)],
);

/** A row's user: required, and deleted with the user. */
export const userRef = () =>
  uuid()
    .notNull()
    .references(() => users.id, { onDelete: "cascade" });

/** Lucia-guide sessions: the token is `${id}.${secret}`; only a SHA-256 of the secret is stored. */
export const sessions = pgTable(
  "sessions",
  {
    id: text().primaryKey(),
    userId: userRef(),
    secretHash: text().notNull(),
    /**
     * The secret a refresh just replaced stays valid for a short grace window, so two tabs refreshing at
     * the same moment (and requests in flight) keep the session.
     */
    previousSecretHash: text(),
    previousSecretExpiresAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    userAgent: text(),
    ip: text(),
  },
  (t) => [index("sessions_user_idx").on(t.userId), index("sessions_expires_idx").on(t.expiresAt)],
);

/** Rotating refresh tokens; a used token presented again revokes its whole session. */
export const refreshTokens = pgTable(
  "refresh_tokens",
  {
    id: text().primaryKey(),
    sessionId: text()
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    secretHash: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index("refresh_tokens_session_idx").on(t.sessionId)],
);

export const oauthAccounts = pgTable(
  "oauth_accounts",
  {
    provider: text().notNull(),
    providerUserId: text().notNull(),
    userId: userRef(),
    email: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.provider, t.providerUserId] }),
    index("oauth_accounts_user_idx").on(t.userId),
  ],
);

/** An OAuth authorization in flight: state (hashed), nonce and PKCE verifier. Shared by all processes. */
export const oauthFlows = pgTable("oauth_flows", {
  stateHash: text().primaryKey(),
  provider: text().notNull(),
  nonce: text().notNull(),
  codeVerifier: text().notNull(),
  redirectUri: text().notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp({ withTimezone: true }).notNull(),
});

/** One-time codes handed to /oauth-callback and redeemed by POST /api/exchange-auth-code. */
export const authCodes = pgTable("auth_codes", {
  codeHash: text().primaryKey(),
  userId: userRef(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp({ withTimezone: true }).notNull(),
  usedAt: timestamp({ withTimezone: true }),
});

/**
 * Atomic counters for throttling: failed logins (per account, per account+IP pair, per IP) and limits on
 * anonymous writes (registration, subscriptions, ...). The key names the counter and its subject.
 */
export const authThrottle = pgTable("auth_throttle", {
  key: text().primaryKey(),
  failures: integer().notNull().default(0),
  windowStartedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  lockedUntil: timestamp({ withTimezone: true }),
});

/** Instance-wide facts, e.g. a check value that proves every process seals credentials with one key. */
export const appMeta = pgTable("app_meta", {
  key: text().primaryKey(),
  value: text().notNull(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * Personal access tokens (issue 14): for scripts, the CLI and coding agents (MCP). Only a hash of the
 * token is kept; it is shown once, when made. `read` tokens may only read.
 */
export const apiTokens = pgTable(
  "api_tokens",
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: userRef(),
    name: text().notNull(),
    scope: text({ enum: ["read", "write"] }).notNull(),
    /** SHA-256 of the token (a 32-byte random secret: no salt or slow hash needed). */
    tokenHash: text().notNull(),
    /** The token's first characters, to tell tokens apart in the list. */
    prefix: text().notNull(),
    expiresAt: timestamp({ withTimezone: true }),
    lastUsedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("api_tokens_hash_idx").on(t.tokenHash), index("api_tokens_user_idx").on(t.userId)],
);
