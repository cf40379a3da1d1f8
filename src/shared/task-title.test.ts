import { describe, expect, it } from "vitest";
import { complexityBand } from "./complexity";
import { fitText, taskTitle, UNTITLED_TASK } from "./task-title";

describe("taskTitle", () => {
  it("is the first non-blank line, on one line", () => {
    expect(taskTitle("\n  Build   the\tAPI \nthen more", 60)).toBe("Build the API");
    expect(taskTitle(" \n ", 60)).toBe(UNTITLED_TASK);
  });

  it("fits a cut title, its '…' included, within the limit", () => {
    expect(taskTitle("abcdef", 6)).toBe("abcdef");
    expect(taskTitle("abcdefg", 6)).toBe("abcde…");
    expect(taskTitle("abcd efg", 6)).toBe("abcd…");
  });
});

describe("fitText", () => {
  it("counts UTF-16 units and never splits a character", () => {
    expect(fitText("a😀😀b", 3)).toBe("a…");
    expect(fitText("a😀😀b", 5)).toBe("a😀…");
  });
});

describe("complexityBand", () => {
  it("is high from 8, medium from 5, low below and without a score", () => {
    expect([9, 8, 7, 5, 4.9, 0, null].map(complexityBand)).toEqual([
      "high",
      "high",
      "medium",
      "medium",
      "low",
      "low",
      "low",
    ]);
  });
});
