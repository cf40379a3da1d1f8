import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import { isLowercaseUuid } from "../../../shared/ids";

/** How long the link in a confirmation e-mail works. */
export const CONFIRMATION_TOKEN_DAYS = 7;

/**
 * Confirmation links are signed with their own key, derived from the unsubscribe key, and their MAC
 * covers a purpose label: an unsubscribe token (or any other signature of ours) can never confirm.
 */
function confirmationKey(unsubscribeKey: Buffer): Buffer {
  return Buffer.from(hkdfSync("sha256", unsubscribeKey, Buffer.alloc(0), "atomize blog confirm v1", 32));
}

function mac(unsubscribeKey: Buffer, subscriptionId: string, expires: number): Buffer {
  return createHmac("sha256", confirmationKey(unsubscribeKey))
    .update(`confirm-subscription:${subscriptionId}:${expires}`)
    .digest();
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
  const given = Buffer.from(sig, "base64url");
  const expected = mac(unsubscribeKey, id, expires);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return expires * 1000 > now ? id : null;
}
