import { eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../db/client";
import { tasks } from "../db/schema/index";
import type { Deps } from "../deps";
import type { Planner, Usage } from "./planners/contract";

/** Model calls' token usage, added up on the root (shown as "predictions" on the task). */

/** The root's running token totals with a model call's usage added (an SQL expression for an update). */
export function predictionsWith(usage: Usage) {
  return sql`coalesce(${tasks.predictions}, '{}'::jsonb) || jsonb_build_object(
      'llm_calls', coalesce((${tasks.predictions}->>'llm_calls')::int, 0) + ${usage.calls},
      'prompt_tokens', coalesce((${tasks.predictions}->>'prompt_tokens')::int, 0) + ${usage.promptTokens},
      'completion_tokens', coalesce((${tasks.predictions}->>'completion_tokens')::int, 0) + ${usage.completionTokens})`;
}

/** Adds model calls' token usage to the root's running totals. */
export async function recordUsage(
  deps: Deps,
  rootId: string,
  usage: Usage,
  planner: Planner,
  tx: DbOrTx = deps.db,
) {
  if (planner.name === "offline") return; // no model, nothing to account for
  await tx
    .update(tasks)
    .set({ predictions: predictionsWith(usage) })
    .where(eq(tasks.id, rootId));
}

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    calls: a.calls + b.calls,
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
  };
}

/** "rule" for the offline planner's estimates, "model" for a language model's (shown on every node). */
export function estimateSourceOf(planner: Planner): "rule" | "model" {
  return planner.name === "offline" ? "rule" : "model";
}
