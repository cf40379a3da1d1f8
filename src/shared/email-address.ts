/**
 * The e-mail address rule, in a module without zod: public pages check an address with it, and the
 * schemas hand the same pattern to z.email, so a form and the server never disagree about an address.
 */

export const EMAIL_MAX = 254;

/** zod's own e-mail pattern (the default of z.email), written out so that checking needs no zod. */
export const EMAIL_PATTERN =
  /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

export const INVALID_EMAIL_MESSAGE = "Please enter a valid email address";

/** Whether a (trimmed) address is well formed; the length limit is each form's own check. */
export function isEmailAddress(value: string): boolean {
  return EMAIL_PATTERN.test(value);
}
