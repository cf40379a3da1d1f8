import { complexityBand } from "../../../../shared/complexity";
import { taskTitle } from "../../../../shared/task-title";
import { IntegrationError, TIMED_OUT, UNREACHABLE } from "../../../integrations/errors";
import { type GithubFailure, githubClient } from "../../../integrations/github/client";
import { exportCounts, previousExport } from "../remote";
import { subtasksOf } from "../tracker";
import type { Exporter } from "../tracker-deps";
import { blockersFirst, body, LABELS } from "./payloads";
import { runGithubExport } from "./run";
import type { GithubPlan } from "./types";

/** The export's own words (the Settings page words the same failures for connecting, integrations/github/client.ts). */
function describeGithubExport(f: GithubFailure): string {
  if (f.status === null) return f.timedOut ? TIMED_OUT : UNREACHABLE;
  if (f.status === 401)
    return "GitHub rejected the connected token (Bad credentials). Reconnect GitHub in Settings.";
  if (f.status === 403 && f.acceptedPermissions)
    return `The connected token lacks a permission this export needs on the repository (GitHub asked for ${f.acceptedPermissions}). Give the token "Issues: Read and write" on it, or reconnect GitHub with another token.`;
  if (f.status === 404) return NOT_WRITABLE;
  if (f.status === 410) return ISSUES_DISABLED;
  return `GitHub answered ${f.status}${f.message ? `: ${f.message}` : ""}`;
}

const NOT_WRITABLE = "The repository was not found, or the connected token cannot write to it.";
const ISSUES_DISABLED = "Issues are disabled on this repository.";

/**
 * One issue per task with complexity and story-point labels; the hierarchy as sub-issues (and task lists).
 * `prepare` reads the repository: it must exist, take issues, and let the token push (labels on an issue
 * are silently dropped otherwise).
 */
export const githubExporter: Exporter<GithubPlan> = {
  async prepare(ctx) {
    const [owner, repo] = String(ctx.config.repository).split("/") as [string, string];
    const github = githubClient(ctx.deps, ctx.secret.token ?? null, {
      signal: ctx.signal,
      retries: ctx.deps.config.EXPORT_HTTP_RETRIES,
      describe: describeGithubExport,
    });
    const { data, headers } = await github.rest.repos.get({ owner, repo });
    if (!data.has_issues) throw new IntegrationError(ISSUES_DISABLED, 410);
    if (data.permissions && !data.permissions.push) throw new IntegrationError(NOT_WRITABLE, 403);
    // A classic token lists its scopes: a private repository needs `repo`, a public one `public_repo` at least.
    const scopes = headers["x-oauth-scopes"]?.split(",").map((x) => x.trim());
    if (scopes && !scopes.includes("repo") && (data.private || !scopes.includes("public_repo"))) {
      throw new IntegrationError(
        data.private
          ? `The connected token has no repo scope, which ${owner}/${repo} (a private repository) needs. Reconnect GitHub with a token that has it.`
          : "The connected token has neither the repo nor the public_repo scope. Reconnect GitHub with a token that has one.",
        403,
      );
    }
    const tasks = subtasksOf(ctx.tree);
    const exported = new Set(tasks.map((t) => t.id));
    // What earlier exports of this plan made in this repository is updated, not made again.
    const previous = await previousExport(ctx.deps, ctx.tree.id, "github", `${owner}/${repo}`.toLowerCase());
    const issues = blockersFirst(tasks).map((t) => {
      const labels = ["atomize", `complexity: ${complexityBand(t.complexity_score)}`];
      if (t.story_points) labels.push(`sp: ${t.story_points}`);
      const blockedBy = t.depends_on.filter((id) => exported.has(id));
      return { task: t, title: taskTitle(t.description, 250), body: body(t), labels, blockedBy };
    });
    const dependencies = issues.reduce((n, i) => n + i.blockedBy.length, 0);
    const links = tasks
      .filter((t) => t.parent_id && t.parent_id !== ctx.tree.id)
      .map((t) => ({ taskId: t.id, parentTaskId: t.parent_id! }));
    return {
      github,
      previous,
      owner,
      repo,
      repositoryId: data.id,
      issues,
      links,
      writes: {
        labels: LABELS.length,
        ...exportCounts(
          previous,
          issues.map((i) => i.task.id),
        ),
        sub_issues: links.length,
        dependencies,
      },
    };
  },

  run: runGithubExport,
};
