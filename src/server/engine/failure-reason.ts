import { z } from "zod";
import { AppError } from "../errors";

/**
 * What a person reads when a decomposition step gives up for a reason of ours (not the planner's own,
 * which a PlannerError words for people): one sentence, never an error's dump. A ZodError's message is
 * the JSON of its issues, and a database or programming error's message is meant for the log, which
 * gets the detail (attention.ts).
 */

/** The words for the fields of the plan's schemas (schemas/plan.ts) a reason may name. */
const FIELD_WORDS: Record<string, string> = {
  requirement_ids: "requirement ids",
  acceptance_criteria: "acceptance criteria",
  implementation_details: "notes",
  description: "title",
  estimated_hours: "estimated hours",
  estimate_low_hours: "optimistic estimate",
  estimate_high_hours: "pessimistic estimate",
  depends_on: "dependencies",
  depends_on_elsewhere: "dependencies on other work",
  complexity_score: "complexity score",
  story_points: "story points",
  subtasks: "subtasks",
  user_stories: "user stories",
  best_practices: "best practices",
  read_models: "read models",
  user_interactions: "user interactions",
  sub_chapters: "sub-chapters",
  rationale: "rationale",
};

/** "too many requirement ids": what a schema's issue says, in words (null when it names no field). */
export function issueInWords(issue: z.core.$ZodIssue): string | null {
  const key = [...issue.path].reverse().find((p): p is string => typeof p === "string");
  if (!key) return null;
  const field = FIELD_WORDS[key] ?? key.replace(/_/g, " ");
  const origin = "origin" in issue ? issue.origin : undefined;
  if (issue.code === "too_big")
    return origin === "array"
      ? `too many ${field}`
      : origin === "string"
        ? `${field} too long`
        : `${field} too high`;
  if (issue.code === "too_small")
    return origin === "array"
      ? `too few ${field}`
      : origin === "string"
        ? `${field} empty`
        : `${field} too low`;
  return `${field} missing or malformed`;
}

/**
 * The sentence for a step that failed with `error` (not a PlannerError): the plan's whole run (`plan`,
 * which the user restarts) or one subtask's split (`subtask`, which is flagged and can be restarted).
 */
export function failureReason(error: unknown, step: "plan" | "subtask"): string {
  const retry = step === "plan" ? "Use Restart to try again." : "Restart its decomposition to try again.";
  const what = step === "plan" ? "this step" : "this subtask";
  // The plan is as big as PLAN_MAX_NODES allows (plan/size.ts): the node stays as it is, and says why.
  if (error instanceof AppError && error.status === 422 && /PLAN_MAX_NODES/.test(error.message))
    return `${error.message} ${step === "plan" ? "The plan stops growing here." : "This subtask stays as it is."}`;
  if (error instanceof z.core.$ZodError) {
    const said = error.issues[0] ? issueInWords(error.issues[0]) : null;
    return `The planner's answer for ${what} did not fit the plan's rules${said ? ` (${said})` : ""}. ${retry}`;
  }
  return step === "plan"
    ? `The decomposition stopped on an error of ours, which has been logged. ${retry}`
    : `Splitting this subtask stopped on an error of ours, which has been logged. ${retry}`;
}
