import { z } from "zod";
import { isSensibleHours, sensibleHoursMessage } from "./hours";
import { taskFile } from "./repository-map";

/**
 * What a planner (the offline planner or a language model through LangChain) must return at each stage.
 * The same schemas validate model output (structured output) and the offline planner's results.
 */

export const storyPoints = z.union(
  [z.literal(1), z.literal(2), z.literal(3), z.literal(5), z.literal(8), z.literal(13)],
  { error: "story_points must be one of 1, 2, 3, 5, 8, 13" },
);
const text = (max: number) => z.string().trim().min(1).max(max);

/** complexity_scorer: how hard the whole task is. */
export const complexityAssessment = z.object({
  complexity_score: z.number().int().min(1).max(10),
  story_points: storyPoints,
  rationale: text(2000),
});
export type ComplexityAssessment = z.infer<typeof complexityAssessment>;

/** A leaf is meant to be one pull request of at most about two developer-days (decision 014). */
export const ATOMIC_HOURS = 16;

/** One proposed subtask (root_processor and decomposer). */
export const plannedSubtask = z.object({
  description: text(2000),
  complexity_score: z.number().int().min(1).max(10),
  story_points: storyPoints,
  implementation_details: text(4000),
  /** 2-5 testable statements that say when the subtask is done. */
  acceptance_criteria: z
    .array(text(500))
    .min(2)
    .max(5)
    .describe("2-5 short, testable statements of when this subtask is done"),
  /** The ids (R1, R2, ...) of the stated requirements this subtask covers; empty for cross-cutting work. */
  // Each id is checked against the stated ones where the answer is used (an id that is not one, such as
  // a sentence where "R3" belongs, is dropped like an unknown id); a bad id never fails the answer. Their
  // number is not capped: a group covers every requirement below it, and a description may state hundreds
  // (decision 033); what is kept is bounded by the stated requirements, and an answer by its size limits.
  requirement_ids: z
    .array(z.string().max(2000))
    .describe(
      'Ids of the stated requirements this subtask covers, e.g. ["R1", "R3"]; empty for cross-cutting work',
    ),
  /** Developer-hours to finish it, subtasks included; a leaf should need at most ATOMIC_HOURS. */
  estimated_hours: z
    .number()
    .min(0.5)
    .max(10_000)
    .describe("Developer-hours, subtasks included; at most 16 for a subtask done in one pull request"),
  /** The optimistic and pessimistic ends around estimated_hours (a planner that gives none gets a rule's range). */
  estimate_low_hours: z
    .number()
    .min(0)
    .max(10_000)
    .refine(isSensibleHours, sensibleHoursMessage("estimate_low_hours"))
    .optional()
    .describe("Optimistic developer-hours: it rarely takes less"),
  estimate_high_hours: z
    .number()
    .min(0)
    .max(10_000)
    .refine(isSensibleHours, sensibleHoursMessage("estimate_high_hours"))
    .optional()
    .describe("Pessimistic developer-hours: it rarely takes more"),
  /** 1-based numbers of earlier siblings in the same list that must be done first. */
  depends_on: z
    .array(z.number().int().min(1).max(10))
    .max(9)
    .optional()
    .describe(
      "Numbers (1 = the first subtask of this list) of sibling subtasks that must be finished before this one starts; empty when it can start at once",
    ),
  /** Numbers of the prompt's sibling tasks or work planned elsewhere (other branches) that must be done first. */
  depends_on_elsewhere: z
    .array(z.number().int().min(1).max(1000))
    .max(10)
    .optional()
    .describe(
      "Numbers from the lists of sibling tasks and work planned elsewhere in the project that must be finished before this subtask starts; empty when none",
    ),
  /** On a repository (issue 42): the paths it most likely touches, existing or new. */
  files: z.array(taskFile).max(10).optional(),
});
export type PlannedSubtask = z.infer<typeof plannedSubtask>;

/** A split of one task into subtasks; the caller caps the count at max_subtasks. */
export const subtaskPlan = z.object({ subtasks: z.array(plannedSubtask).min(1).max(10) });

/** composer, part 1: project context. */
export const projectContext = z.object({
  tech_stack: z.object({
    frontend: z.string().max(300),
    backend: z.string().max(300),
    database: z.string().max(300),
    deployment: z.string().max(300),
    description: z.string().max(2000),
  }),
  best_practices: z.array(text(500)).min(1).max(20),
  epics: z
    .array(
      z.object({
        id: text(50),
        title: text(200),
        description: z.string().max(2000),
        priority: z.number().int().min(1).max(5),
      }),
    )
    .min(1)
    .max(20),
  user_stories: z
    .array(
      z.object({
        id: text(50),
        epic_id: z.string().max(50).nullable(),
        actor: text(200),
        action: text(1000),
        benefit: z.string().max(1000),
        acceptance_criteria: z.array(text(500)).min(1).max(12),
        story_points: storyPoints,
        priority: z.enum(["must_have", "should_have", "could_have", "wont_have"]),
      }),
    )
    .max(60),
});
export type ProjectContext = z.infer<typeof projectContext>;

const named = z.object({ name: text(200), description: z.string().max(1000) });

/**
 * composer, part 2: the event model's structure, which is what a model is asked for. The readable
 * markdown is rendered from it (src/server/engine/planners/event-model-markdown.ts), never requested as
 * one long string: that cost output tokens, could contradict the structure, and had no natural cap.
 */
export const eventModelStructure = z.object({
  // Empty when the description states no actions or facts: an honest empty model, not an invented one.
  events: z.array(named).max(80),
  commands: z.array(named).max(80),
  read_models: z.array(named).max(80),
  user_interactions: z.array(named).max(80),
  automations: z.array(named).max(80),
  swimlanes: z
    .array(
      z.object({
        name: text(200),
        description: z.string().max(1000),
        events: z.array(text(200)).max(80),
        commands: z.array(text(200)).max(80),
        read_models: z.array(text(200)).max(80),
      }),
    )
    .max(20),
  chapters: z
    .array(
      z.object({
        name: text(200),
        description: z.string().max(1000),
        sub_chapters: z.array(z.object({ name: text(200), slices: z.array(text(300)).max(40) })).max(20),
      }),
    )
    .max(20),
});
export type EventModelStructure = z.infer<typeof eventModelStructure>;

/** The composed event model: the structure plus its markdown. */
export const eventModelPlan = eventModelStructure.extend({
  /** Empty when the structure is empty: the UI then shows its empty state. */
  event_model_markdown: z.string().max(100_000),
});
export type EventModelPlan = z.infer<typeof eventModelPlan>;
