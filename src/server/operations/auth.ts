import {
  authorizeInput,
  authProviders,
  authResponse,
  exchangeAuthCodeInput,
  googleAuthorization,
  googleExchangeInput,
  loginInput,
  oauthProvider,
  publicUser,
  refreshInput,
  registerInput,
  verifyEmailInput,
} from "../../shared/schemas/auth";
import { detailMessage } from "../../shared/schemas/common";
import { AppError } from "../errors";
import { clearedSessionCookies } from "../http/session-cookies";
import { signedIn } from "../http/sign-in-response";
import { authorizeGoogle } from "../services/auth/authorize-google";
import { completeGoogleSignIn } from "../services/auth/complete-google-sign-in";
import { devBypass } from "../services/auth/dev-bypass";
import { exchangeAuthCode } from "../services/auth/exchange-auth-code";
import { invalidateSession } from "../services/auth/invalidate-session";
import { login } from "../services/auth/login";
import { refreshSession } from "../services/auth/refresh-session";
import { register } from "../services/auth/register";
import { resendVerification } from "../services/auth/resend-verification";
import { toPublicUser } from "../services/auth/to-public-user";
import { verifyEmail } from "../services/auth/verify-email";
import { mutation, query } from "./define";

/** Sign-up, sign-in, sessions and the profile: the tRPC `auth` router and the /api/auth routes. */
export const authOperations = {
  providers: query({
    access: "public",
    summary: "Which ways of signing in this installation offers.",
    output: authProviders,
    run: ({ deps }) => ({
      google: deps.config.googleEnabled,
      devBypass: deps.config.NODE_ENV === "development",
    }),
    rest: [{ method: "get", path: "/auth/providers" }],
  }),
  register: mutation({
    access: "public",
    summary: "Creates an account and signs it in.",
    input: registerInput,
    output: authResponse,
    run: async ({ deps, meta, setCookies }, input) =>
      signedIn(deps, await register(deps, input, meta), setCookies),
    rest: [{ method: "post", path: "/auth/register", from: "body", status: 201 }],
  }),
  login: mutation({
    access: "public",
    summary: "Signs in with e-mail and password.",
    input: loginInput,
    output: authResponse,
    run: async ({ deps, meta, setCookies }, input) =>
      signedIn(deps, await login(deps, input, meta), setCookies),
    rest: [{ method: "post", path: "/auth/login", from: "body" }],
  }),
  logout: mutation({
    access: "public",
    summary: "Ends this session and clears its cookies.",
    output: detailMessage,
    run: async ({ deps, sessionId, setCookies }) => {
      if (sessionId) await invalidateSession(deps, sessionId);
      setCookies?.(clearedSessionCookies(deps));
      return { detail: "Logged out" };
    },
    rest: [{ method: "post", path: "/auth/logout" }],
  }),
  refresh: mutation({
    access: "public",
    summary: "Trades a refresh token (the body's or the cookie's) for new tokens.",
    input: refreshInput,
    output: authResponse,
    run: async ({ deps, meta, refreshCookie, setCookies }, input) => {
      const token = input.refresh_token ?? refreshCookie;
      if (!token) throw new AppError("UNAUTHORIZED", "No refresh token");
      try {
        const r = await refreshSession(deps, token, meta);
        return signedIn(deps, { user: r.user, tokens: r }, setCookies);
      } catch (err) {
        // A refused token ends the browser's session; a rate limit (429) leaves it for a later try.
        if (err instanceof AppError && err.status === 401) setCookies?.(clearedSessionCookies(deps));
        throw err;
      }
    },
    rest: [{ method: "post", path: "/auth/refresh-token", from: "body" }],
  }),
  me: query({
    access: "user",
    summary: "The signed-in user.",
    output: publicUser,
    run: ({ user }) => toPublicUser(user),
    rest: [{ method: "get", path: "/auth/me" }],
  }),
  verifyEmail: mutation({
    access: "public",
    summary: "Follows an e-mail verification link's token.",
    input: verifyEmailInput,
    output: detailMessage,
    run: async ({ deps }, input) => ({ detail: (await verifyEmail(deps, input)).detail }),
    rest: [{ method: "post", path: "/auth/verify-email", from: "body" }],
  }),
  resendVerification: mutation({
    access: "user",
    summary: "Sends the verification e-mail again.",
    output: detailMessage,
    run: ({ deps, user }) => resendVerification(deps, user),
    rest: [{ method: "post", path: "/auth/verify-email/resend" }],
  }),
  devBypass: mutation({
    access: "public",
    summary: "Development only: signs in as the development user.",
    output: authResponse,
    run: async ({ deps, meta, setCookies }) => signedIn(deps, await devBypass(deps, meta), setCookies),
    rest: [{ method: "post", path: "/auth/dev-bypass" }],
  }),
  googleAuthorize: mutation({
    access: "public",
    summary: "Starts Google sign-in: the authorization URL to send the browser to.",
    input: authorizeInput,
    output: googleAuthorization,
    run: ({ deps, meta }, input) => authorizeGoogle(deps, input, meta),
    rest: [
      {
        method: "get",
        path: "/auth/{provider}/authorize",
        from: "query",
        pathOnly: { provider: oauthProvider },
      },
    ],
  }),
  googleExchange: mutation({
    access: "public",
    summary: "Completes Google sign-in with the code, state and issuer (iss, RFC 9207) Google returned.",
    input: googleExchangeInput,
    output: authResponse,
    run: async ({ deps, meta, setCookies }, input) =>
      signedIn(deps, await completeGoogleSignIn(deps, input, meta), setCookies),
    rest: [{ method: "post", path: "/auth/google/exchange", from: "body" }],
  }),
  exchangeAuthCode: mutation({
    access: "public",
    summary: "Trades the one-time code of the server-side Google callback for a session.",
    input: exchangeAuthCodeInput,
    output: authResponse,
    run: async ({ deps, meta, setCookies }, input) =>
      signedIn(deps, await exchangeAuthCode(deps, input.code, meta), setCookies),
    // The code arrives as a query parameter (the callback's redirect); a JSON body is accepted too.
    rest: [{ method: "post", path: "/exchange-auth-code", from: "query+body" }],
  }),
};
