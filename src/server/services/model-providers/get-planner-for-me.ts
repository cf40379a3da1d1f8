import type { PlannerForMe } from "../../../shared/schemas/model-providers";
import type { Deps } from "../../deps";
import type { UserRow } from "../auth/sessions";

// ---- which planner runs, and a local Ollama -------------------------------------------------------

export async function getPlannerForMe(deps: Deps, user: UserRow): Promise<PlannerForMe> {
  const choice = await deps.planners.choiceFor(user.id);
  return {
    name: choice.planner.name,
    model: choice.planner.model,
    source: choice.source,
    problem: choice.problem,
  };
}
