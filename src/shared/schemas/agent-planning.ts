import { z } from "zod";
import { complexityAssessment, eventModelStructure, plannedSubtask, projectContext } from "./plan";
import { taskId } from "./tasks";

/**
 * A coding agent planning a project through the MCP server (decision 029): the steps it is given and
 * the answers it submits, with the same fields and rules as the model path's answers (schemas/plan.ts).
 */

/**
 * A subtask as an agent answers it: the model path's fields (`files` among them, which a step's schema
 * offers only on a plan with a repository map, issue 42), with an optional title and its own word on
 * atomicity.
 */
export const agentSubtask = plannedSubtask.extend({
  title: z.string().trim().min(1).max(200).optional(),
  /** true: done as it is (at most 16 h, one pull request); false: to be split further. Absent: the rule decides. */
  atomic: z.boolean().optional(),
});

/** An agent's split of one node; the project's first split also assesses the whole project. */
export const agentSplitAnswer = z.strictObject({
  assessment: complexityAssessment.optional(),
  subtasks: z.array(agentSubtask).min(1).max(10),
});
export type AgentSplitAnswer = z.infer<typeof agentSplitAnswer>;

export const submitSubtasksInput = agentSplitAnswer.extend({ node_id: taskId });

/** The composer's stage, as an agent answers it: the model path's project context and event model. */
export const agentComposition = z.strictObject({
  epics: projectContext.shape.epics,
  user_stories: projectContext.shape.user_stories,
  tech_stack: projectContext.shape.tech_stack.optional(),
  best_practices: projectContext.shape.best_practices.optional(),
  event_model: eventModelStructure.optional(),
});
export type AgentComposition = z.infer<typeof agentComposition>;
export const submitCompositionInput = agentComposition.extend({ id: taskId });

/** A JSON Schema, as given to the agent to shape its answer. */
const jsonSchema = z.record(z.string(), z.unknown());

/** The next node to split. */
export const planningStep = z.object({
  done: z.literal(false),
  project_id: z.string(),
  node_id: z.string(),
  depth: z.number().int(),
  /** The context the engine gives a model for this node, as text. */
  brief: z.string(),
  /** The JSON Schema of the answer submit_subtasks takes. */
  schema: jsonSchema,
  /** Nodes waiting to be split now, and the most steps the plan can still take within its depth. */
  remaining: z.object({ waiting: z.number().int(), at_most: z.number().int() }),
});

/** Nothing left to split: the plan is being composed, or complete; the composition may still be replaced. */
export const planningDone = z.object({
  done: z.literal(true),
  project_id: z.string(),
  status: z.string(),
  subtasks: z.number().int(),
  /** What submit_composition takes, optional: without it the plan keeps the offline planner's composition. */
  composition: z.object({ brief: z.string(), schema: jsonSchema }),
});

export const planningNext = z.discriminatedUnion("done", [planningStep, planningDone]);
export type PlanningNext = z.infer<typeof planningNext>;

/** What submit_subtasks answers: what was kept of the answer, and the next step. */
export const submittedSubtasks = z.object({
  node_id: z.string(),
  created: z.number().int(),
  /** Requirement ids the answer cited that the description does not state (dropped, as for a model). */
  dropped_requirement_ids: z.array(z.string()),
  /** Dependencies the plan could not take, dropped as for a model: numbers outside the lists, cycles. */
  dropped_dependencies: z.array(z.string()),
  next: planningNext,
});

export const submittedComposition = z.object({
  project_id: z.string(),
  epics: z.number().int(),
  user_stories: z.number().int(),
  /** False when a person edited the event model meanwhile: theirs is kept. */
  event_model_applied: z.boolean(),
});

/** GET /projects/{id}/planning: where a coding agent's planning stands, for the person watching it. */
export const planningStatus = z
  .object({
    /** The step the agent is on: splits done, plus the one it waits on. */
    step: z.number().int(),
    /** The task the next step splits (null when none waits). */
    node_id: z.string().nullable(),
    title: z.string().nullable(),
    /** Tasks waiting to be split now (each may add more). */
    waiting: z.number().int(),
  })
  .meta({ id: "PlanningStatus" });
export type PlanningStatus = z.infer<typeof planningStatus>;

/** POST /projects/{id}/planning/stop: the rest planned by the offline planner. */
export const stoppedPlanning = z
  .object({ planned_by_outline: z.number().int() })
  .meta({ id: "StoppedPlanning" });
