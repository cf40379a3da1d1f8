import type { AgentTask } from "../../../shared/schemas/agent";
import type { Deps } from "../../deps";
import { getOwnedRow } from "../../plan/owned";
import { agentTaskIn, loadPlan } from "./agent-view";

/** One task with everything needed to do it: its text, criteria, requirements, order, notes and project. */
export async function getAgentTask(deps: Deps, userId: string, id: string): Promise<AgentTask> {
  const row = await getOwnedRow(deps, userId, id);
  const plan = await loadPlan(deps, row.rootTaskId ?? row.id, { titles: false });
  return agentTaskIn(deps, plan, row.id);
}
