import { and, eq, sql } from "drizzle-orm";
import * as oidc from "openid-client";
import { oauthAccounts, oauthFlows, sessions, users } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { hashSecret } from "../../lib/secret-tokens";
import { syncAdminRole } from "./accounts";
import { googleConfig } from "./google";
import { createSession, endSessions, type IssuedTokens, type SessionMeta, type UserRow } from "./sessions";

type GoogleClaims = { sub: string; email?: string; email_verified?: boolean; name?: string };

/** Redeems the code of a callback (state, nonce and PKCE checked, ID token verified) and signs the user in. */
export async function completeGoogleSignIn(
  deps: Deps,
  input: { code: string; state: string; redirect_uri?: string | undefined; iss?: string | undefined },
  meta: SessionMeta = {},
): Promise<{ user: UserRow; tokens: IssuedTokens }> {
  const config = await googleConfig(deps);
  // Before the flow is taken: a response refused for its issuer leaves the sign-in open for the genuine one.
  checkResponseIssuer(deps, config, input.iss);
  const [flow] = await deps.db
    .delete(oauthFlows)
    .where(and(eq(oauthFlows.stateHash, hashSecret(input.state)), eq(oauthFlows.provider, "google")))
    .returning();
  if (!flow || flow.expiresAt.getTime() < Date.now()) {
    throw new AppError("BAD_REQUEST", "Your login session has expired. Please try logging in again.");
  }
  if (input.redirect_uri && input.redirect_uri !== flow.redirectUri) {
    throw new AppError("BAD_REQUEST", "redirect_uri does not match the authorization request");
  }
  const callbackUrl = new URL(flow.redirectUri);
  callbackUrl.searchParams.set("code", input.code);
  callbackUrl.searchParams.set("state", input.state);
  if (input.iss !== undefined) callbackUrl.searchParams.set("iss", input.iss);
  let claims: GoogleClaims;
  try {
    const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: flow.codeVerifier,
      expectedState: input.state,
      expectedNonce: flow.nonce,
      idTokenExpected: true,
    });
    const c = tokens.claims();
    if (!c) throw new Error("no ID token claims");
    claims = c as unknown as GoogleClaims;
  } catch (err) {
    throw exchangeError(deps, err);
  }
  const user = await upsertGoogleUser(deps, claims);
  const tokens = await createSession(deps, user.id, meta);
  return { user, tokens };
}

/**
 * RFC 9207 (OAuth 2.0 Authorization Server Issuer Identification): an authorization server that advertises
 * `authorization_response_iss_parameter_supported` names itself in every authorization response's `iss`,
 * and the client compares it with the issuer it sent the user to (section 2.4), which defeats mix-up
 * attacks. openid-client makes the same checks in authorizationCodeGrant (a missing or different `iss` is
 * an OAUTH_INVALID_RESPONSE error); they are made here first so that a refusal says what went wrong, and
 * so that a code from a response naming another issuer is never sent to our token endpoint.
 */
function checkResponseIssuer(deps: Deps, config: oidc.Configuration, iss: string | undefined): void {
  const metadata = config.serverMetadata();
  if (iss === undefined) {
    if (metadata.authorization_response_iss_parameter_supported === true) {
      throw new AppError(
        "BAD_REQUEST",
        "The sign-in response did not name its issuer (iss). Please try logging in again.",
      );
    }
    return;
  }
  if (iss !== metadata.issuer) {
    deps.log.warn("google callback named another issuer", {
      expected: metadata.issuer,
      iss: iss.slice(0, 200),
    });
    throw new AppError(
      "BAD_REQUEST",
      "The sign-in response came from an unexpected issuer. Please try logging in again.",
    );
  }
}

function exchangeError(deps: Deps, err: unknown): AppError {
  if (err instanceof AppError) return err;
  const e = err as { name?: string; code?: string; error?: string; status?: number };
  deps.log.warn("google code exchange failed", {
    name: e.name,
    code: e.code,
    error: e.error,
    status: e.status,
  });
  const unavailable = () =>
    new AppError("SERVICE_UNAVAILABLE", "Server error during OAuth flow. Please try again later.");
  // openid-client: 4xx bodies are ResponseBodyError (with status); 5xx and timeouts are ClientError codes.
  if (e.name === "ResponseBodyError") {
    if (e.status === 429) return unavailable();
    return new AppError("BAD_REQUEST", "Authorization code expired or invalid. Please try logging in again.");
  }
  if (e.code === "OAUTH_RESPONSE_IS_NOT_CONFORM" || e.code === "OAUTH_TIMEOUT" || e.name === "TimeoutError") {
    return unavailable();
  }
  if (e.name === "AuthorizationResponseError") {
    return new AppError("BAD_REQUEST", `OAuth error: ${e.error ?? "authorization failed"}`);
  }
  // Signature, issuer, audience, nonce or expiry checks of the ID token failed, or the network did.
  return new AppError("UNAUTHORIZED", "OAuth authentication failed. Please try again.");
}

/**
 * Users are keyed on Google's `sub`; an existing account is linked only through a verified e-mail. An ID
 * token with `email_verified` for the account's own address marks that address verified (ADMIN_EMAILS
 * then applies); an unverified claim never does.
 */
async function upsertGoogleUser(deps: Deps, claims: GoogleClaims): Promise<UserRow> {
  if (!claims.sub) throw new AppError("UNAUTHORIZED", "Invalid user data received from OAuth provider");
  const email = claims.email?.toLowerCase();
  const verifiedEmail = claims.email_verified === true ? email : undefined;
  const [linked] = await deps.db
    .select({ user: users })
    .from(oauthAccounts)
    .innerJoin(users, eq(users.id, oauthAccounts.userId))
    .where(and(eq(oauthAccounts.provider, "google"), eq(oauthAccounts.providerUserId, claims.sub)))
    .limit(1);
  if (linked) {
    if (linked.user.disabled) throw new AppError("FORBIDDEN", "This account is disabled");
    const user = linked.user;
    if (!user.emailVerifiedAt && verifiedEmail && verifiedEmail === user.email.toLowerCase()) {
      const [verified] = await deps.db
        .update(users)
        .set({ emailVerifiedAt: new Date(), updatedAt: new Date() })
        .where(eq(users.id, user.id))
        .returning();
      return syncAdminRole(deps, verified ?? user);
    }
    return syncAdminRole(deps, user);
  }
  if (!verifiedEmail) {
    throw new AppError(
      "FORBIDDEN",
      "Your Google account has no verified e-mail address, so it cannot be used to sign in.",
    );
  }
  const { user, squatted } = await deps.db.transaction(async (tx) => {
    const [existing] = await tx
      .select()
      .from(users)
      .where(sql`lower(${users.email}) = ${verifiedEmail}`)
      .limit(1)
      .for("update");
    let row: UserRow;
    // A password set on an address nobody proved may be an attacker's, registered ahead of the owner
    // ("pre-account hijacking"): the owner proves the address now, so that password and its sessions go.
    const squatted = Boolean(existing && !existing.emailVerifiedAt && existing.passwordHash);
    if (existing) {
      row = existing.emailVerifiedAt
        ? existing
        : (
            await tx
              .update(users)
              .set({
                emailVerifiedAt: new Date(),
                updatedAt: new Date(),
                ...(squatted ? { passwordHash: null } : {}),
              })
              .where(eq(users.id, existing.id))
              .returning()
          )[0]!;
    } else {
      row = (
        await tx
          .insert(users)
          .values({
            email: verifiedEmail,
            username: verifiedEmail,
            fullName: claims.name?.slice(0, 200) ?? "",
            provider: "google",
            role: "user",
            emailVerifiedAt: new Date(),
          })
          .returning()
      )[0]!;
    }
    await tx
      .insert(oauthAccounts)
      .values({ provider: "google", providerUserId: claims.sub, userId: row.id, email: verifiedEmail })
      .onConflictDoNothing();
    return { user: row, squatted };
  });
  if (squatted) {
    await endSessions(deps, eq(sessions.userId, user.id));
    deps.log.warn(
      "google sign-in proved an address registered without verification; its password was removed",
      {
        userId: user.id,
      },
    );
  }
  if (user.disabled) throw new AppError("FORBIDDEN", "This account is disabled");
  return syncAdminRole(deps, user);
}
