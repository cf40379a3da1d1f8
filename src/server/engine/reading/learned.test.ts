import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { judgeSentence, kindOf, kindReading, readRoles, roleOf } from "./learned";
import { tokensOf } from "./nlp";

describe("roleOf", () => {
  it.each([
    ["**Describe the bug**", {}, ["heading"]],
    ["Steps to reproduce", { previous: "Clicking save throws a 500." }, ["heading"]],
    ["Gitea version (or commit ref): any", {}, ["metadata"]],
    ["And yeah", { previous: "Most of the time I just export them by hand." }, ["context"]],
    ["Thanks in advance!", {}, ["context"]],
    ["The database does no filtering for it.", {}, ["context"]],
    ["Currently the export runs synchronously.", {}, ["context"]],
    ["It must NOT use any ORM", {}, ["constraint"]],
    ["Add CSV export of invoices", {}, ["work"]],
    ["Users can reset their password by email.", {}, ["work"]],
    ["Should we support SSO?", {}, ["question"]],
    ["- All tests pass on CI", { heading: "## Definition of done", listItem: true }, ["criterion"]],
    ["- Dark mode", { heading: "## Future enhancements", listItem: true }, ["non_goal"]],
  ] as const)("%s -> %s", (text, setting, roles) => {
    const reading = roleOf({ text, ...setting });
    expect(roles).toContain(reading.role);
    expect(reading.p).toBeGreaterThan(0.2);
    expect(Object.values(reading.scores).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 6);
  });

  it("is deterministic and fast once the sentence is tokenised", () => {
    const text = "Add CSV export of invoices for the accountants";
    const tokens = tokensOf(text);
    expect(roleOf({ text, tokens })).toEqual(roleOf({ text, tokens }));
    // The best of five batches after a warm-up: the machine may be busy with other work.
    for (let i = 0; i < 200; i++) roleOf({ text, tokens });
    const batches = Array.from({ length: 5 }, () => {
      const started = performance.now();
      for (let i = 0; i < 100; i++) roleOf({ text, tokens });
      return (performance.now() - started) / 100;
    });
    expect(Math.min(...batches)).toBeLessThan(1);
  });
});

describe("kindOf", () => {
  it.each([
    [
      "**Describe the bug**\nClicking save throws a 500 error.\n**To Reproduce**\n1. Open a task\n2. Click save\n**Expected behavior**\nIt saves.\nVersion: 2.1.0",
      ["bug"],
    ],
    ["Replace the Travis CI configuration with GitHub Actions", ["migration", "infrastructure"]],
    ["Users have asked for dark mode in our app", ["feature"]],
    ["Our signup page takes 9 seconds to load on mobile; make it fast.", ["performance"]],
  ] as const)("%s -> %s", (text, kinds) => {
    const reading = kindOf(text);
    expect(kinds).toContain(reading.kind);
    expect(reading.ranked).toHaveLength(8);
    expect(reading.ranked[0]!.kind).toBe(reading.kind);
  });
});

describe("judgeSentence and readRoles", () => {
  it("answers in sentences.ts's shape with the finer role", () => {
    expect(judgeSentence("It must NOT use any ORM")).toMatchObject({ kind: "context", role: "constraint" });
    expect(judgeSentence("Should we support SSO?").kind).toBe("question");
    expect(judgeSentence("Add CSV export of invoices", { listItem: false }).kind).toBe("work");
  });

  it("reads a description sentence by sentence, in its setting", () => {
    const read = readRoles(
      "**Describe the bug**\nThe export fails with a 500.\nGitea version (or commit ref): 1.21.3",
    );
    expect(read.map((r) => r.text)).toEqual([
      "**Describe the bug**",
      "The export fails with a 500.",
      "Gitea version (or commit ref): 1.21.3",
    ]);
    expect(read[0]).toMatchObject({ role: "heading", headingLine: true });
    expect(read[1]!.heading).toBe("**Describe the bug**");
    expect(read[2]!.role).toBe("metadata");
  });
});

describe("the NLP library stays on the server", () => {
  it("no client file imports it or the reader", () => {
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((n) => {
        const full = path.join(dir, n);
        return statSync(full).isDirectory() ? files(full) : /\.tsx?$/.test(n) ? [full] : [];
      });
    const offenders = files(path.resolve("src/client")).filter((f) =>
      /from\s+["'](?:compromise|[^"']*engine\/reading\/(?:nlp|learned[^"']*))["']/.test(
        readFileSync(f, "utf8"),
      ),
    );
    expect(offenders).toEqual([]);
  });
});

describe("kindReading", () => {
  it("answers in kind.ts's shape and names the words that weighed", () => {
    const reading = kindReading("Users have asked for dark mode in our app");
    expect(reading.id).toBe("feature");
    expect(reading.because[0]).toMatch(/^the words "/);
  });
});
