import { describe, expect, it } from "vitest";
import { forbiddenInput, JSON_DEPTH_MAX, NUL_MESSAGE, TOO_DEEP_MESSAGE } from "./forbidden-text";

/** `levels` arrays inside one another around `inner`. */
function nested(levels: number, inner: unknown = "x"): unknown {
  let value = inner;
  for (let i = 0; i < levels; i++) value = [value];
  return value;
}

describe("forbiddenInput", () => {
  it("finds a NUL in strings, nested values and keys", () => {
    expect(forbiddenInput("a\u0000b")).toBe(NUL_MESSAGE);
    expect(forbiddenInput({ a: [{ b: "x\u0000" }] })).toBe(NUL_MESSAGE);
    expect(forbiddenInput({ "k\u0000": 1 })).toBe(NUL_MESSAGE);
    expect(forbiddenInput(JSON.parse('{"t":"\\u0000"}'))).toBe(NUL_MESSAGE);
  });

  it("passes ordinary text, including a literal backslash-u sequence", () => {
    expect(forbiddenInput({ t: 'printf("\\\\u0000")', n: 1, b: true, z: null })).toBeNull();
    expect(forbiddenInput(JSON.parse('{"t":"\\\\u0000"}'))).toBeNull();
  });

  it("says that absurd nesting is too deep, not that it holds a NUL", () => {
    expect(TOO_DEEP_MESSAGE).toBe("The JSON is nested too deeply (more than 64 levels).");
    expect(forbiddenInput(nested(JSON_DEPTH_MAX))).toBeNull();
    expect(forbiddenInput(nested(JSON_DEPTH_MAX, "\u0000"))).toBe(NUL_MESSAGE);
    expect(forbiddenInput(nested(JSON_DEPTH_MAX + 1))).toBe(TOO_DEEP_MESSAGE);
    expect(forbiddenInput({ a: { b: nested(JSON_DEPTH_MAX - 1) } })).toBe(TOO_DEEP_MESSAGE);
    // Far past the limit, the walk still stops at it instead of recursing without end.
    expect(forbiddenInput(nested(100_000))).toBe(TOO_DEEP_MESSAGE);
    expect(forbiddenInput(JSON.parse(`${"[".repeat(200)}${"]".repeat(200)}`))).toBe(TOO_DEEP_MESSAGE);
  });
});
