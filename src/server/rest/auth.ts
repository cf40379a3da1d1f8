import { Hono } from "hono";
import {
  authorizeInput,
  exchangeAuthCodeInput,
  googleExchangeInput,
  loginInput,
  oauthProvider,
  refreshInput,
  registerInput,
  verifyEmailInput,
} from "../../shared/schemas/auth";
import { clearedSessionCookies, REFRESH_COOKIE, readCookies } from "../auth/http-session";
import { signedIn } from "../auth/sign-in-response";
import { AppError } from "../errors";
import * as accounts from "../services/auth/accounts";
import * as google from "../services/auth/google";
import { invalidateSession } from "../services/auth/sessions";
import { parseInput } from "../services/validation";
import { type AppEnv, appendCookies, jsonBody, queryInput, requireUser } from "./http";

/** The /api auth routes (register, login, refresh, logout, profile): parse, call the service, shape the response. */
export const authRoutes = new Hono<AppEnv>()
  .get("/auth/providers", (c) =>
    c.json({
      google: c.var.deps.config.googleEnabled,
      devBypass: c.var.deps.config.NODE_ENV === "development",
    }),
  )
  .post("/auth/register", async (c) => {
    const input = await jsonBody(c, registerInput);
    const result = await accounts.register(c.var.deps, input, c.var.meta);
    return c.json(signedIn(c.var.deps, result, appendCookies(c)), 201);
  })
  .post("/auth/login", async (c) => {
    const input = await jsonBody(c, loginInput);
    const result = await accounts.login(c.var.deps, input, c.var.meta);
    return c.json(signedIn(c.var.deps, result, appendCookies(c)));
  })
  .post("/auth/logout", async (c) => {
    const session = c.var.auth.session;
    if (session) await invalidateSession(c.var.deps, session.sessionId);
    appendCookies(c)(clearedSessionCookies(c.var.deps));
    return c.json({ detail: "Logged out" });
  })
  .post("/auth/refresh-token", async (c) => {
    const input = await jsonBody(c, refreshInput);
    const token = input.refresh_token ?? readCookies(c.req.header("cookie"))[REFRESH_COOKIE];
    if (!token) throw new AppError("UNAUTHORIZED", "No refresh token");
    try {
      const r = await accounts.refreshSession(c.var.deps, token, c.var.meta);
      return c.json(signedIn(c.var.deps, { user: r.user, tokens: r }, appendCookies(c)));
    } catch (err) {
      // A refused token ends the browser's session; a rate limit (429) leaves it for a later try.
      if (err instanceof AppError && err.status === 401) appendCookies(c)(clearedSessionCookies(c.var.deps));
      throw err;
    }
  })
  .get("/auth/me", (c) => c.json(accounts.toPublicUser(requireUser(c).user)))
  .post("/auth/verify-email", async (c) => {
    const input = await jsonBody(c, verifyEmailInput);
    const { detail } = await accounts.verifyEmail(c.var.deps, input);
    return c.json({ detail });
  })
  .post("/auth/verify-email/resend", async (c) =>
    c.json(await accounts.resendVerification(c.var.deps, requireUser(c).user)),
  )
  .post("/auth/dev-bypass", async (c) => {
    const result = await accounts.devBypass(c.var.deps, c.var.meta);
    return c.json(signedIn(c.var.deps, result, appendCookies(c)));
  })
  .get("/auth/:provider/authorize", async (c) => {
    parseInput(oauthProvider, c.req.param("provider"));
    const input = queryInput(c, authorizeInput);
    return c.json(await google.authorizeGoogle(c.var.deps, input, c.var.meta));
  })
  // Server-side callback: Google returns here, we redeem the code and hand the SPA a one-time code.
  .get("/auth/google/callback", async (c) => {
    const q = c.req.query();
    const to = (params: Record<string, string>) =>
      c.redirect(`/oauth-callback?${new URLSearchParams(params)}`, 302);
    if (q.error) return to({ error: q.error.slice(0, 100) });
    const parsed = googleExchangeInput.safeParse({ code: q.code ?? "", state: q.state ?? "" });
    if (!parsed.success) return to({ error: "invalid_request" });
    try {
      const { user } = await google.completeGoogleSignIn(
        c.var.deps,
        { ...parsed.data, redirect_uri: google.allowedRedirects(c.var.deps).server },
        c.var.meta,
      );
      return to({ code: await google.issueAuthCode(c.var.deps, user.id) });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      return to({ error: err.status >= 500 ? "server_error" : "access_denied" });
    }
  })
  .post("/auth/google/exchange", async (c) => {
    const input = await jsonBody(c, googleExchangeInput);
    const result = await google.completeGoogleSignIn(c.var.deps, input, c.var.meta);
    return c.json(signedIn(c.var.deps, result, appendCookies(c)));
  })
  .post("/exchange-auth-code", async (c) => {
    // Spec section 7 sends the code as a query parameter; a JSON body is accepted too.
    const fromQuery = c.req.query("code");
    const input =
      fromQuery !== undefined
        ? parseInput(exchangeAuthCodeInput, { code: fromQuery })
        : await jsonBody(c, exchangeAuthCodeInput);
    const result = await google.exchangeAuthCode(c.var.deps, input.code, c.var.meta);
    return c.json(signedIn(c.var.deps, result, appendCookies(c)));
  });
