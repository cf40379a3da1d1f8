import { isLowercaseUuid } from "../../../shared/ids";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { escapeHtml } from "../../lib/escape-html";
import { deriveKey, hmacSha256, sameMac } from "../../lib/mac";

export const EMAIL_VERIFIED = "Your e-mail address is verified.";
export const EMAIL_ALREADY_VERIFIED = "Your e-mail address is already verified.";
export const VERIFICATION_SENT = "We sent you a new verification link. Please check your inbox.";
export const VERIFICATION_INVALID =
  "This verification link is invalid. Please request a new one from Settings → Account.";
export const VERIFICATION_EXPIRED =
  "This verification link has expired. Please request a new one from Settings → Account.";

/**
 * Verification links are signed with their own key, derived from the unsubscribe key (itself from
 * BLOG_UNSUBSCRIBE_SECRET or the credentials key) under a label of their own, so no other signature of
 * ours (unsubscribe, subscription confirmation) can ever verify an address. The MAC covers the address:
 * once a user's e-mail changes, links sent to the old one stop working.
 */
function mac(unsubscribeKey: Buffer, userId: string, email: string, expires: number): Buffer {
  const key = deriveKey(unsubscribeKey, "atomize e-mail verification v1");
  return hmacSha256(key, `verify-email:${userId}:${email.toLowerCase()}:${expires}`);
}

/** `<user id>.<expiry, unix seconds>.<HMAC-SHA256, base64url>`. */
export function signVerificationToken(
  unsubscribeKey: Buffer,
  user: { id: string; email: string },
  hours: number,
  now = Date.now(),
): string {
  const expires = Math.floor(now / 1000) + hours * 3600;
  return `${user.id}.${expires}.${mac(unsubscribeKey, user.id, user.email, expires).toString("base64url")}`;
}

/** The user id a token names, for looking the user up before its signature can be checked; null if malformed. */
export function verificationTokenUserId(token: string): string | null {
  const [id, exp, sig, ...rest] = token.trim().split(".");
  if (!id || !exp || !sig || rest.length > 0) return null;
  if (!isLowercaseUuid(id) || !/^\d{1,12}$/.test(exp) || !/^[A-Za-z0-9_-]{43}$/.test(sig)) return null;
  return id;
}

/**
 * Checks a token against the user it names and that user's current address. Throws 400 with a detail
 * that says whether the link is unusable or only out of date (the latter only for a genuine signature).
 */
export function checkVerificationToken<U extends { id: string; email: string }>(
  unsubscribeKey: Buffer,
  token: string,
  user: U | undefined,
  now = Date.now(),
): asserts user is U {
  const [id, exp, sig] = token.trim().split(".");
  if (!user || !id || !exp || !sig || id !== user.id) throw new AppError("BAD_REQUEST", VERIFICATION_INVALID);
  const expires = Number(exp);
  if (!sameMac(Buffer.from(sig, "base64url"), mac(unsubscribeKey, user.id, user.email, expires)))
    throw new AppError("BAD_REQUEST", VERIFICATION_INVALID);
  if (expires * 1000 <= now) throw new AppError("BAD_REQUEST", VERIFICATION_EXPIRED);
}

export function verificationUrl(deps: Deps, user: { id: string; email: string }): string {
  const token = signVerificationToken(deps.unsubscribeKey, user, deps.config.EMAIL_VERIFICATION_HOURS);
  return `${deps.config.publicOrigin}/verify-email?token=${encodeURIComponent(token)}`;
}

/**
 * Mails the user a verification link. A mail failure is logged, not thrown: registration must not fail
 * because SMTP is down, and Settings → Account offers to send the link again.
 */
export async function sendVerificationEmail(
  deps: Deps,
  user: { id: string; email: string },
): Promise<boolean> {
  const url = verificationUrl(deps, user);
  const hours = deps.config.EMAIL_VERIFICATION_HOURS;
  const subject = "Verify your e-mail address for Atomize";
  const text = [
    "Please confirm that this address belongs to your Atomize account:",
    "",
    url,
    "",
    `The link works for ${hours} hours. If you did not create an Atomize account, you can ignore this e-mail.`,
  ].join("\n");
  const html = [
    "<p>Please confirm that this address belongs to your Atomize account:</p>",
    `<p><a href="${escapeHtml(url)}">Verify my e-mail address</a></p>`,
    `<p>The link works for ${hours} hours. If you did not create an Atomize account, you can ignore this e-mail.</p>`,
  ].join("\n");
  try {
    await deps.mailer.send({ to: user.email, subject, text, html });
    return true;
  } catch (err) {
    deps.log.warn("could not send the verification e-mail", {
      userId: user.id,
      err: (err as Error).message,
    });
    return false;
  }
}
