import { describe, expect, it } from "vitest";
import { nodeUpdates } from "./node-editor";

const node = {
  description: "Search page",
  implementation_details: "Use the index.",
  story_points: 3,
  complexity_score: 4,
  acceptance_criteria: ["Finds by title", "Empty query shows all"],
};
const form = {
  description: "Search page",
  details: "Use the index.",
  points: "3",
  complexity: "4",
  criteria: "Finds by title\nEmpty query shows all",
};

describe("nodeUpdates", () => {
  it("sends nothing for an unchanged form, even with surrounding spaces", () => {
    expect(
      nodeUpdates(node, { ...form, description: "  Search page \n", details: " Use the index. " }),
    ).toEqual({});
  });

  it("sends only what changed, and clears a field left empty", () => {
    expect(nodeUpdates(node, { ...form, description: "Search page\nwith filters", points: "5" })).toEqual({
      description: "Search page\nwith filters",
      story_points: 5,
    });
    expect(nodeUpdates(node, { ...form, details: "  ", points: "", complexity: "" })).toEqual({
      implementation_details: null,
      story_points: null,
      complexity_score: null,
    });
    expect(nodeUpdates({ ...node, implementation_details: null }, { ...form, details: "" })).toEqual({});
  });

  it("reads acceptance criteria one per line, blank lines dropped", () => {
    expect(nodeUpdates(node, { ...form, criteria: " Finds by title \n\nEmpty query shows all\n" })).toEqual(
      {},
    );
    expect(nodeUpdates(node, { ...form, criteria: "Finds by title\nFinds by tag" })).toEqual({
      acceptance_criteria: ["Finds by title", "Finds by tag"],
    });
    expect(nodeUpdates(node, { ...form, criteria: "" })).toEqual({ acceptance_criteria: [] });
  });
});
