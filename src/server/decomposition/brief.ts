import { findApplicationType, findStack } from "../../shared/catalogue";
import type { TaskRow } from "../services/tasks/serialize";
import type { ProjectBrief } from "./planner";
import { extractScope } from "./requirements";

export type DecompositionOptions = {
  maxDepth: number;
  maxSubtasks: number;
  threshold: number;
  requiresApproval: boolean;
  githubRepo: string | null;
};

export function optionsOf(root: TaskRow): DecompositionOptions {
  const o = (root.options ?? {}) as Record<string, unknown> & { tech_preferences?: Record<string, unknown> };
  return {
    maxDepth: typeof o.max_depth === "number" ? o.max_depth : 4,
    maxSubtasks: typeof o.max_subtasks === "number" ? o.max_subtasks : 7,
    threshold: typeof o.complexity_threshold === "number" ? o.complexity_threshold : 0.7,
    requiresApproval: o.requires_approval === true,
    githubRepo: typeof o.tech_preferences?.github_repo === "string" ? o.tech_preferences.github_repo : null,
  };
}

export function briefOf(root: TaskRow, repositorySummary: string | null): ProjectBrief {
  const prefs =
    ((root.options ?? {}) as { tech_preferences?: Record<string, string | null> }).tech_preferences ?? {};
  const type = prefs.application_type ? findApplicationType(prefs.application_type) : undefined;
  const stack = type && prefs.tech_stack_id ? findStack(type.id, prefs.tech_stack_id) : undefined;
  return {
    description: root.description,
    applicationType: type ? { id: type.id, label: type.label, description: type.description } : null,
    stack: stack ? { ...stack } : null,
    additionalRequirements: prefs.additional_requirements ?? null,
    repositorySummary,
    scope: extractScope(root.description, prefs.additional_requirements ?? null),
  };
}
