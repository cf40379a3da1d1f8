import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";

/** A key of its own for one kind of signature: 32 bytes derived (HKDF-SHA256) from `material` under `label`. */
export const deriveKey = (material: Buffer, label: string) =>
  Buffer.from(hkdfSync("sha256", material, Buffer.alloc(0), label, 32));

export const hmacSha256 = (key: Buffer | string, data: string | Buffer) =>
  createHmac("sha256", key).update(data).digest();

/** Whether the signature given is the one expected, compared in constant time. */
export const sameMac = (given: Buffer, expected: Buffer) =>
  given.length === expected.length && timingSafeEqual(given, expected);
