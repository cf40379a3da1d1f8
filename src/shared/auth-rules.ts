/**
 * Sign-in and registration limits, messages and checks, in a module without zod: the public sign-in and
 * registration pages validate with it without pulling the schema library into their bundles, and the
 * schemas (schemas/auth.ts) build on the same limits and messages and re-export them.
 */
import { COMMON_PASSWORD_MESSAGE, isCommonPassword } from "./common-passwords";
import { EMAIL_MAX, INVALID_EMAIL_MESSAGE, isEmailAddress } from "./email-address";

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
export const FULL_NAME_MAX = 200;

export const AUTH_MESSAGES = {
  emailRequired: "Email is required",
  emailTooLong: "Email is too long",
  emailInvalid: INVALID_EMAIL_MESSAGE,
  passwordRequired: "Password is required",
  passwordTooShort: `Password must be at least ${PASSWORD_MIN} characters`,
  passwordTooLong: `Password must be at most ${PASSWORD_MAX} characters`,
  fullNameTooLong: "Full name is too long",
  commonPassword: COMMON_PASSWORD_MESSAGE,
} as const;

function emailError(raw: string): string | undefined {
  const email = raw.trim();
  if (!email) return AUTH_MESSAGES.emailRequired;
  if (email.length > EMAIL_MAX) return AUTH_MESSAGES.emailTooLong;
  return isEmailAddress(email) ? undefined : AUTH_MESSAGES.emailInvalid;
}

export type LoginField = "email" | "password";

/**
 * The first message per field that loginInput gives. Its password length limit is left to the server,
 * whose 422 names the field like any other.
 */
export function loginErrors(values: Record<LoginField, string>): Partial<Record<LoginField, string>> {
  const errors: Partial<Record<LoginField, string>> = {};
  const email = emailError(values.email);
  if (email) errors.email = email;
  if (!values.password) errors.password = AUTH_MESSAGES.passwordRequired;
  return errors;
}

export type RegisterField = "email" | "fullName" | "password";

/** The first message per field that registerInput gives for the registration form's values. */
export function registerErrors(
  values: Record<RegisterField, string>,
): Partial<Record<RegisterField, string>> {
  const errors: Partial<Record<RegisterField, string>> = {};
  const email = emailError(values.email);
  if (email) errors.email = email;
  if (values.fullName.trim().length > FULL_NAME_MAX) errors.fullName = AUTH_MESSAGES.fullNameTooLong;
  const { password } = values;
  if (!password) errors.password = AUTH_MESSAGES.passwordRequired;
  else if (password.length < PASSWORD_MIN) errors.password = AUTH_MESSAGES.passwordTooShort;
  else if (password.length > PASSWORD_MAX) errors.password = AUTH_MESSAGES.passwordTooLong;
  else if (isCommonPassword(password, values.email.trim().toLowerCase()))
    errors.password = AUTH_MESSAGES.commonPassword;
  return errors;
}
