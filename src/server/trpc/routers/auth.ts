import {
  authorizeInput,
  exchangeAuthCodeInput,
  googleExchangeInput,
  loginInput,
  refreshInput,
  registerInput,
  verifyEmailInput,
} from "../../../shared/schemas/auth";
import { clearedSessionCookies } from "../../auth/http-session";
import { signedIn } from "../../auth/sign-in-response";
import { AppError } from "../../errors";
import * as accounts from "../../services/auth/accounts";
import * as google from "../../services/auth/google";
import { invalidateSession } from "../../services/auth/sessions";
import { protectedProcedure, publicProcedure, router } from "../init";

export const authRouter = router({
  providers: publicProcedure.query(({ ctx }) => ({
    google: ctx.deps.config.googleEnabled,
    devBypass: ctx.deps.config.NODE_ENV === "development",
  })),

  me: protectedProcedure.query(({ ctx }) => accounts.toPublicUser(ctx.user)),

  register: publicProcedure
    .input(registerInput)
    .mutation(async ({ ctx, input }) =>
      signedIn(ctx.deps, await accounts.register(ctx.deps, input, ctx.meta), ctx.setCookies),
    ),

  login: publicProcedure
    .input(loginInput)
    .mutation(async ({ ctx, input }) =>
      signedIn(ctx.deps, await accounts.login(ctx.deps, input, ctx.meta), ctx.setCookies),
    ),

  logout: publicProcedure.mutation(async ({ ctx }) => {
    if (ctx.sessionId) await invalidateSession(ctx.deps, ctx.sessionId);
    ctx.setCookies?.(clearedSessionCookies(ctx.deps));
    return { detail: "Logged out" };
  }),

  refresh: publicProcedure.input(refreshInput).mutation(async ({ ctx, input }) => {
    const token = input.refresh_token ?? ctx.refreshCookie;
    if (!token) throw new AppError("UNAUTHORIZED", "No refresh token");
    try {
      const r = await accounts.refreshSession(ctx.deps, token, ctx.meta);
      return signedIn(ctx.deps, { user: r.user, tokens: r }, ctx.setCookies);
    } catch (err) {
      // A refused token ends the browser's session; a rate limit (429) leaves it for a later try.
      if (err instanceof AppError && err.status === 401) ctx.setCookies?.(clearedSessionCookies(ctx.deps));
      throw err;
    }
  }),

  verifyEmail: publicProcedure.input(verifyEmailInput).mutation(async ({ ctx, input }) => {
    const { detail } = await accounts.verifyEmail(ctx.deps, input);
    return { detail };
  }),

  resendVerification: protectedProcedure.mutation(({ ctx }) =>
    accounts.resendVerification(ctx.deps, ctx.user),
  ),

  googleAuthorize: publicProcedure
    .input(authorizeInput)
    .mutation(({ ctx, input }) => google.authorizeGoogle(ctx.deps, input, ctx.meta)),

  googleExchange: publicProcedure
    .input(googleExchangeInput)
    .mutation(async ({ ctx, input }) =>
      signedIn(ctx.deps, await google.completeGoogleSignIn(ctx.deps, input, ctx.meta), ctx.setCookies),
    ),

  exchangeAuthCode: publicProcedure
    .input(exchangeAuthCodeInput)
    .mutation(async ({ ctx, input }) =>
      signedIn(ctx.deps, await google.exchangeAuthCode(ctx.deps, input.code, ctx.meta), ctx.setCookies),
    ),

  devBypass: publicProcedure.mutation(async ({ ctx }) =>
    signedIn(ctx.deps, await accounts.devBypass(ctx.deps, ctx.meta), ctx.setCookies),
  ),
});
