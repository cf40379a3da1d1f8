import type { Task } from "../../../shared/schemas/tasks";

const count = (n: number) => n.toLocaleString("en");
const numberOf = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);

/** "Planned by the offline planner" / "Planned by gpt-4o-mini via an OpenAI-compatible API". */
export function plannedByText(task: Pick<Task, "planner" | "model">): string | null {
  if (task.planner === "offline") return "Planned by the offline planner";
  if (task.planner === "langchain")
    return `Planned by ${task.model || "a language model"} via an OpenAI-compatible API`;
  if (task.planner) return `Planned by ${task.planner}${task.model ? ` (${task.model})` : ""}`;
  return null;
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
