import type { TaskTreeNode } from "../../../../shared/schemas/tasks";
import type { GithubClient } from "../../../integrations/github/client";
import type { PreviousExport } from "../remote";
import type { ExportPlan } from "../tracker";

export type GithubState = {
  labels?: string[];
  /** Earlier issues brought up to date by this export (task ids). */
  refreshed?: string[];
  /** The task whose issue was being created: after a lost answer, look for it before creating again. */
  pending_issue?: string;
  /** Sub-issue links GitHub refused for a reason other than "already linked" (task id: GitHub's words). */
  sub_issue_refusals?: Record<string, string>;
  issues?: Record<string, { number: number; id: number; url: string }>;
  linked?: string[];
  /** "waiting task id>blocking task id" of the 'blocked by' relationships made, and of those refused with 422. */
  blocked?: string[];
  refused?: string[];
  /** The repository's server has no issue-dependencies endpoint (an older GitHub Enterprise Server). */
  dependenciesUnavailable?: boolean;
};

export type GithubPlan = ExportPlan & {
  github: GithubClient;
  previous: PreviousExport;
  owner: string;
  repo: string;
  /** The repository's numeric id (from GET /repos/{owner}/{repo}), which a rename keeps. */
  repositoryId: number;
  /** In creation order: every issue after the issues it is blocked by, otherwise in tree order. */
  issues: Array<{ task: TaskTreeNode; title: string; body: string; labels: string[]; blockedBy: string[] }>;
  /** Sub-issue links: child task id -> parent task id (first-level tasks have no parent issue). */
  links: Array<{ taskId: string; parentTaskId: string }>;
};
