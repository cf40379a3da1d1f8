import { z } from "zod";
import { AUTH_MESSAGES, FULL_NAME_MAX, PASSWORD_MAX, PASSWORD_MIN } from "../auth-rules";
import { isCommonPassword } from "../common-passwords";
import { EMAIL_MAX, EMAIL_PATTERN } from "../email-address";
import { isoTimestamp } from "./common";

export * from "../auth-rules";

const email = z
  .string({ error: AUTH_MESSAGES.emailRequired })
  .trim()
  .min(1, AUTH_MESSAGES.emailRequired)
  .max(EMAIL_MAX, AUTH_MESSAGES.emailTooLong)
  .pipe(z.email({ pattern: EMAIL_PATTERN, error: AUTH_MESSAGES.emailInvalid }))
  .transform((v) => v.toLowerCase());

/**
 * The registration payload; fixed fields are accepted only with the values a new account gets.
 * A password from the common-password list (or built from the e-mail) is refused on the form and the server.
 */
export const registerInput = z
  .strictObject({
    email,
    username: z.string().trim().max(EMAIL_MAX).optional(),
    password: z
      .string({ error: AUTH_MESSAGES.passwordRequired })
      .min(1, AUTH_MESSAGES.passwordRequired)
      .min(PASSWORD_MIN, AUTH_MESSAGES.passwordTooShort)
      .max(PASSWORD_MAX, AUTH_MESSAGES.passwordTooLong),
    full_name: z.string().trim().max(FULL_NAME_MAX, AUTH_MESSAGES.fullNameTooLong).optional().default(""),
    provider: z.literal("local").optional(),
    disabled: z.literal(false).optional(),
    role: z.literal("user").optional(),
    subscription_tier: z.literal("free").optional(),
    subscription_status: z.literal("active").optional(),
    monthly_task_limit: z.literal(10).optional(),
    tasks_created_this_month: z.literal(0).optional(),
  })
  .superRefine((v, ctx) => {
    if (isCommonPassword(v.password, v.email)) {
      ctx.addIssue({ code: "custom", path: ["password"], message: AUTH_MESSAGES.commonPassword });
    }
  });
export type RegisterInput = z.input<typeof registerInput>;

export const loginInput = z.strictObject({
  email,
  password: z
    .string({ error: AUTH_MESSAGES.passwordRequired })
    .min(1, AUTH_MESSAGES.passwordRequired)
    .max(PASSWORD_MAX),
});
export type LoginInput = z.input<typeof loginInput>;

export const refreshInput = z.strictObject({ refresh_token: z.string().min(1).max(200).optional() });

export const oauthProvider = z.enum(["google"], { error: "Unsupported OAuth provider" });

export const authorizeInput = z.strictObject({
  redirect_uri: z.string().max(2000).optional(),
});

/** An issuer identifier: compared verbatim with the discovered `issuer`, so it is not trimmed. */
export const ISSUER_MAX = 2000;

export const googleExchangeInput = z.strictObject({
  code: z.string().trim().min(1, "Invalid authorization code").max(4096),
  state: z.string().trim().min(1, "Missing OAuth state").max(512),
  redirect_uri: z.string().max(2000).optional(),
  /**
   * The authorization response's `iss` (RFC 9207), as the provider sent it. A provider that advertises
   * `authorization_response_iss_parameter_supported` always sends it, and openid-client then requires it.
   */
  iss: z
    .string()
    .max(ISSUER_MAX, "Invalid issuer (iss)")
    .pipe(z.url({ protocol: /^https?$/, error: "Invalid issuer (iss)" }))
    .optional(),
});

export const exchangeAuthCodeInput = z.strictObject({
  code: z.string().trim().min(1, "Invalid authorization code").max(512),
});

export const verifyEmailInput = z.strictObject({
  token: z
    .string({ error: "Verification token is required" })
    .trim()
    .min(1, "Verification token is required")
    .max(512, "Verification token is too long"),
});

export const userRole = z.enum(["user", "admin"]);

/** The user, as every auth response returns it. */
export const publicUser = z
  .object({
    id: z.string(),
    email: z.string(),
    username: z.string(),
    full_name: z.string(),
    role: userRole,
    provider: z.string(),
    subscription_tier: z.string(),
    subscription_status: z.string(),
    monthly_task_limit: z.number().int(),
    tasks_created_this_month: z.number().int(),
    /** The address was proven (Google, or the link mailed after registration); ADMIN_EMAILS needs it. */
    email_verified: z.boolean(),
    created_at: isoTimestamp,
  })
  .meta({ id: "PublicUser" });
export type PublicUser = z.infer<typeof publicUser>;

/** A sign-in's answer: the tokens for API clients (the SPA gets them as cookies too) and the user. */
export const authResponse = z
  .object({
    access_token: z.string(),
    token_type: z.literal("bearer"),
    refresh_token: z.string(),
    user: publicUser,
  })
  .meta({ id: "AuthResponse" });
export type AuthResponse = z.infer<typeof authResponse>;

export const authProviders = z.object({ google: z.boolean(), devBypass: z.boolean() });

/** Where to send the browser to sign in with Google, and the state it will come back with. */
export const googleAuthorization = z.object({
  state: z.string(),
  redirect_uri: z.string(),
  authorization_url: z.string(),
});
