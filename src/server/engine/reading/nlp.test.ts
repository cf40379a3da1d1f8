import { describe, expect, it } from "vitest";
import { analyse, nounPhrases, sentencesOf, tokensOf } from "./nlp";

describe("nlp", () => {
  it("ends a sentence at a line break, as lists and issue templates need", () => {
    const text =
      "## Features\n- Browse dogs by size\n- Fields: name, breed, size, age\nGitea version (or commit ref): any\n1. Go to settings";
    expect(sentencesOf(text)).toEqual([
      "## Features",
      "- Browse dogs by size",
      "- Fields: name, breed, size, age",
      "Gitea version (or commit ref): any",
      "1. Go to settings",
    ]);
    expect(sentencesOf("Export fails. Thanks in advance! Can you reproduce it?")).toHaveLength(3);
  });

  it("reads the first word of a requirement as a verb and gives roots", () => {
    const tokens = tokensOf("Export invoices as CSV");
    expect(tokens.map((t) => t.pos)).toEqual(["VERB", "NOUN", "ADP", "NOUN"]);
    expect(tokens[1]!.lemma).toBe("invoice");
    expect(tokensOf("Users can upload photos").map((t) => t.pos)).toEqual(["NOUN", "AUX", "VERB", "NOUN"]);
  });

  it("finds noun phrases", () => {
    expect(nounPhrases("Users can upload large photos to the shared gallery.")).toEqual([
      "Users",
      "large photos",
      "the shared gallery",
    ]);
    expect(analyse("")).toEqual([]);
  });
});
