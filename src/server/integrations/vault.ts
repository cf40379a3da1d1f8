import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/** Encrypts third-party secrets at rest with AES-256-GCM. Values read `v1.<iv>.<tag>.<ciphertext>` (base64url). */
export type Vault = { encrypt(plaintext: string): string; decrypt(sealed: string): string };

export class VaultError extends Error {}

/**
 * The key comes from CREDENTIALS_KEY (32 bytes, base64) or, for the embedded default, a key generated
 * once into the data folder. Several processes on one PostgreSQL must share CREDENTIALS_KEY.
 */
export function loadVaultKey(opts: { keyBase64?: string | undefined; dataDir: string }): Buffer {
  if (opts.keyBase64) {
    const key = Buffer.from(opts.keyBase64, "base64");
    if (key.length !== 32) throw new VaultError("CREDENTIALS_KEY must be 32 bytes encoded as base64");
    return key;
  }
  const file = path.resolve(opts.dataDir, "credentials.key");
  if (existsSync(file)) return Buffer.from(readFileSync(file, "utf8").trim(), "base64");
  mkdirSync(path.dirname(file), { recursive: true });
  const key = randomBytes(32);
  writeFileSync(file, key.toString("base64"), { mode: 0o600, flag: "wx" });
  return key;
}

export function createVault(key: Buffer): Vault {
  return {
    encrypt(plaintext) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const ct = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      return ["v1", iv, cipher.getAuthTag(), ct]
        .map((p) => (typeof p === "string" ? p : p.toString("base64url")))
        .join(".");
    },
    decrypt(sealed) {
      const [version, iv, tag, ct] = sealed.split(".");
      if (version !== "v1" || !iv || !tag || ct === undefined)
        throw new VaultError("Unreadable stored credential");
      try {
        const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
        decipher.setAuthTag(Buffer.from(tag, "base64url"));
        return Buffer.concat([decipher.update(Buffer.from(ct, "base64url")), decipher.final()]).toString(
          "utf8",
        );
      } catch {
        throw new VaultError("A stored credential could not be decrypted (was CREDENTIALS_KEY changed?)");
      }
    },
  };
}
