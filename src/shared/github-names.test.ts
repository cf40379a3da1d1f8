import { describe, expect, it } from "vitest";
import { parseGithubRepository, parseGithubRepoUrl } from "./github-names";

describe("GitHub names", () => {
  it.each(["octo-org/hello-world", "a/b", "Octocat/Hello.World_2", `${"a".repeat(39)}/${"b".repeat(100)}`])(
    "accepts %s",
    (v) => {
      expect(parseGithubRepository(v)).not.toBeNull();
    },
  );

  it.each([
    "octo/..",
    "octo/.",
    "../repo",
    "-octo/repo",
    "octo-/repo",
    "oc--to/repo",
    `${"a".repeat(40)}/repo`,
    `octo/${"b".repeat(101)}`,
    "octo/re po",
    "octo/repo/issues",
    "octo/repo?x=1",
    "octo/%2e%2e",
    "octo",
  ])("refuses %s", (v) => {
    expect(parseGithubRepository(v)).toBeNull();
  });

  it("reads repository URLs, with .git or a trailing slash, and refuses the rest", () => {
    expect(parseGithubRepoUrl("https://github.com/octo/hello.git")).toEqual({ owner: "octo", repo: "hello" });
    expect(parseGithubRepoUrl("https://github.com/octo/hello/")).toEqual({ owner: "octo", repo: "hello" });
    expect(parseGithubRepoUrl("https://github.com/octo/..")).toBeNull();
    expect(parseGithubRepoUrl("https://github.com/octo/../../user")).toBeNull();
    expect(parseGithubRepoUrl("http://github.com/octo/hello")).toBeNull();
    expect(parseGithubRepoUrl("https://github.com.evil.io/octo/hello")).toBeNull();
  });
});
