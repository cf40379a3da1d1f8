import { describe, expect, it } from "vitest";
import { pageAfterEmptying, pageFromParam, totalPages, visiblePages } from "./page-pagination";

describe("the one pagination's arithmetic", () => {
  it("counts pages, at least one", () => {
    expect(totalPages(0, 9)).toBe(1);
    expect(totalPages(9, 9)).toBe(1);
    expect(totalPages(10, 9)).toBe(2);
  });

  it("shows five page buttons around the current page, within the pages there are", () => {
    expect(visiblePages(7, 20)).toEqual([5, 6, 7, 8, 9]);
    expect(visiblePages(1, 20)).toEqual([1, 2, 3, 4, 5]);
    expect(visiblePages(20, 20)).toEqual([16, 17, 18, 19, 20]);
    expect(visiblePages(2, 3)).toEqual([1, 2, 3]);
  });

  it("reads ?page= as a whole number from 1, anything else as page 1", () => {
    expect(pageFromParam("3")).toBe(3);
    for (const raw of [null, "", "0", "-2", "1.5", "two", "Infinity"]) expect(pageFromParam(raw)).toBe(1);
  });

  it("steps back from a page left empty, to the last page with items for a stale link", () => {
    // The last task of page 2 deleted: page 1.
    expect(pageAfterEmptying(2, 0, 9, 9)).toBe(1);
    // ?page=7 with 10 tasks (2 pages): page 2.
    expect(pageAfterEmptying(7, 0, 10, 9)).toBe(2);
    // Nothing to do: items shown, nothing left at all, or already on page 1.
    expect(pageAfterEmptying(2, 1, 10, 9)).toBeNull();
    expect(pageAfterEmptying(3, 0, 0, 9)).toBeNull();
    expect(pageAfterEmptying(1, 0, 5, 9)).toBeNull();
  });
});
