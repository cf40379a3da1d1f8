import { describe, expect, it } from "vitest";
import type { Reading } from "../../../../shared/schemas/reading";
import {
  addWorkItem,
  draftErrors,
  draftOf,
  hasDraftErrors,
  isChanged,
  mergeWithNext,
  readingInput,
  removeItem,
  requirementIds,
  serverDraftErrors,
  setRole,
  setText,
  splitItem,
  splitPoint,
} from "./reading-draft";

const READING: Reading = {
  project_id: "p",
  status: "awaiting_review",
  kind: "product",
  kind_label: "new product",
  kind_reasons: ["it describes something new"],
  kinds: [{ id: "product", label: "new product" }],
  items: [
    { id: "R1", text: "Users can create lists", role: "work" },
    { id: "R2", text: "Items sync offline and show on every phone", role: "work" },
    { id: null, text: "a web version", role: "non_goal" },
  ],
};

describe("the reading a person edits", () => {
  it("numbers work items as the plan will, again after every change", () => {
    let d = draftOf(READING);
    expect(requirementIds(d)).toEqual(["R1", "R2", null]);
    d = setRole(d, 0, "context");
    expect(requirementIds(d)).toEqual([null, "R1", null]);
    d = addWorkItem(d);
    expect(requirementIds(d)).toEqual([null, "R1", null, "R2"]);
    expect(d.items[3]).toMatchObject({ text: "", role: "work" });
    expect(new Set(d.items.map((i) => i.key)).size).toBe(4);
  });

  it("splits at the caret, or at the 'and' nearest the middle, and merges back", () => {
    const d = draftOf(READING);
    expect(splitPoint("Users can create lists", 0)).toBeNull();
    const atAnd = splitItem(d, 1, null);
    expect(atAnd.items.map((i) => i.text)).toEqual([
      "Users can create lists",
      "Items sync offline",
      "Show on every phone",
      "a web version",
    ]);
    expect(atAnd.items[2]!.role).toBe("work");
    const atCaret = splitItem(d, 1, "Items sync offline".length);
    expect(atCaret.items[1]!.text).toBe("Items sync offline");
    const merged = mergeWithNext(atAnd, 1);
    expect(merged.items.map((i) => i.text)).toEqual([
      "Users can create lists",
      "Items sync offline; Show on every phone",
      "a web version",
    ]);
    expect(mergeWithNext(merged, 2)).toBe(merged);
  });

  it("says what the server would refuse, and places the server's refusals on their items", () => {
    let d = addWorkItem(draftOf(READING));
    const errors = draftErrors(d);
    expect(errors.items).toEqual({ 3: "Enter the item's text, or delete the item." });
    expect(hasDraftErrors(errors)).toBe(true);
    d = removeItem(d, 3);
    expect(hasDraftErrors(draftErrors(d))).toBe(false);
    d = setRole(setRole(d, 0, "context"), 1, "question");
    expect(draftErrors(d).form).toMatch(/at least one work item/);
    expect(
      serverDraftErrors([
        { field: "items.2.role", message: "bad" },
        { field: "kind", message: "k" },
      ]),
    ).toEqual({
      items: { 2: "bad" },
      form: "k",
    });
  });

  it("sends the kind and the items in order, trimmed, and knows when nothing changed", () => {
    const d = draftOf(READING);
    expect(isChanged(d, READING)).toBe(false);
    const edited = setText(d, 0, "  Users can share lists ");
    expect(isChanged(edited, READING)).toBe(true);
    expect(readingInput(edited)).toEqual({
      kind: "product",
      items: [
        { text: "Users can share lists", role: "work" },
        { text: "Items sync offline and show on every phone", role: "work" },
        { text: "a web version", role: "non_goal" },
      ],
    });
  });
});
