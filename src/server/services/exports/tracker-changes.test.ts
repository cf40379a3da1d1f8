import { describe, expect, it } from "vitest";
import { DESCRIPTION_MAX } from "../../../shared/schemas/tasks";
import { describedPart, normalText, withinDescription, withTitle } from "./tracker-changes";

describe("reading an edit made in a tracker", () => {
  const baseline = {
    title: "Sign-in",
    text: "Sign-in\nPeople sign in with e-mail.\n\n**Complexity:** 3/10\n\n_Planned with Atomize._",
    story_points: 3,
    description: "Sign-in\nPeople sign in with e-mail.",
  };

  it("compares text as people read it: line ends, trailing spaces and extra blank lines do not count", () => {
    expect(normalText("a  \r\nb\r\n\r\n\r\n\r\nc\n")).toBe("a\nb\n\nc");
  });

  it("cuts what the export added from the text, wherever it was left", () => {
    const edited =
      "Sign-in\nPeople sign in with e-mail or a passkey.\n\n**Complexity:** 3/10\n\n_Planned with Atomize._";
    expect(describedPart(edited, baseline)).toBe("Sign-in\nPeople sign in with e-mail or a passkey.");
    // They rewrote the end of the added part: the text up to where it began.
    const rewritten = "Sign-in\nWith passkeys.\n\n**Complexity:** 3/10\n\nPlanned again by the team.";
    expect(describedPart(rewritten, baseline)).toBe("Sign-in\nWith passkeys.");
    // Nothing of it left: the whole text is theirs.
    expect(describedPart("Only this", baseline)).toBe("Only this");
  });

  it("replaces only the title line of a description", () => {
    expect(withTitle("\n  Old title\nBody", "New title")).toBe("\n  New title\nBody");
    expect(withTitle("", "New title")).toBe("New title");
  });

  it("keeps text from a tracker within the description's limit, never cutting a character in two", () => {
    expect(withinDescription("short")).toBe("short");
    const long = `${"a".repeat(DESCRIPTION_MAX - 2)}😀😀`;
    const cut = withinDescription(long);
    expect(cut.length).toBeLessThanOrEqual(DESCRIPTION_MAX);
    expect(cut.endsWith("…")).toBe(true);
    expect(/[\uD800-\uDBFF]…$/.test(cut)).toBe(false);
  });
});
