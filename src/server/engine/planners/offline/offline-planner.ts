import {
  type ComplexityAssessment,
  complexityAssessment,
  type EventModelPlan,
  eventModelPlan,
  type PlannedSubtask,
  plannedSubtask,
  projectContext,
} from "../../../../shared/schemas/plan";
import { ESTIMATE_HOURS_MAX } from "../../../../shared/schemas/schedule";
import { descriptionFirstLine } from "../../../../shared/task-title";
import { briefOfText } from "../../brief";
import { leftOut, readGuidance } from "../../guidance";
import type { Planned, Planner, ProjectBrief, Usage } from "../contract";
import { renderEventModelMarkdown } from "../event-model-markdown";
import { composeOutlineContext, composeOutlineEventModel } from "./epics-and-stories";
import { complexityForHours, pointsForHours, rangeAround } from "./estimate";
import { buildOutline, idList, type Limits, type Outline, type OutlineNode } from "./outline";
import { siblingOrder } from "./stated-order";

/** The offline planner makes no model calls; each stage counts as one call with no tokens. */
const USAGE: Usage = { calls: 1, promptTokens: 0, completionTokens: 0 };

function planned<T>(value: T): Planned<T> {
  return { value, usage: { ...USAGE } };
}

/** Limits when a caller gives none (the assessment does not depend on them). */
const COMPOSE_LIMITS: Limits = { maxDepth: 6, maxSubtasks: 10 };

/**
 * The outline of a brief, built once per brief and limits: every split of a plan asks for the same one,
 * and a description stating hundreds of requirements takes a tenth of a second or more to outline.
 */
const outlines = new WeakMap<ProjectBrief, Map<string, Outline>>();
function outlineOf(brief: ProjectBrief, limits: Limits): Outline {
  const byLimits = outlines.get(brief) ?? new Map<string, Outline>();
  outlines.set(brief, byLimits);
  const key = `${limits.maxDepth}/${limits.maxSubtasks}`;
  const built = byLimits.get(key) ?? buildOutline(brief, limits);
  byLimits.set(key, built);
  return built;
}

/** A group's complexity: above every child's, so the splitting rule always opens it (8-10). */
function complexityOf(node: OutlineNode): number {
  if (node.children.length === 0) return complexityForHours(node.hours);
  return Math.min(
    10,
    Math.max(...node.children.map(complexityOf)) < 8 ? 8 : Math.max(...node.children.map(complexityOf)) + 1,
  );
}

function toSubtask(node: OutlineNode, dependsOn: number[]): PlannedSubtask {
  // A group's hours add up its parts (hundreds, for a long list); a node's own estimate holds what a
  // person could enter for it, and the plan's roll-up adds up the leaves' ranges in any case.
  const range = rangeAround(Math.min(node.hours, ESTIMATE_HOURS_MAX));
  return plannedSubtask.parse({
    // The title is the first line; a leaf's description goes on with what it is, in the user's words.
    description:
      node.children.length === 0 && node.body ? `${node.title}\n\n${node.body}`.slice(0, 2000) : node.title,
    complexity_score: complexityOf(node),
    story_points: pointsForHours(node.hours),
    implementation_details: node.details,
    acceptance_criteria: node.criteria,
    requirement_ids: node.requirementIds,
    estimated_hours: range.likely,
    estimate_low_hours: range.low,
    estimate_high_hours: Math.min(range.high, ESTIMATE_HOURS_MAX),
    depends_on: dependsOn,
    // The whole outline is known at once: its order is among siblings (offline/stated-order.ts).
    depends_on_elsewhere: [],
    ...(node.files?.length ? { files: node.files } : {}),
  });
}

/** The outline node a split asks about: found by its titles from the first level down. */
function nodeAt(outline: Outline, path: string[]): OutlineNode | { children: OutlineNode[] } | null {
  let level: { children: OutlineNode[] } = outline;
  for (const title of path) {
    const next = level.children.find((c) => c.title === descriptionFirstLine(title));
    if (!next) return null;
    level = next;
  }
  return level;
}

function assess(outline: Outline): ComplexityAssessment {
  const { requirements, nonGoals } = outline.scope;
  const hours = outline.children.reduce((sum, n) => sum + n.hours, 0);
  const score = Math.max(1, Math.min(10, Math.round(2 + Math.log2(1 + hours / 8))));
  const kindText = outline.vague
    ? "a short request, planned discovery-first"
    : {
        product: "a new product",
        feature: "a feature on an existing product",
        bug: "a bug fix (reproduce, test, fix, verify)",
        performance: "a performance goal, planned measure-first (baseline, profile, fix, verify)",
        migration: "a migration or upgrade (inventory, steps, verify, cut over)",
        infrastructure: "infrastructure (inventory, build, review, staging, production)",
        data: "data or machine-learning work (data, build, validate, run)",
        spike: "a research spike (questions, investigation, recommendation)",
      }[outline.kind];
  const rationale = [
    outline.detected ? `${outline.detected}.` : "",
    `Estimated by rule, not by a model: ${requirements.length} stated requirement${requirements.length === 1 ? "" : "s"} (${requirements.length ? idList(requirements, 300) : "none"}), ${kindText}, about ${Math.round(hours)} developer-hours in the outline.`,
    nonGoals.length ? `Out of scope as stated: ${nonGoals.join("; ")}.` : "",
  ]
    .filter(Boolean)
    .join(" ");
  return complexityAssessment.parse({
    complexity_score: score,
    story_points: score >= 8 ? 13 : score >= 6 ? 8 : score >= 4 ? 5 : 3,
    rationale: rationale.length > 2000 ? `${rationale.slice(0, 1997)}...` : rationale,
  });
}

/**
 * The planner for installs without a language model: an honest outline of the description, not a
 * pretend AI (decision 014). It reads the stated requirements (requirements.ts), groups them into
 * workstreams with the cross-cutting work the kind of project calls for (offline/outline.ts), estimates
 * by an open rule (offline/estimate.ts) and composes epics, stories and the event model from what the
 * text states (offline/epics-and-stories.ts). Same input, same output; results are parsed with the same zod schemas
 * as model output.
 */
export function createOfflinePlanner(): Planner {
  return {
    name: "offline",
    model: null,

    async assessComplexity(brief, signal) {
      signal?.throwIfAborted();
      return planned(assess(outlineOf(brief, COMPOSE_LIMITS)));
    },

    async splitTask(request, signal) {
      signal?.throwIfAborted();
      const outline = outlineOf(request.brief, request);
      // ancestors[0] is the project itself; below it, each level is found by its title.
      const path = request.depth === 0 ? [] : [...request.ancestors.slice(1), request.task.description];
      const guidance = readGuidance(request.replan?.guidance);
      let node = nodeAt(outline, path);
      if (!node && request.replan) {
        // A re-plan of a node the outline does not know (renamed, or added by a person): the outline of
        // its own text and the guidance.
        const description = [request.task.description, guidance.text].filter(Boolean).join("\n\n");
        node = buildOutline(
          {
            ...briefOfText(description),
            applicationType: request.brief.applicationType,
            stack: request.brief.stack,
          },
          request,
        );
      }
      // A node the outline has no finer steps for (or one a person renamed) is not split further.
      if (!node) return planned([]);
      const kept = node.children.filter((c) => !leftOut(guidance, c.title));
      const order = siblingOrder(kept);
      return planned(kept.map((child, i) => toSubtask(child, order[i]!)));
    },

    async composeContext(request, signal) {
      signal?.throwIfAborted();
      const outline = outlineOf(request.brief, request.limits ?? COMPOSE_LIMITS);
      return planned(projectContext.parse(composeOutlineContext(outline, request.brief)));
    },

    async composeEventModel(request, signal) {
      signal?.throwIfAborted();
      const structure = composeOutlineEventModel(outlineOf(request.brief, request.limits ?? COMPOSE_LIMITS));
      const value: EventModelPlan = {
        ...structure,
        event_model_markdown: renderEventModelMarkdown(structure),
      };
      return planned(eventModelPlan.parse(value));
    },
  };
}
