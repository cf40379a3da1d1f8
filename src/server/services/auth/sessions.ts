import { and, eq, isNull, type SQL, sql } from "drizzle-orm";
import { refreshTokens, sessions, users } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { hashSecret, randomToken, secretMatches, splitToken } from "../../lib/secret-tokens";

export const DAY = 24 * 60 * 60 * 1000;

export type SessionMeta = { ip?: string | null; userAgent?: string | null };

export type UserRow = typeof users.$inferSelect;

export type IssuedTokens = { accessToken: string; refreshToken: string; sessionId: string; expiresAt: Date };

async function issueRefreshToken(deps: Deps, sessionId: string): Promise<string> {
  const id = randomToken();
  const secret = randomToken(20);
  await deps.db.insert(refreshTokens).values({
    id,
    sessionId,
    secretHash: hashSecret(secret),
    expiresAt: new Date(Date.now() + deps.config.REFRESH_TOKEN_DAYS * DAY),
  });
  return `${id}.${secret}`;
}

export async function createSession(
  deps: Deps,
  userId: string,
  meta: SessionMeta = {},
): Promise<IssuedTokens> {
  const id = randomToken();
  const secret = randomToken(20);
  const expiresAt = new Date(Date.now() + deps.config.SESSION_IDLE_DAYS * DAY);
  await deps.db.insert(sessions).values({
    id,
    userId,
    secretHash: hashSecret(secret),
    expiresAt,
    ip: meta.ip ?? null,
    userAgent: meta.userAgent?.slice(0, 300) ?? null,
  });
  const refreshToken = await issueRefreshToken(deps, id);
  return { accessToken: `${id}.${secret}`, refreshToken, sessionId: id, expiresAt };
}

export type ValidSession = {
  sessionId: string;
  user: UserRow;
  expiresAt: Date;
  /** Set when the caller used a personal access token (services/auth/api-tokens.ts), not a session. */
  apiToken?: ApiTokenUse;
};

/** The personal access token a caller used: what it may do, and its name (shown on the notes it writes). */
export type ApiTokenUse = { id: string; scope: "read" | "write"; name: string };

/** Every process closes the sockets of these sessions (realtime/session-sockets.ts listens). */
export const SESSION_ENDED_CHANNEL = "atomize_session_ended";

export async function announceSessionsEnded(
  deps: Pick<Deps, "database" | "log">,
  sessionIds: string[],
): Promise<void> {
  if (sessionIds.length === 0) return;
  try {
    // NOTIFY payloads stay under 8000 bytes: ids are ~24 characters, so send them in slices.
    for (let i = 0; i < sessionIds.length; i += 200) {
      await deps.database.notify(SESSION_ENDED_CHANNEL, JSON.stringify(sessionIds.slice(i, i + 200)));
    }
  } catch (err) {
    // The periodic socket check still closes them within WS_SESSION_CHECK_MS.
    deps.log.warn("could not announce ended sessions", { err: (err as Error).message });
  }
}

/** Deletes the sessions `where` picks, and announces the end of those it deleted. */
export async function endSessions(deps: Deps, where: SQL): Promise<void> {
  const ended = await deps.db.delete(sessions).where(where).returning({ id: sessions.id });
  await announceSessionsEnded(
    deps,
    ended.map((s) => s.id),
  );
}

/**
 * Rotates a refresh token: the presented token is spent, the session gets a new secret and a new refresh
 * token. The replaced access secret stays valid for REFRESH_GRACE_SECONDS, and a token spent less than
 * that long ago may be presented again (two tabs refreshing at once): it rotates again. A spent token
 * presented later means it leaked, so the whole session is revoked.
 */
export async function rotateRefreshToken(
  deps: Deps,
  token: string,
): Promise<{ accessToken: string; refreshToken: string; user: UserRow; sessionId: string; expiresAt: Date }> {
  const invalid = new AppError("UNAUTHORIZED", "Invalid or expired refresh token");
  const parts = splitToken(token);
  if (!parts) throw invalid;
  const graceMs = deps.config.REFRESH_GRACE_SECONDS * 1000;
  const outcome = await deps.db.transaction(async (tx) => {
    // The row lock queues concurrent presentations of one token: each sees the previous one's outcome.
    const [row] = await tx
      .select({ rt: refreshTokens, session: sessions, user: users })
      .from(refreshTokens)
      .innerJoin(sessions, eq(sessions.id, refreshTokens.sessionId))
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(eq(refreshTokens.id, parts.id))
      .limit(1)
      .for("update", { of: refreshTokens });
    if (!row || !secretMatches(parts.secret, row.rt.secretHash)) throw invalid;
    const now = Date.now();
    if (row.rt.usedAt && now - row.rt.usedAt.getTime() >= graceMs) {
      return { reused: true as const, sessionId: row.session.id, userId: row.user.id };
    }
    if (row.rt.expiresAt.getTime() <= now || row.user.disabled) throw invalid;
    if (!row.rt.usedAt) {
      const spent = await tx
        .update(refreshTokens)
        .set({ usedAt: new Date(now) })
        .where(and(eq(refreshTokens.id, parts.id), isNull(refreshTokens.usedAt)))
        .returning({ id: refreshTokens.id });
      if (spent.length === 0) throw invalid;
    }
    const secret = randomToken(20);
    const expiresAt = new Date(now + deps.config.SESSION_IDLE_DAYS * DAY);
    const updated = await tx
      .update(sessions)
      .set({
        secretHash: hashSecret(secret),
        // The secret current at this update (a concurrent rotation may have replaced the one read above).
        previousSecretHash: graceMs > 0 ? sql`${sessions.secretHash}` : null,
        previousSecretExpiresAt: graceMs > 0 ? new Date(now + graceMs) : null,
        lastUsedAt: new Date(now),
        expiresAt,
      })
      .where(eq(sessions.id, row.session.id))
      .returning({ id: sessions.id });
    // The session ended (logout, revocation) while this token waited.
    if (updated.length === 0) throw invalid;
    const newId = randomToken();
    const newSecret = randomToken(20);
    await tx.insert(refreshTokens).values({
      id: newId,
      sessionId: row.session.id,
      secretHash: hashSecret(newSecret),
      expiresAt: new Date(now + deps.config.REFRESH_TOKEN_DAYS * DAY),
    });
    return {
      reused: false as const,
      accessToken: `${row.session.id}.${secret}`,
      refreshToken: `${newId}.${newSecret}`,
      user: row.user,
      sessionId: row.session.id,
      expiresAt,
    };
  });
  if (outcome.reused) {
    // Revoked outside the transaction above, which the thrown error would otherwise roll back.
    await deps.db.delete(sessions).where(eq(sessions.id, outcome.sessionId));
    await announceSessionsEnded(deps, [outcome.sessionId]);
    deps.log.warn("refresh token reuse detected; session revoked", { userId: outcome.userId });
    throw invalid;
  }
  return outcome;
}
