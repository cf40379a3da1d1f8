import { describe, expect, it } from "vitest";
import { isHeavyRequest } from "./heavy-requests";

const id = "7f1e2d3c-4b5a-4968-8776-655443322110";

describe("isHeavyRequest", () => {
  it("knows the whole-plan reads over REST by their declared paths", () => {
    expect(isHeavyRequest("GET", `/api/tasks/${id}/tree`)).toBe(true);
    expect(isHeavyRequest("GET", `/api/tasks/${id}/tree/compact`)).toBe(true);
    expect(isHeavyRequest("GET", `/api/tasks/${id}/schedule`)).toBe(true);
    expect(isHeavyRequest("GET", `/api/tasks/${id}`)).toBe(false);
    expect(isHeavyRequest("GET", "/api/tasks")).toBe(false);
    expect(isHeavyRequest("GET", `/api/tasks/${id}/tree/extra`)).toBe(false);
    expect(isHeavyRequest("DELETE", `/api/tasks/${id}/tree`)).toBe(false);
  });

  it("and over tRPC, alone or in a batch", () => {
    expect(isHeavyRequest("GET", "/trpc/tasks.tree")).toBe(true);
    expect(isHeavyRequest("GET", "/trpc/tasks.get,tasks.treeCompact")).toBe(true);
    expect(isHeavyRequest("GET", "/trpc/tasks.get,tasks.list")).toBe(false);
  });
});
