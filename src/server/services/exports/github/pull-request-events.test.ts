import { describe, expect, it } from "vitest";
import { readPullRequestEvent } from "./pull-request-events";
import { githubPageUrl, githubWebBase } from "./urls";

const delivery = (pr: Record<string, unknown> = {}, repo: Record<string, unknown> = {}) => ({
  action: "opened",
  number: 7,
  pull_request: {
    number: 7,
    title: "Invites",
    html_url: "https://github.com/ada/shop/pull/7",
    state: "open",
    merged: false,
    merged_at: null,
    body: "Closes #3, fixes ada/shop#4 and closes other/repo#5",
    base: { ref: "main", repo: { default_branch: "main" } },
    ...pr,
  },
  repository: { id: 42, full_name: "Ada/Shop", default_branch: "main", ...repo },
});

describe("a pull_request delivery", () => {
  it("reads the pull request, the issues of its repository it closes, and its state", () => {
    expect(readPullRequestEvent(delivery())).toEqual({
      number: 7,
      title: "Invites",
      url: "https://github.com/ada/shop/pull/7",
      updatedAt: null,
      state: "open",
      closes: [3, 4],
      repository: { id: "42", fullName: "ada/shop" },
    });
    expect(
      readPullRequestEvent(delivery({ state: "closed", merged: true, merged_at: "2026-11-27T10:00:00Z" }))
        ?.state,
    ).toBe("merged");
    expect(readPullRequestEvent(delivery({ state: "closed" }))?.state).toBe("closed");
  });

  it("closes nothing off the default branch, and ignores what is not a pull request delivery", () => {
    expect(readPullRequestEvent(delivery({ base: { ref: "dev" } }))?.closes).toEqual([]);
    expect(readPullRequestEvent(delivery({ body: null }))?.closes).toEqual([]);
    for (const bad of [
      null,
      "text",
      { pull_request: {} },
      delivery({ number: -1 }),
      delivery({ number: "7" }),
      delivery({ html_url: 5 }),
      delivery({}, { id: "42" }),
      delivery({}, { full_name: null }),
    ]) {
      expect(readPullRequestEvent(bad)).toBeNull();
    }
  });

  it("keeps its page only on GitHub over https, else names the pull request's own page, and reads updated_at (issue 39)", () => {
    for (const bad of [
      "javascript:alert(1)",
      "http://github.com/ada/shop/pull/7",
      "https://evil.example/ada/shop/pull/7",
      "https://user:pw@github.com/ada/shop/pull/7",
      "not a url",
    ])
      expect(readPullRequestEvent(delivery({ html_url: bad }))?.url, bad).toBe(
        "https://github.com/Ada/Shop/pull/7",
      );
    expect(readPullRequestEvent(delivery({ updated_at: "2026-11-27T10:00:00Z" }))?.updatedAt).toEqual(
      new Date("2026-11-27T10:00:00Z"),
    );
    expect(readPullRequestEvent(delivery({ updated_at: "soon" }))?.updatedAt).toBeNull();
    expect(readPullRequestEvent(delivery({}, { full_name: "../../x" }))).toBeNull();
  });
});

describe("pages on the GitHub in use", () => {
  it("is github.com for GitHub.com and a stand-in, the server's host for GitHub Enterprise", () => {
    expect(githubWebBase("https://api.github.com")).toBe("https://github.com");
    expect(githubWebBase("http://127.0.0.1:4010")).toBe("https://github.com");
    expect(githubWebBase("https://ghe.example.com/api/v3")).toBe("https://ghe.example.com");
    expect(githubPageUrl("https://ghe.example.com/a/b/pull/1", "https://ghe.example.com/api/v3")).toBe(
      "https://ghe.example.com/a/b/pull/1",
    );
    expect(githubPageUrl("https://github.com/a/b/pull/1", "https://ghe.example.com/api/v3")).toBeNull();
    expect(githubPageUrl(null, "https://api.github.com")).toBeNull();
  });
});
