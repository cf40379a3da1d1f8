import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { mapLocalRepository } from "../../src/cli/local-repository";
import { briefOfText, onRepository } from "../../src/server/engine/brief";
import type { OutlineNode } from "../../src/server/engine/planners/offline/nodes";
import { buildOutline } from "../../src/server/engine/planners/offline/outline";
import { summarizeMap } from "../../src/server/engine/repository/map-summary";
import { detectStack } from "../../src/shared/repository-map/stack";

/**
 * Plans on code that exists (issue 42), measured on sample repositories of twelve stacks written for
 * this (tests/fixtures/repositories, each with a change request and the files a competent engineer
 * would touch in `_change.json`, which is not part of the map): the stack is detected, no plan chooses a
 * stack, sets up a repository or ships a first release, and the files the leaves name are measured for
 * precision and recall against the answer key. Every third repository is held out of the tuning; both
 * figures are printed, and the gate is set below what was measured so that it catches a regression.
 */

const ROOT = "tests/fixtures/repositories";
const HELD_OUT = (i: number) => i % 3 === 2;

type Key = { request: string; expected_files: string[]; expected_new_files: string[]; stack: string };

async function planOn(name: string) {
  const dir = path.join(ROOT, name);
  const key = JSON.parse(readFileSync(path.join(dir, "_change.json"), "utf8")) as Key;
  const map = await mapLocalRepository(dir);
  map.files = map.files.filter((f) => f.path !== "_change.json");
  const stack = detectStack(map);
  const brief = onRepository(briefOfText(key.request, { repositorySummary: summarizeMap(map) }), map);
  const outline = buildOutline(brief, { maxDepth: 3, maxSubtasks: 8 });
  const leaves: OutlineNode[] = [];
  const walk = (n: OutlineNode) => (n.children.length ? n.children.forEach(walk) : leaves.push(n));
  outline.children.forEach(walk);
  return { key, map, stack, outline, leaves };
}

const names = readdirSync(ROOT).sort();

describe("plans on a repository (issue 42)", () => {
  it("has at least ten sample repositories with an answer key whose files exist", () => {
    expect(names.length).toBeGreaterThanOrEqual(10);
    for (const name of names) {
      const key = JSON.parse(readFileSync(path.join(ROOT, name, "_change.json"), "utf8")) as Key;
      for (const f of key.expected_files)
        expect(readdirSync(path.join(ROOT, name, path.dirname(f)))).toContain(path.basename(f));
    }
  });

  it("detects the stack, plans a change to it, and names the files its leaves touch", async () => {
    const counts = { tune: { tp: 0, fp: 0, fn: 0 }, held: { tp: 0, fp: 0, fn: 0 } };
    const asks: string[] = [];
    // New files: a migration where the change stores something new, in the folder the key names.
    const newFiles = { expected: 0, rightFolder: 0, unasked: 0 };
    const folderOf = (p: string) =>
      p.match(/^(.*?(?:migrations|migrate|versions))\//)?.[1] ?? path.dirname(p);
    for (const [i, name] of names.entries()) {
      const { key, stack, outline, leaves } = await planOn(name);
      // The stack the manifests name, in the plan's first words.
      expect(stack.sentence, name).toMatch(/^Detected: /);
      expect(stack.frameworks.length + stack.orms.length + stack.tests.length, name).toBeGreaterThan(0);
      expect(outline.detected, name).toBe(stack.sentence);
      // A change to that code: no stack to choose, no repository to set up, no first release.
      for (const l of leaves)
        if (/choose the stack|set up the repository|first release|deploy the first release/i.test(l.title))
          asks.push(`${name}: ${l.title}`);
      const predicted = new Set(
        leaves.flatMap((l) => (l.files ?? []).filter((f) => !f.new).map((f) => f.path)),
      );
      const proposed = leaves.flatMap((l) => (l.files ?? []).filter((f) => f.new).map((f) => f.path));
      newFiles.expected += key.expected_new_files.length;
      newFiles.rightFolder += key.expected_new_files.filter((e) =>
        proposed.some((p) => folderOf(p) === folderOf(e)),
      ).length;
      if (key.expected_new_files.length === 0) newFiles.unasked += proposed.length;
      const expected = new Set(key.expected_files);
      const hit = [...predicted].filter((p) => expected.has(p)).length;
      const c = HELD_OUT(i) ? counts.held : counts.tune;
      c.tp += hit;
      c.fp += predicted.size - hit;
      c.fn += expected.size - hit;
      // Every leaf that does the work names at least one file.
      const work = leaves.filter((l) => l.covers.length > 0 && l.role === undefined);
      expect(work.filter((l) => (l.files ?? []).length > 0).length, name).toBeGreaterThan(0);
    }
    expect(asks).toEqual([]);
    const figures = Object.fromEntries(
      Object.entries(counts).map(([k, c]) => [
        k,
        { precision: +(c.tp / (c.tp + c.fp)).toFixed(2), recall: +(c.tp / (c.tp + c.fn)).toFixed(2) },
      ]),
    );
    console.info(
      "files named, micro-averaged:",
      JSON.stringify(figures),
      "new files:",
      JSON.stringify(newFiles),
    );
    expect(newFiles.rightFolder).toBeGreaterThanOrEqual(3);
    expect(newFiles.unasked).toBe(0);
    const all = {
      precision:
        (counts.tune.tp + counts.held.tp) /
        (counts.tune.tp + counts.held.tp + counts.tune.fp + counts.held.fp),
      recall:
        (counts.tune.tp + counts.held.tp) /
        (counts.tune.tp + counts.held.tp + counts.tune.fn + counts.held.fn),
    };
    expect(all.precision).toBeGreaterThanOrEqual(0.45);
    expect(all.recall).toBeGreaterThanOrEqual(0.45);
  });
});
