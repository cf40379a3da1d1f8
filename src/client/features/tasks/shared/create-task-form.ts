import { type CreateTaskInput, TASK_DEFAULTS } from "../../../../shared/schemas/tasks";

export type CreateTaskValues = {
  description: string;
  applicationType: string;
  techStackId: string;
  githubRepo: string;
  /** Review before commit: stop after the first-level plan and wait for approval. */
  requiresApproval: boolean;
};
/** The text fields (the ones that can have an error). */
export type CreateTaskField = Exclude<keyof CreateTaskValues, "requiresApproval">;

export const EMPTY_CREATE_TASK: CreateTaskValues = {
  description: "",
  applicationType: "",
  techStackId: "",
  githubRepo: "",
  requiresApproval: TASK_DEFAULTS.requires_approval,
};

export const CREATE_TASK_FAILED = "Failed to create task";

/** Task creation payload: trimmed text, the creation defaults and the tech preferences. */
export function createTaskPayload(values: CreateTaskValues): CreateTaskInput {
  return {
    description: values.description.trim(),
    ...TASK_DEFAULTS,
    requires_approval: values.requiresApproval,
    tech_preferences: {
      application_type: values.applicationType || null,
      tech_stack_id: (values.applicationType && values.techStackId) || null,
      github_repo: values.githubRepo.trim() || null,
      additional_requirements: null,
    },
  };
}

/** createTaskInput's paths to the form's fields. */
export const CREATE_TASK_FIELDS: Record<string, CreateTaskField> = {
  description: "description",
  "tech_preferences.application_type": "applicationType",
  "tech_preferences.tech_stack_id": "techStackId",
  "tech_preferences.github_repo": "githubRepo",
};
