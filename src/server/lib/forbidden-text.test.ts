import { describe, expect, it } from "vitest";
import { containsNul } from "./forbidden-text";

describe("containsNul", () => {
  it("finds a NUL in strings, nested values and keys", () => {
    expect(containsNul("a\u0000b")).toBe(true);
    expect(containsNul({ a: [{ b: "x\u0000" }] })).toBe(true);
    expect(containsNul({ "k\u0000": 1 })).toBe(true);
    expect(JSON.parse('{"t":"\\u0000"}')).toSatisfy((v: unknown) => containsNul(v));
  });
  it("passes ordinary text, including a literal backslash-u sequence", () => {
    expect(containsNul({ t: 'printf("\\\\u0000")', n: 1, b: true, z: null })).toBe(false);
    expect(containsNul(JSON.parse('{"t":"\\\\u0000"}'))).toBe(false);
  });
  it("treats absurd nesting as refused instead of recursing without end", () => {
    let deep: unknown = "x";
    for (let i = 0; i < 200; i++) deep = [deep];
    expect(containsNul(deep)).toBe(true);
  });
});
