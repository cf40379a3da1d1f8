import { describe, expect, it } from "vitest";
import type { PlannedFields, ReplanChange } from "../../shared/schemas/replan";
import { type CoarseNode, coarsenPlan, mergedFields } from "./coarsen";

const fields = (title: string, over: Partial<PlannedFields> = {}): PlannedFields => ({
  description: title,
  implementation_details: null,
  acceptance_criteria: [`${title} works`],
  requirement_ids: [],
  story_points: 2,
  complexity_score: 3,
  estimate_hours: { low: 2, likely: 4, high: 8 },
  ...over,
});
const node = (
  id: string,
  parentId: string,
  over: Partial<PlannedFields> = {},
  locked: CoarseNode["locked"] = [],
) => ({
  id,
  parentId,
  fields: fields(id, over),
  locked,
});
const project = { id: "root", isProject: true, fields: fields("Project") };

/** The update change of a task: what its fields become. */
const updateOf = (changes: ReplanChange[], id: string) => {
  const c = changes.find((x) => x.op === "update" && x.task_id === id);
  return c?.op === "update" ? c.after : undefined;
};

describe("coarsenPlan", () => {
  it("merges each group's subtasks into it, keeping every requirement id and summing the estimate", () => {
    const out = coarsenPlan(project, [
      node("g1", "root"),
      node("g2", "root"),
      node("a", "g1", { requirement_ids: ["R1"] }),
      node("b", "g1", { requirement_ids: ["R2", "R1"], story_points: 5 }),
      node("c", "g2"),
      node("c1", "c", { requirement_ids: ["R3"] }),
    ]);
    expect(updateOf(out.changes, "g1")).toMatchObject({
      requirement_ids: ["R1", "R2"],
      story_points: 8,
      estimate_hours: { low: 4, likely: 8, high: 16 },
    });
    const removes = out.changes.filter((c) => c.op === "remove");
    expect(removes.map((r) => [r.task_id, r.merged_into, r.requires.length])).toEqual([
      ["a", "g1", 1],
      ["b", "g1", 1],
      ["c", "g2", 1],
    ]);
    // The deeper leaf's requirement reaches the group it merges into.
    expect(updateOf(out.changes, "g2")?.requirement_ids).toEqual(["R3"]);
    expect(out.nothing).toBeNull();
  });

  it("pairs neighbouring leaves, never across or with a locked one", () => {
    const out = coarsenPlan(project, [
      node("a", "root"),
      node("b", "root"),
      node("done", "root", {}, ["completed"]),
      node("c", "root"),
      node("d", "root"),
      node("e", "root"),
    ]);
    const removes = out.changes.filter((c) => c.op === "remove").map((c) => [c.task_id, c.merged_into]);
    expect(removes).toEqual([
      ["b", "a"],
      ["d", "c"],
    ]);
    expect(updateOf(out.changes, "a")?.description).toMatch(/^a; b\n/);
    expect(out.keptLocked.map((k) => k.task_id)).toEqual(["done"]);
  });

  it("takes one or two leaves into a task that is not the project", () => {
    const out = coarsenPlan({ id: "g", isProject: false, fields: fields("Group") }, [
      node("a", "g", { requirement_ids: ["R4"] }),
      node("b", "g"),
    ]);
    expect(out.changes.filter((c) => c.op === "remove").map((c) => c.merged_into)).toEqual(["g", "g"]);
  });

  it("says why when nothing can be merged", () => {
    expect(coarsenPlan({ id: "x", isProject: false, fields: fields("Write docs") }, []).nothing).toBe(
      "“Write docs” has no subtasks: there is nothing to merge.",
    );
    expect(coarsenPlan(project, [node("a", "root"), node("b", "root")]).nothing).toMatch(/only 2 tasks/);
    const locked = coarsenPlan(project, [
      node("g", "root"),
      node("ci", "g", { requirement_ids: ["R2"] }, ["completed"]),
      node("more", "g"),
    ]);
    expect(locked.changes).toEqual([]);
    expect(locked.nothing).toBe(
      "Nothing can be merged: “ci” (R2) is done and locked. Reopen or unlock them to let a re-plan change them.",
    );
  });

  it("caps the merged criteria and story points at what a task may have", () => {
    const many = Array.from({ length: 12 }, (_, i) => fields(`t${i}`, { story_points: 13 }));
    const merged = mergedFields(fields("into"), many, true);
    expect(merged.acceptance_criteria).toHaveLength(10);
    expect(merged.story_points).toBe(13);
  });
});
