import { describe, expect, it } from "vitest";
import type { OutlineNode } from "./outline";
import { siblingOrder } from "./stated-order";

const leaf = (title: string, extra: Partial<OutlineNode> = {}): OutlineNode => ({
  title,
  details: "",
  criteria: [],
  requirementIds: [],
  hours: 4,
  children: [],
  covers: [],
  ...extra,
});
const req = (id: string, text: string) =>
  leaf(`${id}: ${text}`, { covers: [{ id, text }] as OutlineNode["covers"] });

describe("siblingOrder", () => {
  it("puts setup first, the release last, checks before shipping and a series in turn", () => {
    const order = siblingOrder([
      leaf("Setup", { role: "setup" }),
      req("R1", "Users can search recipes"),
      req("R2", "Users can rate recipes"),
      leaf("Quality and release", { role: "release" }),
    ]);
    expect(order).toEqual([[], [1], [1], [2, 3]]);
    expect(
      siblingOrder([
        leaf("Security review", { role: "verify" }),
        leaf("Acceptance run", { role: "verify" }),
        leaf("Cut over", { role: "ship", sequence: "cut-over" }),
        leaf("Roll out", { role: "ship", sequence: "cut-over" }),
      ]),
    ).toEqual([[], [], [1, 2], [1, 2, 3]]);
  });

  it("orders nothing by shared words, and keeps each stated series in its own order", () => {
    expect(
      siblingOrder([
        req("R1", "A public REST API lists the orders"),
        req("R2", "Orders are stored in a database with their history"),
        req("R3", "Customers pay for their orders through Stripe"),
        req("R4", "Integrate with Stripe for card payments"),
        req("R5", "Admins export a monthly report"),
      ]),
    ).toEqual([[], [], [], [], []]);
    expect(
      siblingOrder([
        leaf("Train the model", { sequence: "stated-0" }),
        leaf("Export invoices", {}),
        leaf("Validate on last quarter", { sequence: "stated-0" }),
        leaf("Upgrade Rails", { sequence: "stated-1" }),
        leaf("Deploy behind the API", { sequence: "stated-0" }),
        leaf("Fix deprecations", { sequence: "stated-1" }),
      ]),
    ).toEqual([[], [], [1], [], [3], [4]]);
  });
});

describe("the offline planner's first level", () => {
  it("proposes setup first and the release after every workstream", async () => {
    const { createOfflinePlanner } = await import("./offline-planner");
    const { briefOfText } = await import("../../brief");
    const description = [
      "Build a recipe sharing site.",
      "- Users sign up and sign in with e-mail",
      "- Users post recipes with photos",
      "- Users search recipes by ingredient",
      "- Users rate and comment on recipes",
      "- Admins moderate comments",
    ].join("\n");
    const brief = briefOfText(description);
    const { value } = await createOfflinePlanner().splitTask({
      brief,
      task: { description, complexity_score: 8, implementation_details: null },
      ancestors: [],
      depth: 0,
      maxDepth: 4,
      maxSubtasks: 7,
    });
    expect(value.length).toBeGreaterThanOrEqual(3);
    const last = value.length;
    expect(value[0]!.depends_on).toEqual([]);
    for (const middle of value.slice(1, -1)) expect(middle.depends_on).toContain(1);
    expect(value.at(-1)!.depends_on).toEqual(Array.from({ length: last - 2 }, (_, i) => i + 2));
    for (const s of value) {
      expect(s.estimate_low_hours).toBeLessThanOrEqual(s.estimated_hours);
      expect(s.estimate_high_hours).toBeGreaterThan(s.estimated_hours);
    }
  });
});
