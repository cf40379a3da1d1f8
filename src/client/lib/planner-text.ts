import type { PlannerForMe } from "../../shared/schemas/model-providers";
import type { Task } from "../../shared/schemas/tasks";

const count = (n: number) => n.toLocaleString("en");
const numberOf = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);

/** What the offline planner makes: an outline, honestly labelled as not AI output. */
export const OUTLINE_LABEL = "Outline from your description (no AI model connected)";
/** Where a model is connected (Settings → AI model). */
export const CONNECT_MODEL_PATH = "/settings?tab=ai-model";

/**
 * The outline label / "Planned by gpt-4o-mini via an OpenAI-compatible API" / "Planned by your coding
 * agent (claude-code)", the agent named by its API token.
 */
export function plannedByText(task: Pick<Task, "planner" | "model">): string | null {
  if (task.planner === "offline") return OUTLINE_LABEL;
  if (task.planner === "agent") return `Planned by your coding agent${task.model ? ` (${task.model})` : ""}`;
  if (task.planner === "langchain")
    return `Planned by ${task.model || "a language model"} via an OpenAI-compatible API`;
  if (task.planner) return `Planned by ${task.planner}${task.model ? ` (${task.model})` : ""}`;
  return null;
}

/** Which planner a task created now would get: "Planned by gpt-4o-mini (your settings)" or the outline label. */
export function plannerChoiceText(choice: Pick<PlannerForMe, "name" | "model" | "source">): string {
  if (choice.name === "offline") return OUTLINE_LABEL;
  return `Planned by ${choice.model || "a language model"} (${choice.source})`;
}

/**
 * "7 model calls · 12,345 tokens" when the planner used a model; null otherwise. The offline planner
 * counts each stage as a call with no tokens, which are not model calls.
 */
export function usageText(task: Pick<Task, "predictions" | "planner">): string | null {
  if (task.planner === "offline") return null;
  const p = task.predictions ?? {};
  const calls = numberOf(p.llm_calls);
  if (calls <= 0) return null;
  const tokens = numberOf(p.prompt_tokens) + numberOf(p.completion_tokens);
  return `${count(calls)} model ${calls === 1 ? "call" : "calls"} · ${count(tokens)} ${tokens === 1 ? "token" : "tokens"}`;
}
