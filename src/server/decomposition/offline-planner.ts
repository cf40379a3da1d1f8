import {
  type ComplexityAssessment,
  complexityAssessment,
  type EventModelPlan,
  eventModelPlan,
  type PlannedSubtask,
  type ProjectContext,
  plannedSubtask,
  projectContext,
} from "../../shared/schemas/plan";
import { analyseBrief } from "./offline/brief";
import { composeProjectContext } from "./offline/context";
import { composeEventModelPlan } from "./offline/event-model";
import { splitNode, storyPointsFor } from "./offline/plan";
import type { Planned, Planner, Usage } from "./planner";

/** The offline planner makes no model calls; each stage counts as one call with no tokens. */
const USAGE: Usage = { calls: 1, promptTokens: 0, completionTokens: 0 };

function planned<T>(value: T): Planned<T> {
  return { value, usage: { ...USAGE } };
}

/**
 * A deterministic planner for installs without a language model. It reads the description, application
 * type and stack, and builds every stage from curated vocabularies:
 * - offline/brief.ts: feature phrases, title, entities and the complexity assessment;
 * - offline/tech.ts and offline/topics.ts: concrete tools per stack and well-known feature themes;
 * - offline/items.ts, steps*.ts, small-steps.ts, plan.ts: the first-level plan and deeper splits (a node's
 *   children are derived again from its ancestors' texts, so no state is kept between calls);
 * - offline/context.ts and offline/event-model.ts: epics, user stories and the event model.
 * Same input, same output: no randomness, no clock. Results are parsed with the same zod schemas as model
 * output, so a template mistake fails loudly instead of storing bad data.
 */
export function createOfflinePlanner(): Planner {
  return {
    name: "offline",
    model: null,

    async assessComplexity(brief, signal) {
      signal?.throwIfAborted();
      const { score, rationale } = analyseBrief(brief).assessment;
      const value: ComplexityAssessment = {
        complexity_score: score,
        story_points: storyPointsFor(score),
        rationale,
      };
      return planned(complexityAssessment.parse(value));
    },

    async splitTask(request, signal) {
      signal?.throwIfAborted();
      const subtasks: PlannedSubtask[] = splitNode(analyseBrief(request.brief), request);
      return planned(subtasks.map((s) => plannedSubtask.parse(s)));
    },

    async composeContext(request, signal) {
      signal?.throwIfAborted();
      const value: ProjectContext = composeProjectContext(analyseBrief(request.brief), request);
      return planned(projectContext.parse(value));
    },

    async composeEventModel(request, signal) {
      signal?.throwIfAborted();
      const value: EventModelPlan = composeEventModelPlan(analyseBrief(request.brief), request);
      return planned(eventModelPlan.parse(value));
    },
  };
}
