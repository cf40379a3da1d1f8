import { describe, expect, it } from "vitest";
import { COMMON_PASSWORD_MESSAGE, isCommonPassword } from "./common-passwords";
import { registerInput } from "./schemas/auth";

describe("isCommonPassword", () => {
  it.each([
    "password",
    "12345678",
    "PASSWORD",
    "Password1",
    "password123!",
    "P@ssw0rd",
    "qwertyuiop",
    "iloveyou",
    "sunshine1",
    "123monkey!",
    "Dragon2024",
    "trustno1",
    "1q2w3e4r5t",
  ])("refuses the listed password or a decorated variant: %s", (pw) => {
    expect(isCommonPassword(pw)).toBe(true);
  });

  it.each(["aaaaaaaa", "ZZZZZZZZZZ", "11111111", "abababab", "abcabcabc", "12341234"])(
    "refuses a repeated character or unit: %s",
    (pw) => {
      expect(isCommonPassword(pw)).toBe(true);
    },
  );

  it.each([
    "abcdefgh",
    "hgfedcba",
    "23456789",
    "98765432",
    "asdfghjk",
    "zxcvbnm,",
    "qazwsxedcrfv",
    "!@#$%^&*",
    "lmnopqrs1",
  ])("refuses a simple sequence: %s", (pw) => {
    expect(isCommonPassword(pw)).toBe(true);
  });

  it("refuses the e-mail address or its local part, with digits or symbols around it", () => {
    const email = "Jane.Doe@example.com";
    for (const pw of [
      "jane.doe",
      "JaneDoe",
      "janedoe1990",
      "!jane.doe!",
      "jane.doe@example.com",
      "xx jane.doe@example.com",
    ]) {
      expect(isCommonPassword(pw, email), pw).toBe(true);
    }
    expect(isCommonPassword("jane.doe", "someone@example.com")).toBe(false);
    expect(isCommonPassword("jane doe likes tea", email)).toBe(false);
  });

  it.each([
    "correct horse battery",
    "long enough pw",
    "e2e password 123",
    "another password",
    "persist me please",
    "T7#kq9!mZp2",
    "48213977650193",
    "zebra-lantern-orbit",
  ])("accepts a password that is not common: %s", (pw) => {
    expect(isCommonPassword(pw, "someone@example.com")).toBe(false);
  });
});

describe("registerInput", () => {
  it("refuses a common password with the message on the password field, keeping the length rule", () => {
    for (const password of ["password", "12345678", "Qwerty123"]) {
      const res = registerInput.safeParse({ email: "a@example.com", password });
      expect(res.success).toBe(false);
      expect(res.error?.issues).toEqual([
        expect.objectContaining({ path: ["password"], message: COMMON_PASSWORD_MESSAGE }),
      ]);
    }
    const short = registerInput.safeParse({ email: "a@example.com", password: "abc" });
    expect(short.error?.issues.map((i) => i.message)).toEqual(["Password must be at least 8 characters"]);
  });

  it("refuses the address's own local part and accepts an ordinary password", () => {
    expect(
      registerInput.safeParse({ email: "grace.hopper@example.com", password: "gracehopper" }).success,
    ).toBe(false);
    expect(
      registerInput.safeParse({ email: "grace.hopper@example.com", password: "correct horse battery" })
        .success,
    ).toBe(true);
  });
});
