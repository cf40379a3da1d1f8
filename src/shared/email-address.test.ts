import { describe, expect, it } from "vitest";
import { z } from "zod";
import { subscribeEmailError } from "./blog-rules";
import { EMAIL_PATTERN, isEmailAddress } from "./email-address";
import { subscribeInput } from "./schemas/blog";

const addresses = [
  "ada@example.com",
  "a.b@c.de",
  "o'neil+news@x.io",
  "A_B@EX.COM",
  "a..b@c.de",
  ".a@b.co",
  "a.@b.co",
  "a@b",
  "a@-b.co",
  "a@b.c",
  "a b@c.de",
  "ä@b.co",
  "a@b..co",
];

describe("the e-mail rule", () => {
  it("is zod's own e-mail pattern, so the schemas that pass it to z.email still accept the same addresses", () => {
    for (const address of addresses)
      expect(isEmailAddress(address), address).toBe(z.regexes.email.test(address));
    expect(EMAIL_PATTERN.flags).toBe(z.regexes.email.flags);
  });

  it("gives a visitor's subscription address subscribeInput's message", () => {
    for (const raw of [...addresses, "", "  ", ` ${"a".repeat(250)}@x.io`]) {
      const parsed = subscribeInput.safeParse({ email: raw });
      const expected = parsed.success ? null : (parsed.error.issues[0]?.message ?? null);
      expect(subscribeEmailError(raw), JSON.stringify(raw)).toBe(expected);
    }
  });
});
