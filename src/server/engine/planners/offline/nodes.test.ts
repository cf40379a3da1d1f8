import { describe, expect, it } from "vitest";
import type { Requirement } from "../../reading/types";
import { boundedNotes, group, idList, requirementLeaf, titleText } from "./nodes";

const requirement = (n: number, text = `Staff can book room ${n}`) =>
  ({ id: `R${n}`, text, section: null }) as unknown as Requirement;

describe("outline nodes within the plan's bounds (decision 033)", () => {
  it("keeps notes to whole lines within 4,000 characters and counts the lines left out", () => {
    const lines = Array.from({ length: 100 }, (_, i) => `- line ${i} ${"x".repeat(80)}`);
    const notes = boundedNotes(lines.join("\n"));
    expect(notes.length).toBeLessThanOrEqual(4000);
    const kept = notes.split("\n");
    expect(kept.slice(0, -1)).toEqual(lines.slice(0, kept.length - 1));
    expect(kept.at(-1)).toBe(`... and ${lines.length - kept.length + 1} more lines (see the description).`);
    // One line longer than the bound on its own is cut at a word.
    const long = boundedNotes(`R1 as stated: "${"word ".repeat(2000)}"\nEstimated by rule.`);
    expect(long.length).toBeLessThanOrEqual(4000);
    expect(long).toMatch(/word…\n\.\.\. and 1 more line \(see the description\)\.$/);
    expect(boundedNotes("short")).toBe("short");
  });

  it("quotes a requirement of thousands of characters within the bounds of notes and criteria", () => {
    const node = requirementLeaf(requirement(1, `Staff can create ${"long ".repeat(1500)}bookings`));
    expect(node.details.length).toBeLessThanOrEqual(4000);
    for (const c of node.criteria) expect(c.length).toBeLessThanOrEqual(500);
    expect(node.title.length).toBeLessThanOrEqual(160);
  });

  it("lists every id a group covers, however many, and words long id lists by count", () => {
    const leaves = Array.from({ length: 300 }, (_, i) => requirementLeaf(requirement(i * 2 + 1)));
    const node = group("Everything", leaves);
    expect(node.requirementIds).toHaveLength(300);
    expect(node.details.length).toBeLessThanOrEqual(4000);
    expect(node.details.split("\n")[0]).toBe("Covers 300 requirements from R1 to R599.");
    expect(node.criteria[1]).toBe("300 requirements from R1 to R599 shown working together on one build");
    expect(idList([requirement(1), requirement(2), requirement(3), requirement(5)])).toBe("R1-R3, R5");
  });

  it("drops a trailing aside from a title at once, however long the text", () => {
    expect(titleText("Export the report (half our juniors sit on the wrong side otherwise)")).toBe(
      "Export the report",
    );
    expect(titleText("Export the report (PDF)")).toBe("Export the report (PDF)");
    const started = performance.now();
    titleText(`Export the report (${"word ".repeat(3000)}`);
    titleText(`Export ${"(a b c d ".repeat(500)})`);
    expect(performance.now() - started).toBeLessThan(200);
  });

  it("titles a long sentence by its first clause, outside brackets and past an opening phrase", () => {
    expect(
      titleText(
        'The special-trip request is published to every driver using the app and remains "visible" until some driver accepts it',
      ),
    ).toBe("The special-trip request is published to every driver using the app…");
    expect(
      titleText(
        "Load everything raw into Snowflake (a RAW database, one schema per source), never transformed in flight, nightly",
      ),
    ).toBe("Load everything raw into Snowflake (a RAW database, one schema per source)…");
    expect(
      titleText(
        "For the two most promising options, build a proof of concept in the API and the web app behind one real flag",
      ),
    ).toBe("For the two most promising options, build a proof of concept in the API…");
    // Short enough: whole.
    expect(titleText("Users sign in, and admins approve them")).toBe(
      "Users sign in, and admins approve them",
    );
  });

  it("titles what a pronoun does as the thing to do", () => {
    expect(titleText("It builds the docker image")).toBe("Build the docker image");
    expect(titleText("it fetches the feed every hour")).toBe("Fetch the feed every hour");
    expect(titleText("It notifies the admin")).toBe("Notify the admin");
    expect(titleText("It uses a cache")).toBe("Use a cache");
    expect(titleText("It is fast")).toBe("It is fast");
  });
});
