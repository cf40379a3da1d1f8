import { describe, expect, it } from "vitest";
import { hashSecret, randomToken, secretMatches, splitToken } from "./secret-tokens";

describe("session tokens", () => {
  it("are 120-bit base32 strings, different every time", () => {
    const seen = new Set(Array.from({ length: 1000 }, () => randomToken()));
    expect(seen.size).toBe(1000);
    for (const t of seen) expect(t).toMatch(/^[a-z2-7]{24}$/);
  });

  it("compare by hash", () => {
    const secret = randomToken(20);
    const stored = hashSecret(secret);
    expect(stored).not.toContain(secret);
    expect(secretMatches(secret, stored)).toBe(true);
    expect(secretMatches(`${secret.slice(0, -1)}a`, stored)).toBe(secret.endsWith("a"));
    expect(secretMatches("", stored)).toBe(false);
  });

  it("split into id and secret and reject anything else", () => {
    expect(splitToken("abcdefghijklmnopqrstuvwx.abcdefghijklmnopqrstuvwx")).toEqual({
      id: "abcdefghijklmnopqrstuvwx",
      secret: "abcdefghijklmnopqrstuvwx",
    });
    for (const bad of [
      "",
      "abc",
      "a.b",
      "x".repeat(24),
      "ABCDEFGHIJKLMNOPQRSTUVWX.abcdefghijklmnopqrstuvwx",
      "a.b.c",
    ]) {
      expect(splitToken(bad)).toBeNull();
    }
  });
});
