import { type Deliverable, deliverable, type NamedTech, namedTechnologies } from "../../reading/signals";
import type { Requirement, StatedScope, WorkKind } from "../../reading/types";
import type { ProjectBrief } from "../contract";
import { withFiles } from "./files";
import { fitFirstLevel } from "./fit";
import { as, type OutlineNode } from "./nodes";
import {
  bugShape,
  covering,
  dataShape,
  featureShape,
  infrastructureShape,
  migrationShape,
  performanceShape,
  productShape,
  restatesTitle,
  spikeShape,
  type Workstream,
} from "./shapes";

export { idList, type OutlineNode, type OutlineRole, titleText } from "./nodes";

/**
 * The offline planner's whole plan, built at once from the brief (decision 014, issue 28). Each stated
 * requirement is one node that quotes it; requirements are grouped into workstreams; the steps around
 * them come from the kind of work the text was read as (reading/kind.ts): a new product chooses its stack
 * and ships a first release, a feature maps the code it touches, a bug is reproduced, tested, fixed and
 * verified, performance work measures before it changes anything, a migration is rehearsed and verified
 * before the cut-over, infrastructure is reviewed and applied to staging first, data work is validated
 * before it is scheduled, and a spike ends in a recommendation. Nothing here adds a technology the text
 * does not name.
 */

export type Outline = {
  scope: StatedScope;
  kind: WorkKind;
  /** A short request, planned discovery-first. */
  vague: boolean;
  deliverable: Deliverable;
  tech: NamedTech;
  /** The first level of the plan: the workstreams and the cross-cutting steps. */
  children: OutlineNode[];
  /** The workstreams, which become the epics: each with the nodes it holds. */
  workstreams: Workstream[];
  /** On a repository (issue 42): the stack its manifests show, in a sentence ("Detected: ..."). */
  detected: string | null;
};

export type Limits = { maxDepth: number; maxSubtasks: number };

export function buildOutline(brief: ProjectBrief, limits: Limits): Outline {
  const scope = brief.scope;
  // On a repository (issue 42) the brief reads a change to that code unless the text asks for a product
  // beside it (brief.ts).
  const kind = brief.kind.id;
  // A change whose text says its title again ("Move to Vue 3" ... "Port the project to Vue 3") is
  // answered by the whole plan: the restatement is covered by its first step, not planned twice.
  const restated =
    kind !== "product" && kind !== "bug" && scope.requirements.length >= 2
      ? scope.requirements.filter((r) => restatesTitle(r.text, scope.title))
      : [];
  const requirements = scope.requirements.filter((r) => !restated.includes(r));
  // Only what is in scope counts: a technology or a platform named among the non-goals is not planned for.
  const text = [...requirements.map((r) => r.text), ...scope.context].join("\n");
  const made = deliverable(brief, text);
  const tech = namedTechnologies(text);
  const words = brief.description.trim().split(/\s+/).length;
  const vague = kind === "product" && requirements.length <= 1 && words <= 12;

  const shape =
    kind === "bug"
      ? bugShape(brief, requirements)
      : kind === "performance"
        ? performanceShape(brief, requirements)
        : kind === "migration"
          ? migrationShape(brief, requirements)
          : kind === "infrastructure"
            ? infrastructureShape(brief, requirements)
            : kind === "data"
              ? dataShape(brief, requirements)
              : kind === "spike"
                ? spikeShape(brief, requirements)
                : kind === "feature"
                  ? featureShape(brief, requirements, made)
                  : productShape(brief, requirements, made, tech, vague);

  const [lead, ...rest] = shape.first.length ? shape.first : shape.middle;
  const first = shape.first.length && lead ? [coverFirstLeaf(lead, restated), ...rest] : shape.first;
  const middle = !shape.first.length && lead ? [coverFirstLeaf(lead, restated), ...rest] : shape.middle;
  return {
    scope,
    kind,
    vague,
    deliverable: made,
    tech,
    workstreams: shape.streams.filter((w) => w.nodes.length > 0),
    detected: brief.repository?.stack.sentence ?? null,
    children: onRepository(
      brief,
      fitFirstLevel(
        first.map((n) => as(n, "setup")),
        middle,
        shape.last.map((n) => as(n, "release")),
        limits.maxSubtasks,
        shape.flatTitle,
      ),
    ),
  };
}

function onRepository(brief: ProjectBrief, nodes: OutlineNode[]): OutlineNode[] {
  return brief.repository ? withFiles(nodes, brief.repository, brief.description) : nodes;
}

/** The node with its first leaf covering `covers` too (a group lists them as well, since it quotes its leaves). */
function coverFirstLeaf(node: OutlineNode, covers: Requirement[]): OutlineNode {
  if (covers.length === 0) return node;
  if (node.children.length === 0) return covering(node, covers, "The request:");
  const [head, ...tail] = node.children;
  return {
    ...node,
    covers: [...node.covers, ...covers],
    requirementIds: [...node.requirementIds, ...covers.map((r) => r.id)],
    children: [coverFirstLeaf(head!, covers), ...tail],
  };
}
