import { describe, expect, it } from "vitest";
import { isLowercaseUuid, UUID_PATTERN } from "./ids";

const id = "0b8f7a52-3c1e-4d2a-9f60-5e4b1a2c3d4e";

describe("UUID_PATTERN", () => {
  it("accepts a UUID in either case and nothing around it", () => {
    expect(UUID_PATTERN.test(id)).toBe(true);
    expect(UUID_PATTERN.test(id.toUpperCase())).toBe(true);
    expect(UUID_PATTERN.test(` ${id}`)).toBe(false);
    expect(UUID_PATTERN.test(id.slice(1))).toBe(false);
    expect(UUID_PATTERN.test("not-a-uuid")).toBe(false);
  });
});

describe("isLowercaseUuid", () => {
  it("accepts only the lowercase form", () => {
    expect(isLowercaseUuid(id)).toBe(true);
    expect(isLowercaseUuid(id.toUpperCase())).toBe(false);
  });
});
