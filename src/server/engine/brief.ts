import { findApplicationType, findStack } from "../../shared/catalogue";
import { detectStack } from "../../shared/repository-map/stack";
import type { RepositoryMap } from "../../shared/schemas/repository-map";
import { readTaskOptions, TASK_DEFAULTS } from "../../shared/schemas/tasks";
import type { TaskRow } from "../plan/rows";
import type { ProjectBrief } from "./planners/contract";
import { KIND_LABELS, readKind } from "./reading/kind";
import { extractScope } from "./reading/requirements";
import {
  kindOfReading,
  readingOf,
  type StoredReading,
  scopeOfReading,
  storedReadingOf,
} from "./reading/review";
import type { StatedScope } from "./reading/types";

export type DecompositionOptions = {
  maxDepth: number;
  maxSubtasks: number;
  threshold: number;
  requiresApproval: boolean;
  githubRepo: string | null;
};

export function optionsOf(root: Pick<TaskRow, "options">): DecompositionOptions {
  const o = readTaskOptions(root.options);
  return {
    maxDepth: o.max_depth ?? TASK_DEFAULTS.max_depth,
    maxSubtasks: o.max_subtasks ?? TASK_DEFAULTS.max_subtasks,
    threshold: o.complexity_threshold ?? TASK_DEFAULTS.complexity_threshold,
    requiresApproval: o.requires_approval === true,
    githubRepo: o.tech_preferences?.github_repo ?? null,
  };
}

/**

 * What every planner is given for a project (the outline, a model, a coding agent): the description and
 * preferences, and what was read of them. A reading a person checked (issue 38; reading/review.ts) is
 * what was read; otherwise the description is read now, as it always is.
 *
 * Briefs read lately are kept, by what they are read from: every split of a plan reads the same
 * description, and reading one of 20,000 characters takes a good part of a second. Briefs are never
 * changed once made.
 */
const recentBriefs = new Map<string, ProjectBrief>();
const RECENT_BRIEFS = 32;

export function briefOf(
  root: Pick<TaskRow, "description" | "options"> & { reading?: unknown },
  repositorySummary: string | null,
  /** The project's repository map (issue 42), when it has one. */
  map: RepositoryMap | null = null,
): ProjectBrief {
  const prefs = readTaskOptions(root.options).tech_preferences ?? {};
  const key = JSON.stringify([
    map
      ? `${map.name}:${map.commit}:${map.files.length}:${map.symbols.length}:${map.manifests.length}`
      : null,
    root.description,
    prefs.application_type ?? null,
    prefs.tech_stack_id ?? null,
    prefs.additional_requirements ?? null,
    repositorySummary,
    root.reading ?? null,
  ]);
  const recent = recentBriefs.get(key);
  if (recent) return recent;
  const read = readBrief(root.description, prefs, repositorySummary, storedReadingOf(root.reading));
  const brief = map ? onRepository(read, map) : read;
  if (recentBriefs.size >= RECENT_BRIEFS) recentBriefs.delete(recentBriefs.keys().next().value!);
  recentBriefs.set(key, brief);
  return brief;
}

/** A text that asks for a new product beside the code it is given, not a change to it. */
const NEW_BESIDE =
  /\b(new|separate|standalone|second)\s+(app|application|service|product|repository|repo|website|site|tool)\b/i;

/**
 * A brief on a repository (issue 42): its map and the stack the manifests show, and the work read as a
 * change to that code unless the text asks for a product beside it. Every planner (outline, model, agent)
 * is told so, and none chooses a stack or ships a first release.
 */
export function onRepository(brief: ProjectBrief, map: RepositoryMap): ProjectBrief {
  const kind =
    brief.kind.id !== "product" || NEW_BESIDE.test(brief.description)
      ? brief.kind
      : {
          id: "feature" as const,
          label: KIND_LABELS.feature,
          because: ["it is a change to the repository it came with", ...brief.kind.because],
        };
  return { ...brief, kind, repository: { map, stack: detectStack(map) } };
}

function readBrief(
  description: string,
  prefs: NonNullable<ReturnType<typeof readTaskOptions>["tech_preferences"]>,
  repositorySummary: string | null,
  checked: ReturnType<typeof storedReadingOf>,
): ProjectBrief {
  const type = prefs.application_type ? findApplicationType(prefs.application_type) : undefined;
  const stack = type && prefs.tech_stack_id ? findStack(type.id, prefs.tech_stack_id) : undefined;
  const scope: StatedScope = checked
    ? scopeOfReading(checked)
    : extractScope(description, prefs.additional_requirements ?? null);
  return {
    description,
    applicationType: type ? { id: type.id, label: type.label, description: type.description } : null,
    stack: stack ? { ...stack } : null,
    additionalRequirements: prefs.additional_requirements ?? null,
    repositorySummary,
    scope,
    kind: checked
      ? kindOfReading(checked)
      : readKind({
          description,
          scope,
          repositorySummary,
          applicationType: type?.id ?? null,
        }),
    ...(checked?.changed ? { readingCorrected: true as const } : {}),
  };
}

/**
 * The reading a person is asked to check for a new project: the brief's, as the planners would read it
 * now. A linked repository counts as work on something that exists, as the planners read it.
 */
export function readingToCheck(root: Pick<TaskRow, "description" | "options">): StoredReading {
  const brief = briefOf(
    { description: root.description, options: root.options },
    optionsOf(root).githubRepo ? "(a linked repository)" : null,
  );
  return readingOf(brief.scope, brief.kind);
}

/** A brief for a text on its own (tests, a re-plan of a node the outline does not know): read as a root's would be. */
export function briefOfText(
  description: string,
  extras: Partial<
    Pick<ProjectBrief, "applicationType" | "stack" | "additionalRequirements" | "repositorySummary">
  > = {},
): ProjectBrief {
  const additional = extras.additionalRequirements ?? null;
  const scope = extractScope(description, additional);
  const repositorySummary = extras.repositorySummary ?? null;
  return {
    description,
    applicationType: extras.applicationType ?? null,
    stack: extras.stack ?? null,
    additionalRequirements: additional,
    repositorySummary,
    scope,
    kind: readKind({
      description,
      scope,
      repositorySummary,
      applicationType: extras.applicationType?.id ?? null,
    }),
  };
}
