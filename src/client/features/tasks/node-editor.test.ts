import { describe, expect, it } from "vitest";
import { nodeUpdates } from "./node-editor";

const node = {
  description: "Search page",
  implementation_details: "Use the index.",
  story_points: 3,
  complexity_score: 4,
};
const form = { description: "Search page", details: "Use the index.", points: "3", complexity: "4" };

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
});
