import { sha256 } from "@oslojs/crypto/sha2";
import { constantTimeEqual } from "@oslojs/crypto/subtle";
import { encodeBase32LowerCaseNoPadding, encodeHexLowerCase } from "@oslojs/encoding";

/** 24 base32 characters = 120 bits of entropy (the Lucia guide's session id/secret size). */
export function randomToken(bytes = 15): string {
  const buf = new Uint8Array(bytes);
  crypto.getRandomValues(buf);
  return encodeBase32LowerCaseNoPadding(buf);
}

export function hashSecret(secret: string): string {
  return encodeHexLowerCase(sha256(new TextEncoder().encode(secret)));
}

export function secretMatches(secret: string, storedHash: string): boolean {
  const a = new TextEncoder().encode(hashSecret(secret));
  const b = new TextEncoder().encode(storedHash);
  return a.length === b.length && constantTimeEqual(a, b);
}

/** A token is `${id}.${secret}`: the id finds the row, the secret is compared by hash in constant time. */
export function splitToken(token: string): { id: string; secret: string } | null {
  const parts = token.split(".");
  if (parts.length !== 2) return null;
  const [id, secret] = parts as [string, string];
  if (!/^[a-z2-7]{16,64}$/.test(id) || !/^[a-z2-7]{16,64}$/.test(secret)) return null;
  return { id, secret };
}
