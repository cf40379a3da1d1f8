import { describe, expect, it } from "vitest";
import { MAX_TOASTS, withToast } from "./toast";

const t = (id: string, type = "success") => ({ id, type });

describe("the toasts on screen", () => {
  it("are at most two, the newest kept", () => {
    let list = [t("a")];
    list = withToast(list, t("b"));
    list = withToast(list, t("c"));
    expect(MAX_TOASTS).toBe(2);
    expect(list.map((x) => x.id)).toEqual(["b", "c"]);
  });

  it("keep an error over an older success, and replace a toast shown again under its id", () => {
    let list = [t("err", "error"), t("a")];
    list = withToast(list, t("b"));
    expect(list.map((x) => x.id)).toEqual(["err", "b"]);
    list = withToast(list, t("b", "info"));
    expect(list).toEqual([t("err", "error"), t("b", "info")]);
    list = withToast([t("e1", "error"), t("e2", "error")], t("e3", "error"));
    expect(list.map((x) => x.id)).toEqual(["e2", "e3"]);
  });
});
