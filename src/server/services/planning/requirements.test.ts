import { describe, expect, it } from "vitest";
import { extractScope } from "./requirements";

describe("reading what a description states", () => {
  it("takes bullets, numbered items and sentences as requirements, in order, none capped", () => {
    const items = Array.from({ length: 30 }, (_, i) => `- Feature number ${i + 1} works for every user`).join(
      "\n",
    );
    const scope = extractScope(`Intro sentence one. Second sentence!\n${items}\n1) numbered item here`);
    expect(scope.requirements).toHaveLength(33);
    expect(scope.requirements[0]).toMatchObject({ id: "R1", text: "Intro sentence one" });
    expect(scope.requirements[1]!.text).toBe("Second sentence!");
    expect(scope.requirements.at(-1)).toMatchObject({ id: "R33", text: "numbered item here" });
  });

  it("lists non-goals from their heading, inline headings and self-declared items, and plans none of them", () => {
    const scope = extractScope(
      "## Scope\n- Chat rooms\n- Video calls are out of scope\n\nNon-goals: payments, native apps\n\n**Later**\n- Dark mode\n\nexport to pdf later maybe. no db needed",
    );
    expect(scope.requirements.map((r) => r.text)).toEqual(["Chat rooms"]);
    expect(scope.nonGoals).toEqual([
      "Video calls are out of scope",
      "payments",
      "native apps",
      "Dark mode",
      "export to pdf later maybe",
      "no db needed",
    ]);
  });

  it("keeps background as context, merges repeats, and does not split at abbreviations or file names", () => {
    const scope = extractScope(
      "Background:\nOur nurses swap shifts on paper.\n\nDeploy on fly.io, e.g. in two regions. Users can export CSV. users can export CSV!",
    );
    expect(scope.context).toEqual(["Our nurses swap shifts on paper"]);
    expect(scope.requirements.map((r) => r.text)).toEqual([
      "Deploy on fly.io, e.g. in two regions",
      "Users can export CSV",
    ]);
  });

  it("reads who a requirement is for, with or without a modal verb, and the benefit", () => {
    const [a, b, c, d] = extractScope(
      "As a manager, I want to approve swaps so that the ward stays staffed.\nSite coordinators enter visit data.\nAdmins can remove messages.\nPatients are identified by ID only.",
    ).requirements;
    expect(a).toMatchObject({ actor: "manager", action: "approve swaps", benefit: "the ward stays staffed" });
    expect(b).toMatchObject({ actor: "coordinators", action: "enter visit data" });
    expect(c).toMatchObject({ actor: "admins", action: "remove messages" });
    expect(d).toMatchObject({ actor: null });
  });

  it("reads the additional requirements too, under their own section", () => {
    const scope = extractScope("A todo app.", "Must support keyboard shortcuts");
    expect(scope.requirements.map((r) => [r.text, r.section])).toEqual([
      ["A todo app", null],
      ["Must support keyboard shortcuts", "Additional requirements"],
    ]);
  });
});
