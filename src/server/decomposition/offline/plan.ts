import type { PlannedSubtask } from "../../../shared/schemas/plan";
import type { SplitRequest } from "../planner";
import { type BriefAnalysis, entityFromPascal, type Feature } from "./brief";
import { bundleItem, featureItem, planItems } from "./items";
import { categoryHint, leafSpecs, MICRO, microSpecs } from "./small-steps";
import { type BoilerKind, type Category, type Level, type Spec, storyPointsFor } from "./spec";
import { featureSteps, mergedSteps, step } from "./steps";
import { boilerSteps } from "./steps-boilerplate";
import { capitalise, clipWords, collapseSpaces, lowerFirst } from "./text";
import { detectTopic } from "./topics";
import { objFromText } from "./wording";

export { planItems } from "./items";
export type { Spec } from "./spec";
export { storyPointsFor } from "./spec";

// ---------------------------------------------------------------------------------------------------------
// Scoring

/** Children sit 1-3 points below their parent: heavy work 1 below, light work 3 below, never above. */
function childScore(parent: number, weight: number): number {
  const offset = weight >= 8 ? 1 : weight >= 6 ? 2 : 3;
  const ceiling = parent > 1 ? parent - 1 : 1;
  return Math.max(1, Math.min(ceiling, parent - offset));
}

function childCount(parent: number, maxSubtasks: number, available: number): number {
  const wanted = parent >= 9 ? 6 : parent >= 8 ? 5 : parent >= 6 ? 4 : parent >= 4 ? 3 : 2;
  const cap = Math.max(1, Math.min(10, maxSubtasks));
  let n = Math.min(wanted, cap, available);
  if (n < 2 && cap >= 2 && available >= 2) n = 2;
  return Math.max(1, n);
}

/** Keeps the n candidates with the best priority, in their original order. */
function select(candidates: Spec[], n: number): Spec[] {
  const ranked = candidates
    .map((spec, index) => ({ spec, index }))
    .sort((x, y) => x.spec.priority - y.spec.priority || x.index - y.index)
    .slice(0, n)
    .sort((x, y) => x.index - y.index);
  return ranked.map((r) => r.spec);
}

// ---------------------------------------------------------------------------------------------------------
// Children of any node, and reconstruction of a node from its path

/** Every child a node could have, before trimming (used both to split and to recognise a child's text). */
function candidates(spec: Spec, a: BriefAnalysis): Spec[] {
  switch (spec.level) {
    case "root":
      return planItems(a, 10);
    case "item": {
      const pad = `for ${a.title}`;
      if (spec.itemKind === "feature" && spec.feature)
        return featureSteps(spec.feature, a).map((d) => step(d, pad));
      if (spec.itemKind === "bundle" && spec.features) {
        const fs = spec.features;
        const items = fs.map((f, i) => featureItem(f, a, i));
        const nested = fs.slice(1, -1).map((_, k) => bundleItem(fs.slice(k + 1), a));
        return [...items, ...nested];
      }
      if (spec.parts) return mergedSteps(spec.parts, a).map((d) => step(d, pad));
      if (spec.itemKind && spec.itemKind !== "feature" && spec.itemKind !== "bundle")
        return boilerSteps(spec.itemKind as BoilerKind, a).map((d) => step(d, pad));
      return MICRO.generic.map(([template, weight], i) =>
        step(
          {
            text: template.replace("{obj}", clipWords(spec.obj, 12)),
            details: categoryHint("generic", a.tech),
            weight,
            category: "generic",
            priority: i,
          },
          pad,
        ),
      );
    }
    case "step":
      return microSpecs(spec, a);
    case "micro":
      return leafSpecs(spec, a, "leaf");
    case "leaf":
      return leafSpecs(spec, a, "deep");
    default:
      return leafSpecs(spec, a, "deeper");
  }
}

function chooseChildren(spec: Spec, a: BriefAnalysis, parentScore: number, maxSubtasks: number): Spec[] {
  if (spec.level === "root") return planItems(a, maxSubtasks);
  if (spec.level === "item" && spec.itemKind === "bundle" && spec.features) {
    const fs = spec.features;
    const n = childCount(parentScore, maxSubtasks, fs.length);
    if (fs.length <= n) return fs.map((f, i) => featureItem(f, a, i));
    const keep = Math.max(1, n - 1);
    return [...fs.slice(0, keep).map((f, i) => featureItem(f, a, i)), bundleItem(fs.slice(keep), a)];
  }
  const all = candidates(spec, a);
  return select(all, childCount(parentScore, maxSubtasks, all.length));
}

function normalise(text: string): string {
  return collapseSpaces(text)
    .toLowerCase()
    .replace(/[.\s]+$/, "");
}

const ITEM_KIND_PATTERNS: [BoilerKind, RegExp][] = [
  ["setup", /\b(set ?up|scaffold|bootstrap|toolchain|initiali[sz]e|project structure|repository)\b/i],
  ["data", /\b(schema|data model|database|migrations?|persistence|storage|wire|wiring|ingest\w*)\b/i],
  ["auth", /\b(auth\w*|sign[- ]?in|log ?in|accounts?|sign[- ]?up)\b/i],
  ["tests", /\b(tests?|testing|qa|playtest\w*)\b/i],
  ["deploy", /\b(deploy\w*|release|publish|hosting|ship|launch|flash|install|package)\b/i],
];

const CATEGORY_PATTERNS: [Category, RegExp][] = [
  ["tests", /\b(tests?|testing|playtest\w*|qa|checklist|verify)\b/i],
  [
    "infra",
    /\b(deploy\w*|release|provision\w*|docker\w*|ci|hosting|backups?|https|domain|flash\w*|package|installers?)\b/i,
  ],
  [
    "model",
    /\b(schema|migrations?|tables?|data model|database|entity|entities|collections?|seed|index(es)?)\b/i,
  ],
  ["api", /\b(endpoints?|api|routes?|handlers?|controllers?|rest|graphql)\b/i],
  ["ui", /\b(pages?|screens?|views?|forms?|components?|ui|layout|widgets?|dialogs?|hud|menus?)\b/i],
  ["hardware", /\b(wire|wiring|breadboard|circuit|pins?|solder\w*|enclosure)\b/i],
  ["firmware", /\b(firmware|driver|sensors?|gpio|i2c|spi|interrupts?)\b/i],
  ["auth", /\b(auth\w*|sign[- ]?in|login|passwords?|sessions?|tokens?)\b/i],
  ["integration", /\b(integrat\w*|webhooks?|sdk|third[- ]party|provider)\b/i],
  ["tooling", /\b(set ?up|configure|install|scaffold|lint\w*)\b/i],
  ["data", /\b(data|clean|ingest\w*|features?|pipeline|transform\w*)\b/i],
  ["docs", /\b(document\w*|readme|docs)\b/i],
  ["scene", /\b(scenes?|prefabs?|sprites?|levels?|animations?)\b/i],
];

function classifyCategory(text: string): Category {
  for (const [category, pattern] of CATEGORY_PATTERNS) if (pattern.test(text)) return category;
  return "logic";
}

/** A node whose text the planner did not write (edited, added by hand, or from another planner). */
function classify(rawText: string, depth: number, a: BriefAnalysis): Spec {
  const text = clampText(
    rawText.replace(/\S{41,}/g, (w) => w.slice(0, 40)),
    300,
  );
  const base = { description: text, details: "", priority: 0, obj: objFromText(text) };
  if (depth <= 1) {
    const kinds = ITEM_KIND_PATTERNS.filter(([, p]) => p.test(text)).map(([k]) => k);
    const looksBoiler = kinds.length > 0 && !/^(let|implement|build the \w+ feature)\b/i.test(text);
    if (looksBoiler && kinds.length > 1)
      return { ...base, level: "item", itemKind: "foundation", parts: kinds, weight: 8, category: "generic" };
    if (looksBoiler) return { ...base, level: "item", itemKind: kinds[0]!, weight: 6, category: "generic" };
    const stripped = text
      .replace(/^(let|allow)\s+\w+\s+/i, "")
      .replace(/^(implement|build|add|create|develop|support)\s+/i, "")
      .split(":")[0]!
      .trim();
    const topic = detectTopic(stripped, a.tech.family);
    const feature: Feature = {
      phrase: lowerFirst(stripped),
      actor: null,
      verbal: false,
      verb: null,
      topic,
      entity: topic ? entityFromPascal(topic.entity) : entityFromPascal("Item"),
      label: capitalise(clipWords(stripped, 9)),
      subject: clipWords(lowerFirst(stripped), 9),
      weight: Math.max(6, topic?.weight ?? 6),
    };
    return {
      ...base,
      level: "item",
      itemKind: "feature",
      feature,
      weight: feature.weight,
      category: "generic",
    };
  }
  const level: Level = depth === 2 ? "step" : depth === 3 ? "micro" : depth === 4 ? "leaf" : "deep";
  return { ...base, level, weight: 6, category: classifyCategory(text) };
}

/** Rebuilds the spec of the node being split by walking its ancestors from the root. */
export function resolveSpec(a: BriefAnalysis, request: SplitRequest): Spec {
  const rootSpec: Spec = {
    level: "root",
    description: request.task.description,
    details: "",
    weight: 10,
    priority: 0,
    category: "generic",
    obj: a.title,
  };
  if (request.depth <= 0) return rootSpec;
  const consistent = request.ancestors.length === request.depth;
  const path = consistent
    ? [...request.ancestors.slice(1), request.task.description]
    : [request.task.description];
  let spec: Spec = rootSpec;
  path.forEach((text, i) => {
    const depth = consistent ? i + 1 : request.depth;
    const pool =
      depth === 1
        ? [
            ...planItems(a, request.maxSubtasks),
            ...Array.from({ length: 9 }, (_, k) => planItems(a, k + 2)).flat(),
          ]
        : consistent
          ? candidates(spec, a)
          : [];
    const wanted = normalise(text);
    spec = pool.find((c) => normalise(c.description) === wanted) ?? classify(text, depth, a);
  });
  return spec;
}

/** The first-level item a task description came from, if the offline planner wrote it. */
export function findItem(a: BriefAnalysis, description: string): Spec {
  const wanted = normalise(description);
  for (let n = 10; n >= 1; n--) {
    const found = planItems(a, n).find((c) => normalise(c.description) === wanted);
    if (found) return found;
  }
  return classify(description, 1, a);
}

/** Cuts at a word boundary so that user text of any length fits the schema limits. */
function clampText(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${space > max / 2 ? cut.slice(0, space) : cut}…`;
}

export function splitNode(a: BriefAnalysis, request: SplitRequest): PlannedSubtask[] {
  const spec = resolveSpec(a, request);
  const parentScore = Math.max(
    1,
    Math.min(
      10,
      Math.round(
        request.task.complexity_score ?? Math.max(1, a.assessment.score - Math.max(0, request.depth)),
      ),
    ),
  );
  const maxSubtasks = Math.max(1, Math.min(10, Math.floor(request.maxSubtasks)));
  const chosen = chooseChildren(spec, a, parentScore, maxSubtasks).slice(0, maxSubtasks);
  const seen = new Set<string>();
  const out: PlannedSubtask[] = [];
  for (const child of chosen) {
    const key = normalise(child.description);
    if (seen.has(key)) continue;
    seen.add(key);
    const score = childScore(parentScore, child.weight);
    out.push({
      description: clampText(child.description, 400),
      complexity_score: score,
      story_points: storyPointsFor(score),
      implementation_details: clampText(child.details.trim() || categoryHint(child.category, a.tech), 4000),
    });
  }
  return out;
}
