import { isLowercaseUuid } from "../../../shared/ids";
import { deriveKey, hmacSha256, sameMac } from "../../lib/mac";

/** How long the link in a confirmation e-mail works. */
export const CONFIRMATION_TOKEN_DAYS = 7;

/**
 * Confirmation links are signed with their own key, derived from the unsubscribe key, and their MAC
 * covers a purpose label: an unsubscribe token (or any other signature of ours) can never confirm.
 */
function mac(unsubscribeKey: Buffer, subscriptionId: string, expires: number): Buffer {
  const key = deriveKey(unsubscribeKey, "atomize blog confirm v1");
  return hmacSha256(key, `confirm-subscription:${subscriptionId}:${expires}`);
}

/** `<subscription id>.<expiry, unix seconds>.<HMAC-SHA256, base64url>`. */
export function signConfirmationToken(
  unsubscribeKey: Buffer,
  subscriptionId: string,
  now = Date.now(),
): string {
  const expires = Math.floor(now / 1000) + CONFIRMATION_TOKEN_DAYS * 86_400;
  return `${subscriptionId}.${expires}.${mac(unsubscribeKey, subscriptionId, expires).toString("base64url")}`;
}

/** The subscription id a token was signed for, or null when it is malformed, forged or expired. */
export function verifyConfirmationToken(
  unsubscribeKey: Buffer,
  token: string,
  now = Date.now(),
): string | null {
  const [id, exp, sig, ...rest] = token.trim().split(".");
  if (!id || !exp || !sig || rest.length > 0) return null;
  if (!isLowercaseUuid(id) || !/^\d{1,12}$/.test(exp) || !/^[A-Za-z0-9_-]{43}$/.test(sig)) return null;
  const expires = Number(exp);
  if (!sameMac(Buffer.from(sig, "base64url"), mac(unsubscribeKey, id, expires))) return null;
  return expires * 1000 > now ? id : null;
}
