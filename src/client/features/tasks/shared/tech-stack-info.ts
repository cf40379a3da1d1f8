import { findApplicationType, findStack } from "../../../../shared/catalogue";
import { parseGithubRepoUrl } from "../../../../shared/github-names";
import type { Task } from "../../../../shared/schemas/tasks";

export type TechStackRow = { label: string; value: string };

export type TechStackInfo = {
  rows: TechStackRow[];
  repoUrl: string | null;
  additionalRequirements: string | null;
};

const text = (v: unknown): string | null => (typeof v === "string" && v.trim() !== "" ? v.trim() : null);

/**
 * What the Technology Stack card shows: the application type and stack from the catalogue (by the ids the
 * user chose), then what the task context says about frontend, backend, database and deployment.
 */
export function techStackInfo(task: Task): TechStackInfo {
  const prefs = task.tech_preferences ?? {};
  const ctx = task.context?.tech_stack ?? null;
  const appTypeId = text(prefs.application_type) ?? text(ctx?.application_type);
  const appType = appTypeId ? findApplicationType(appTypeId) : undefined;
  const stackId = text(prefs.tech_stack_id);
  const stack = appType && stackId ? findStack(appType.id, stackId) : undefined;

  const rows: TechStackRow[] = [];
  const add = (label: string, value: string | null | undefined) => {
    if (value) rows.push({ label, value });
  };
  add("Application Type", appType?.label ?? appTypeId);
  add("Tech Stack", stack?.name ?? stackId);
  add("Frontend", text(ctx?.frontend) ?? stack?.frontend_framework);
  add("Backend", text(ctx?.backend) ?? stack?.backend_language);
  add("Database", text(ctx?.database) ?? stack?.database);
  add("Deployment", text(ctx?.deployment) ?? text(ctx?.deployment_target));
  if (ctx?.preferred_languages?.length) add("Languages", ctx.preferred_languages.join(", "));
  for (const [category, names] of Object.entries(ctx?.frameworks ?? {})) {
    if (names.length)
      add(
        category.replace(/[_-]+/g, " ").replace(/^\w/, (c) => c.toUpperCase()),
        names.join(", "),
      );
  }
  // The context description repeats the stack's name and blurb when a stack was chosen.
  add("Notes", stack ? stack.description : text(ctx?.description));

  const repo = text(prefs.github_repo);
  return {
    rows,
    // Linked only when it is a repository URL as task creation accepts one.
    repoUrl: repo && parseGithubRepoUrl(repo) ? repo : null,
    additionalRequirements: text(prefs.additional_requirements),
  };
}
