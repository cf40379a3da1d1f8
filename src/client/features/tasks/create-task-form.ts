import { type CreateTaskInput, isGithubRepoUrl, TASK_DEFAULTS } from "../../../shared/schemas/tasks";

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
export type CreateTaskErrors = Partial<Record<CreateTaskField, string>>;

export const EMPTY_CREATE_TASK: CreateTaskValues = {
  description: "",
  applicationType: "",
  techStackId: "",
  githubRepo: "",
  requiresApproval: TASK_DEFAULTS.requires_approval,
};

export const DESCRIPTION_REQUIRED = "Please enter a task description";
export const GITHUB_REPO_INVALID = "Enter a GitHub repository URL like https://github.com/owner/repo";
export const CREATE_TASK_FAILED = "Failed to create task";

/** Create task: the description must not be blank; the repo URL must look like a GitHub repo. */
export function validateCreateTask(values: CreateTaskValues): CreateTaskErrors {
  const errors: CreateTaskErrors = {};
  if (!values.description.trim()) errors.description = DESCRIPTION_REQUIRED;
  const repo = values.githubRepo.trim();
  if (repo && !isGithubRepoUrl(repo)) errors.githubRepo = GITHUB_REPO_INVALID;
  return errors;
}

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

/** The server's field names (zod paths of createTaskInput) to the form's fields. */
export const FIELD_BY_SERVER_NAME: Record<string, CreateTaskField> = {
  description: "description",
  "tech_preferences.application_type": "applicationType",
  "tech_preferences.tech_stack_id": "techStackId",
  "tech_preferences.github_repo": "githubRepo",
};
