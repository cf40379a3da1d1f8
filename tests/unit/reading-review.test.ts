import { describe, expect, it } from "vitest";
import { briefOf, readingToCheck } from "../../src/server/engine/brief";
import { buildOutline, type OutlineNode } from "../../src/server/engine/planners/offline/outline";
import { KIND_LABELS } from "../../src/server/engine/reading/kind";
import { extractScope } from "../../src/server/engine/reading/requirements";
import {
  applyReading,
  KIND_CHOSEN_REASON,
  type StoredReading,
  scopeOfReading,
  shownItems,
  storedReadingOf,
} from "../../src/server/engine/reading/review";
import { READING_KINDS } from "../../src/shared/schemas/reading";
import { CORPUS, HELD_OUT_CASES } from "../eval/corpus/index";

/**
 * A reading checked before planning (issue 38): unchanged, it plans exactly like no check at all; changed,
 * it plans what the person says.
 */

const TUNING = CORPUS.filter((c) => !HELD_OUT_CASES.includes(c));
const LIMITS = { maxDepth: 4, maxSubtasks: 7 };

const rowOf = (description: string, reading: StoredReading | null = null) => ({
  description,
  options: { max_depth: 4, max_subtasks: 7, tech_preferences: {} },
  // As the database gives it back: JSON, nothing else.
  reading: reading === null ? null : JSON.parse(JSON.stringify(reading)),
});

/** What the user sends when they change nothing: the items as shown. */
const asShown = (r: StoredReading) => ({
  kind: r.kind,
  items: shownItems(r).map(({ text, role }) => ({ text, role })),
});

function shape(nodes: OutlineNode[]): unknown[] {
  return nodes.map((n) => [n.title, n.requirementIds, shape(n.children)]);
}

// Each test reads every tuning case twice or more (about 10-20 ms a case, several times that on a loaded CI).
describe("a reading checked without changes", { timeout: 60_000 }, () => {
  it("gives back the scope it was made from, for every tuning case", () => {
    for (const c of TUNING) {
      const scope = extractScope(c.description);
      const stored = storedReadingOf(JSON.parse(JSON.stringify(readingToCheck(rowOf(c.description)))))!;
      expect(scopeOfReading(stored), c.id).toEqual(scope);
      expect(scopeOfReading(applyReading(stored, asShown(stored))), c.id).toEqual(scope);
    }
  });

  it("briefs every planner exactly as planning without a check, and the outline is the same plan", () => {
    const kinds = new Set<string>();
    for (const c of TUNING) {
      const plain = briefOf(rowOf(c.description), null);
      const stored = applyReading(
        readingToCheck(rowOf(c.description)),
        asShown(readingToCheck(rowOf(c.description))),
      );
      const checked = briefOf(rowOf(c.description, stored), null);
      expect(checked, c.id).toEqual(plain);
      expect(shape(buildOutline(checked, LIMITS).children), c.id).toEqual(
        shape(buildOutline(plain, LIMITS).children),
      );
      kinds.add(plain.kind.id);
    }
    // The corpus holds descriptions of many kinds: the property is not shown on products alone.
    expect(kinds.size).toBeGreaterThanOrEqual(6);
  });
});

describe("a reading changed by a person", () => {
  const text = `# Shared shopping list

- Users can create lists and invite family members by email
- Items can be ticked off and the change shows on every phone at once
- Lists work offline and sync when back online

Out of scope: a web version.`;

  it("plans only work items, numbered again in order, with the chosen kind", () => {
    const stored = readingToCheck(rowOf(text));
    const shown = shownItems(stored);
    expect(shown.filter((i) => i.role === "work").map((i) => i.id)).toEqual(["R1", "R2", "R3"]);
    expect(shown.filter((i) => i.role !== "work").every((i) => i.id === null)).toBe(true);
    const items = shown.map(({ text, role }) => ({ text, role }));
    // The second requirement becomes a constraint; a work item is added; the non-goal becomes work.
    items[1]!.role = "constraint";
    items.push({ text: "Admins can export every list as CSV", role: "work" });
    const nonGoal = items.findIndex((i) => i.role === "non_goal");
    items[nonGoal]!.role = "work";
    const next = applyReading(stored, { kind: "feature", items });
    const brief = briefOf(rowOf(text, next), null);
    expect(brief.kind).toEqual({ id: "feature", label: KIND_LABELS.feature, because: [KIND_CHOSEN_REASON] });
    expect(brief.scope.requirements.map((r) => [r.id, r.text])).toEqual([
      ["R1", items[0]!.text],
      ["R2", items[2]!.text],
      ["R3", items[nonGoal]!.text],
      ["R4", "Admins can export every list as CSV"],
    ]);
    expect(brief.scope.constraints).toContain(items[1]!.text);
    expect(brief.scope.nonGoals).toEqual([]);
    // An added work item is read for its actor, as the reader would.
    expect(brief.scope.requirements[3]).toMatchObject({
      actor: "admins",
      action: "export every list as CSV",
    });
    // A kept item keeps what the review does not show.
    expect(brief.scope.requirements[0]!.section).toBe(scopeOfReading(stored).requirements[0]!.section);
    const leaves = (nodes: OutlineNode[]): OutlineNode[] =>
      nodes.flatMap((n) => (n.children.length ? leaves(n.children) : [n]));
    const covered = new Set(leaves(buildOutline(brief, LIMITS).children).flatMap((n) => n.requirementIds));
    expect([...covered].sort()).toEqual(["R1", "R2", "R3", "R4"]);
  });

  it("keeps a stated order for the steps still in it", () => {
    const steps = `Cut over the billing database:\n\n1. Take a snapshot\n2. Restore it on the new cluster\n3. Switch the writers`;
    const stored = readingToCheck(rowOf(steps));
    const scope = scopeOfReading(stored);
    expect(scope.sequences.length).toBeGreaterThan(0);
    const items = shownItems(stored).map(({ text, role }) => ({ text, role }));
    const first = items.findIndex((i) => i.role === "work");
    items.splice(first, 1);
    const after = scopeOfReading(applyReading(stored, { kind: stored.kind, items }));
    const ids = new Set(after.requirements.map((r) => r.id));
    for (const s of after.sequences) for (const id of s) expect(ids.has(id)).toBe(true);
  });

  it("keeps an edited work item's place: its section, its step in a stated order, its actor read again", () => {
    const steps = `Cut over the billing database:\n\n1. Take a snapshot\n2. Restore it on the new cluster\n3. Switch the writers`;
    const stored = readingToCheck(rowOf(steps));
    const before = scopeOfReading(stored);
    const items = shownItems(stored).map(({ text, role }) => ({ text, role }));
    const at = items.findIndex((i) => i.text === "Restore it on the new cluster");
    expect(at).toBeGreaterThanOrEqual(0);
    items[at]!.text = "Restore the snapshot on the new cluster";
    items.push({ text: "Operators can roll back within an hour", role: "work" });
    const after = scopeOfReading(applyReading(stored, { kind: stored.kind, items }));
    const edited = after.requirements.find((r) => r.text === "Restore the snapshot on the new cluster")!;
    const was = before.requirements.find((r) => r.text === "Restore it on the new cluster")!;
    expect(edited).toMatchObject({ id: was.id, section: was.section, step: was.step });
    expect(after.sequences).toEqual(before.sequences);
    // An added item has no place of its own: no section, no step, its actor read from its words.
    expect(after.requirements.at(-1)).toMatchObject({ section: null, actor: "operators", statedIn: null });
    expect(after.requirements.at(-1)!.step).toBeUndefined();
  });

  it("offers the kinds the reader knows", () => {
    expect([...READING_KINDS].sort()).toEqual(Object.keys(KIND_LABELS).sort());
  });
});
