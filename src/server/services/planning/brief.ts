import { findApplicationType, findStack } from "../../../shared/catalogue";
import { readTaskOptions, TASK_DEFAULTS } from "../../../shared/schemas/tasks";
import type { TaskRow } from "../tasks/serialize";
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
  const o = readTaskOptions(root.options);
  return {
    maxDepth: o.max_depth ?? TASK_DEFAULTS.max_depth,
    maxSubtasks: o.max_subtasks ?? TASK_DEFAULTS.max_subtasks,
    threshold: o.complexity_threshold ?? TASK_DEFAULTS.complexity_threshold,
    requiresApproval: o.requires_approval === true,
    githubRepo: o.tech_preferences?.github_repo ?? null,
  };
}

export function briefOf(root: TaskRow, repositorySummary: string | null): ProjectBrief {
  const prefs = readTaskOptions(root.options).tech_preferences ?? {};
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
