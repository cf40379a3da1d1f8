/**
 * Every description the API accepts plans with the offline planner (decision 033, issue 38): long lists,
 * long lines, hundreds of headings, tables, code, unicode, punctuation or URLs only, the longest texts of
 * the project's corpus and of the external one, and each corpus joined up to DESCRIPTION_MAX, planned as
 * the engine plans them (tests/eval/driver.ts), with the default limits and the extremes the API allows.
 */
import { describe, expect, it } from "vitest";
import { plannedSubtask } from "../../src/shared/schemas/plan";
import { DESCRIPTION_MAX, techPreferencesInput } from "../../src/shared/schemas/tasks";
import { briefForCase, type DriverOptions, planCase } from "../eval/driver";
import { offlinePlanner } from "../eval/planners";
import { corpusTexts, externalTexts, type LongText, syntheticTexts } from "../support/long-descriptions";

/** The defaults, the narrowest and deepest split, one wide level, and the limits that left one slot. */
const LIMITS: Partial<DriverOptions>[] = [
  {},
  { maxSubtasks: 2, maxDepth: 6 },
  { maxSubtasks: 10, maxDepth: 1 },
  { maxSubtasks: 3, maxDepth: 2, threshold: 1 },
];

const planner = offlinePlanner();

async function expectPlans(text: LongText, additional?: string) {
  expect(text.description.length).toBeLessThanOrEqual(DESCRIPTION_MAX);
  const evalCase = {
    id: text.name,
    kind: "long",
    description: text.description,
    requirements: [],
    technologies: [],
    non_goals: [],
    ...(additional ? { additional_requirements: additional } : {}),
  };
  const stated = briefForCase(evalCase).scope.requirements.map((r) => r.id);
  for (const limits of LIMITS) {
    const plan = await planCase(planner, evalCase, limits);
    const where = `${text.name} (${text.description.length} chars, ${JSON.stringify(limits)})`;
    expect(plan.error, where).toBeNull();
    expect(
      plan.nodes.filter((n) => n.needsAttention).map((n) => n.needsAttention),
      where,
    ).toEqual([]);
    expect(plan.context?.epics.length, where).toBeGreaterThan(0);
    // Nothing stated is lost: each requirement is cited by a node (a group that stays a leaf cites all below it).
    const cited = new Set(plan.nodes.flatMap((n) => n.requirement_ids ?? []));
    expect(
      stated.filter((id) => !cited.has(id)),
      where,
    ).toEqual([]);
  }
}

// Reading 20,000 characters with the learned reader takes seconds on a loaded two-core machine.
describe("every description the API accepts plans with the offline planner", { timeout: 60_000 }, () => {
  it.each(syntheticTexts().map((t) => [t.name, t] as const))("%s", async (_, text) => {
    await expectPlans(text);
  });

  it.each(corpusTexts().map((t) => [t.name, t] as const))("%s", async (_, text) => {
    await expectPlans(text);
  });

  it.each(externalTexts().map((t) => [t.name, t] as const))("%s", async (_, text) => {
    await expectPlans(text);
  });

  it("plans the longest texts with additional requirements at their limit too", async () => {
    const additional = Array.from({ length: 200 }, (_, i) => `- Audit export rule ${i} nightly`)
      .join("\n")
      .slice(0, 5000);
    expect(techPreferencesInput.parse({ additional_requirements: additional }).additional_requirements).toBe(
      additional.trim(),
    );
    for (const text of [syntheticTexts()[1]!, ...externalTexts().slice(-1), ...corpusTexts().slice(-1)])
      await expectPlans(text, additional);
  });

  it("plans a description stating hundreds of requirements with groups citing every one below them", async () => {
    const [text] = syntheticTexts().filter((t) => t.name === "bullets to the limit");
    const evalCase = {
      id: "ids",
      kind: "long",
      description: text!.description,
      requirements: [],
      technologies: [],
      non_goals: [],
    };
    const stated = briefForCase(evalCase).scope.requirements;
    expect(stated.length).toBeGreaterThan(300);
    const plan = await planCase(planner, evalCase, { maxDepth: 1, maxSubtasks: 10 });
    expect(plan.error).toBeNull();
    const groups = plan.nodes.filter((n) => n.depth === 1 && (n.requirement_ids?.length ?? 0) > 50);
    expect(groups.length).toBeGreaterThan(0);
    // Its fields stay within the plan's schema: a title, notes and criteria of the allowed lengths.
    for (const n of plan.nodes.slice(1)) {
      expect(n.description.length).toBeLessThanOrEqual(2000);
      expect((n.implementation_details ?? "").length).toBeLessThanOrEqual(4000);
      for (const c of n.acceptance_criteria ?? []) expect(c.length).toBeLessThanOrEqual(500);
    }
    expect(plannedSubtask.shape.requirement_ids.safeParse(stated.map((r) => r.id)).success).toBe(true);
  });
});
