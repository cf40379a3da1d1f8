import { isLowercaseUuid } from "../../../shared/ids";
import { deriveKey, hmacSha256, sameMac } from "../../lib/mac";

/**
 * The key that signs unsubscribe links: from BLOG_UNSUBSCRIBE_SECRET when set, else derived (HKDF) from
 * the credentials key, so no extra secret is needed and processes sharing CREDENTIALS_KEY agree.
 */
export function deriveUnsubscribeKey(secret: string | undefined, vaultKey: Buffer): Buffer {
  const material = secret ? Buffer.from(secret, "utf8") : vaultKey;
  return deriveKey(material, "atomize blog unsubscribe v1");
}

const mac = (key: Buffer, subscriptionId: string) => hmacSha256(key, `unsubscribe:${subscriptionId}`);

/** `<subscription id>.<HMAC-SHA256, base64url>`: one per subscription, with no expiry (links in old mail keep working). */
export function signUnsubscribeToken(key: Buffer, subscriptionId: string): string {
  return `${subscriptionId}.${mac(key, subscriptionId).toString("base64url")}`;
}

/** The subscription id a token was signed for, or null when it is malformed or forged. */
export function verifyUnsubscribeToken(key: Buffer, token: string): string | null {
  const [id, sig, ...rest] = token.trim().split(".");
  if (!id || !sig || rest.length > 0 || !isLowercaseUuid(id) || !/^[A-Za-z0-9_-]{43}$/.test(sig)) return null;
  return sameMac(Buffer.from(sig, "base64url"), mac(key, id)) ? id : null;
}
