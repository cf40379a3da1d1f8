import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createVault, loadVaultKey, VaultError } from "./vault";

const dir = mkdtempSync(path.join(tmpdir(), "atomize-vault-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("credentials vault", () => {
  it("round-trips, never stores the plaintext, and uses a fresh IV each time", () => {
    const vault = createVault(loadVaultKey({ dataDir: dir }));
    const a = vault.encrypt("ghp_secret_token");
    const b = vault.encrypt("ghp_secret_token");
    expect(a).not.toBe(b);
    expect(a).not.toContain("ghp_secret_token");
    expect(vault.decrypt(a)).toBe("ghp_secret_token");
  });

  it("generates the key once into the data folder, readable only by its owner", () => {
    const k1 = loadVaultKey({ dataDir: dir });
    const k2 = loadVaultKey({ dataDir: dir });
    expect(k1.equals(k2)).toBe(true);
    const file = path.join(dir, "credentials.key");
    expect(Buffer.from(readFileSync(file, "utf8"), "base64")).toHaveLength(32);
    expect(statSync(file).mode & 0o077).toBe(0);
  });

  it("detects tampering and a wrong key", () => {
    const vault = createVault(loadVaultKey({ dataDir: dir }));
    const sealed = vault.encrypt("secret");
    const parts = sealed.split(".");
    parts[3] = Buffer.from("other").toString("base64url");
    expect(() => vault.decrypt(parts.join("."))).toThrow(VaultError);
    const other = createVault(Buffer.alloc(32, 7));
    expect(() => other.decrypt(sealed)).toThrow("could not be decrypted");
    expect(() => loadVaultKey({ keyBase64: "c2hvcnQ=", dataDir: dir })).toThrow("32 bytes");
  });
});
