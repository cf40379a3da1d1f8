import { describe, expect, it } from "vitest";
import { closedIssueNumbers, pullRequestState } from "./pull-requests";

describe("closedIssueNumbers (GitHub's closing keywords)", () => {
  it("reads every keyword and form GitHub links, for this repository only", () => {
    const body = [
      "Closes #10",
      "fixes #11, Resolved ada/shop#12 and resolves Ada/Shop#13",
      "Fix: #14",
      "FIXED https://github.com/ada/shop/issues/15",
      "close #16; closed #17; resolve #18; fix #19",
      "Fixes octo-org/octo-repo#100",
    ].join("\n");
    expect(closedIssueNumbers(body, "ada/shop")).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18, 19]);
  });

  it("links nothing for a mention, a word in between, another word ending in a keyword, or no number", () => {
    for (const body of [
      "See #10",
      "Fixes issue #615",
      "prefixes #3",
      "hotfix #4",
      "Closes #",
      "Closes #12abc",
      null,
      "",
    ])
      expect(closedIssueNumbers(body, "ada/shop")).toEqual([]);
    expect(closedIssueNumbers("Closes #5 and closes #5", "ada/shop")).toEqual([5]);
    // A link to a comment closes its issue on github.com too (isaacs/github#1731).
    expect(closedIssueNumbers("Fix https://github.com/ada/shop/issues/7#issuecomment-1", "ada/shop")).toEqual(
      [7],
    );
  });

  it("calls a merged pull request merged, though GitHub says closed", () => {
    expect(pullRequestState({ state: "closed", merged_at: "2026-01-01T00:00:00Z" })).toBe("merged");
    expect(pullRequestState({ state: "closed", merged_at: null })).toBe("closed");
    expect(pullRequestState({ state: "open", merged_at: null })).toBe("open");
  });
});
