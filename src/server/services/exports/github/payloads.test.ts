import { describe, expect, it } from "vitest";
import { blockersFirst } from "./payloads";

const t = (id: string, depends_on: string[] = []) => ({ id, depends_on });
const ids = (list: { id: string }[]) => list.map((x) => x.id);

describe("blockersFirst", () => {
  it("keeps tree order when nothing waits, and moves a blocker ahead of what waits for it", () => {
    expect(ids(blockersFirst([t("a"), t("b"), t("c")]))).toEqual(["a", "b", "c"]);
    expect(ids(blockersFirst([t("a", ["c"]), t("b"), t("c")]))).toEqual(["b", "c", "a"]);
    expect(ids(blockersFirst([t("a", ["b"]), t("b", ["c"]), t("c")]))).toEqual(["c", "b", "a"]);
  });

  it("ignores tasks outside the list and still places every task once, even around a cycle", () => {
    expect(ids(blockersFirst([t("a", ["elsewhere"]), t("b")]))).toEqual(["a", "b"]);
    expect(ids(blockersFirst([t("a", ["b"]), t("b", ["a"]), t("c")]))).toEqual(["c", "a", "b"]);
  });
});
