import type { DetectedStack } from "../../../shared/repository-map/stack";
import type {
  ComplexityAssessment,
  EventModelPlan,
  PlannedSubtask,
  ProjectContext,
} from "../../../shared/schemas/plan";
import type { RepositoryMap } from "../../../shared/schemas/repository-map";
import type { KindReading, StatedScope } from "../reading/types";

/** What every stage knows about the project being planned. */
export type ProjectBrief = {
  description: string;
  applicationType: { id: string; label: string; description: string } | null;
  stack: {
    id: string;
    name: string;
    description: string;
    frontend_framework: string;
    backend_language: string;
    database: string;
  } | null;
  additionalRequirements: string | null;
  /** A bounded summary of the linked GitHub repository (README excerpt, file tree), if any. */
  repositorySummary: string | null;
  /**
   * The code the change is for (issue 42): its map and the stack it shows. A planner plans on it: no
   * stack to choose, no repository to set up, no first release; leaves name the files they touch.
   */
  repository?: { map: RepositoryMap; stack: DetectedStack };
  /** The stated requirements (R1, R2, ...) and non-goals, read by rule from the description. */
  scope: StatedScope;
  /** The kind of work the description asks for, with the evidence (reading/kind.ts). */
  kind: KindReading;
  /**
   * Set when the owner corrected the reading before planning (reading/review.ts): the scope, not the
   * description, says what to plan. Absent otherwise, so an unchanged reading briefs as no check does.
   */
  readingCorrected?: true;
};

/** One node to split: its own text plus the path from the root, so a planner keeps context. */
export type SplitRequest = {
  brief: ProjectBrief;
  task: { description: string; complexity_score: number | null; implementation_details: string | null };
  /** Descriptions from the root down to this node's parent. */
  ancestors: string[];
  /** The node's siblings, split separately: their work must not be planned again here. */
  siblings?: string[];
  /** Other work already in the plan (the outline so far, titles only), for the same reason. */
  elsewhere?: string[];
  depth: number;
  maxDepth: number;
  maxSubtasks: number;
  /** Set when a person re-plans the node: their guidance (possibly empty) and its current subtasks. */
  replan?: { guidance: string; current: string[] };
};

export type ComposeRequest = {
  brief: ProjectBrief;
  /** The decomposition's limits, so a planner can tell how its first level was shaped. */
  limits?: { maxDepth: number; maxSubtasks: number };
  /** The finished tree, flattened in depth-first order. */
  tasks: {
    description: string;
    depth: number;
    complexity_score: number | null;
    story_points: number | null;
    is_atomic: boolean;
  }[];
};

/** Token usage of one call; the offline planner reports zeros. */
export type Usage = { calls: number; promptTokens: number; completionTokens: number };
export type Planned<T> = { value: T; usage: Usage };

/**
 * A planner produces every stage's content. Two implementations: the deterministic offline planner
 * (no model) and the LangChain planner (any OpenAI-compatible endpoint). Both return values that satisfy
 * the zod schemas of src/shared/schemas/plan.ts.
 */
export interface Planner {
  readonly name: "offline" | "langchain";
  readonly model: string | null;
  assessComplexity(brief: ProjectBrief, signal?: AbortSignal): Promise<Planned<ComplexityAssessment>>;
  /** Splits one task into at most `maxSubtasks` subtasks (root_processor for the root, decomposer below). */
  splitTask(request: SplitRequest, signal?: AbortSignal): Promise<Planned<PlannedSubtask[]>>;
  composeContext(request: ComposeRequest, signal?: AbortSignal): Promise<Planned<ProjectContext>>;
  composeEventModel(request: ComposeRequest, signal?: AbortSignal): Promise<Planned<EventModelPlan>>;
}
