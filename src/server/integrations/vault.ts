import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { appMeta } from "../db/schema/index";

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
  if (existsSync(file)) {
    const text = readFileSync(file, "utf8").trim();
    const key = Buffer.from(text, "base64");
    // A truncated or edited file would otherwise seal new credentials with a different (weaker) key.
    if (key.length !== 32 || key.toString("base64") !== text) {
      throw new VaultError(
        `${file} is damaged: it must hold 32 bytes as base64. Restore it from a backup (stored credentials need it), or remove it to start with a new key and enter the credentials again.`,
      );
    }
    return key;
  }
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

const KEY_CHECK = "credentials_key_check";
const KEY_CHECK_TEXT = "atomize credentials key check v1";

/**
 * Proves that this process seals credentials with the same key as every other process of the database:
 * the first start stores a value sealed with its key; a later start whose key cannot open it stops with
 * an explanation, instead of silently writing credentials nobody else can read.
 */
export async function checkVaultKey(
  db: Db,
  vault: Vault,
  source: "CREDENTIALS_KEY" | "the data folder's credentials.key",
): Promise<void> {
  await db
    .insert(appMeta)
    .values({ key: KEY_CHECK, value: vault.encrypt(KEY_CHECK_TEXT) })
    .onConflictDoNothing();
  const [row] = await db.select().from(appMeta).where(eq(appMeta.key, KEY_CHECK)).limit(1);
  let opened: string | null = null;
  try {
    opened = row ? vault.decrypt(row.value) : null;
  } catch {
    opened = null;
  }
  if (opened !== KEY_CHECK_TEXT) {
    throw new VaultError(
      `The credentials key (${source}) is not the key this database's stored credentials were sealed with. Every process that shares the database must use the same CREDENTIALS_KEY.`,
    );
  }
}
