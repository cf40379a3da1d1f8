import { and, eq } from "drizzle-orm";
import { linkedPullRequests, type remoteItems } from "../../../db/schema/index";
import type { Deps } from "../../../deps";
import { readCredential } from "../../../integrations/credentials";
import { githubClient } from "../../../integrations/github/client";
import { githubPageUrl, githubWebBase } from "./urls";

/**
 * Pull requests that close exported GitHub issues, for the Requirements view: during "Sync now", the
 * repository's pull requests are listed (`GET /repos/{owner}/{repo}/pulls`, pulls/list) and each one whose
 * description closes an exported issue with a keyword is recorded against that issue's task.
 *
 * GitHub's rule ("Linking a pull request to an issue",
 * https://docs.github.com/issues/tracking-your-work-with-issues/using-issues/linking-a-pull-request-to-an-issue#linking-a-pull-request-to-an-issue-using-a-keyword):
 * a keyword (close, closes, closed, fix, fixes, fixed, resolve, resolves, resolved), then `#10` for an
 * issue of the same repository or `octo-org/octo-repo#100` for any; one keyword per issue ("Resolves #10,
 * resolves #123"); and only when the pull request targets the default branch ("the PR must be on the
 * default branch"). GitHub also reads a colon after the keyword ("Fixes: #1234", eclipse-openj9/openj9#180)
 * and an issue's URL ("Fix https://github.com/xx/yy/issues/123", isaacs/github#1731); a word between them
 * ("Fixes issue #615") links nothing (DotNetAnalyzers/StyleCopAnalyzers#616). Only the description counts
 * here: keywords in commit messages close issues without linking the pull request (same page).
 */

const CLOSING =
  /(?<![\w-])(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?):?\s+(?:https:\/\/github\.com\/([\w.-]+)\/([\w.-]+)\/issues\/(\d+)|(?:([\w.-]+)\/([\w.-]+))?#(\d+))(?![\w/])/gi;

/** The numbers of the issues of `repository` ("owner/repo") a pull request description closes, in order. */
export function closedIssueNumbers(body: string | null | undefined, repository: string): number[] {
  const here = repository.toLowerCase();
  const out: number[] = [];
  for (const m of (body ?? "").matchAll(CLOSING)) {
    const owner = m[1] ?? m[4];
    const repo = m[2] ?? m[5];
    if (owner !== undefined && `${owner}/${repo}`.toLowerCase() !== here) continue;
    const n = Number(m[3] ?? m[6]);
    if (Number.isSafeInteger(n) && n > 0 && !out.includes(n)) out.push(n);
  }
  return out;
}

export type PullRequestState = "open" | "closed" | "merged";

/** GitHub says "closed" for a merged pull request too; `merged_at` tells them apart. */
export function pullRequestState(pr: { state: string; merged_at: string | null }): PullRequestState {
  if (pr.merged_at) return "merged";
  return pr.state === "closed" ? "closed" : "open";
}

/** The most pull requests one sync reads in a repository (20 pages of 100, newest changes first). */
export const PULL_REQUESTS_READ_MAX = 2000;

type ItemRow = typeof remoteItems.$inferSelect;

/**
 * Reads the repository's pull requests and records, for one plan, which of its exported issues each
 * closes (replacing what the last sync recorded for that repository). Returns problems in words (a
 * token that may read issues but not pull requests is one), never throws: the statuses synced anyway.
 */
export async function syncLinkedPullRequests(
  deps: Deps,
  userId: string,
  rootTaskId: string,
  target: string,
  items: ItemRow[],
): Promise<string[]> {
  const tasksByNumber = new Map<number, string>();
  let oldest = Number.POSITIVE_INFINITY;
  for (const it of items) {
    if (it.removedAt || !it.taskId || !/^\d+$/.test(it.remoteId)) continue;
    tasksByNumber.set(Number(it.remoteId), it.taskId);
    oldest = Math.min(oldest, it.createdAt.getTime());
  }
  try {
    const rows: (typeof linkedPullRequests.$inferInsert)[] = [];
    if (tasksByNumber.size > 0) {
      const stored = await readCredential<{ token: string }>(deps, userId, "github");
      if (!stored) return []; // the status sync has said so already
      const [owner, repo] = target.split("/") as [string, string];
      const github = githubClient(deps, stored.secret.token, { retries: 1 });
      let read = 0;
      // Most recently changed first: one last changed before the first issue was made cannot name it.
      pages: for await (const page of github.paginate.iterator(github.rest.pulls.list, {
        owner,
        repo,
        state: "all",
        sort: "updated",
        direction: "desc",
        per_page: 100,
      })) {
        for (const pr of page.data) {
          if (Date.parse(pr.updated_at) < oldest - 60_000 || ++read > PULL_REQUESTS_READ_MAX) break pages;
          if (pr.base.ref !== pr.base.repo.default_branch) continue;
          for (const n of closedIssueNumbers(pr.body, target)) {
            const taskId = tasksByNumber.get(n);
            if (!taskId) continue;
            rows.push({
              userId,
              rootTaskId,
              taskId,
              repository: target,
              number: pr.number,
              title: pr.title.slice(0, 1000),
              url:
                githubPageUrl(pr.html_url, deps.config.GITHUB_API_URL) ??
                `${githubWebBase(deps.config.GITHUB_API_URL)}/${target}/pull/${pr.number}`,
              state: pullRequestState(pr),
              remoteUpdatedAt: Number.isNaN(Date.parse(pr.updated_at)) ? null : new Date(pr.updated_at),
            });
          }
        }
      }
    }
    await deps.db.transaction(async (tx) => {
      await tx
        .delete(linkedPullRequests)
        .where(and(eq(linkedPullRequests.rootTaskId, rootTaskId), eq(linkedPullRequests.repository, target)));
      if (rows.length) await tx.insert(linkedPullRequests).values(rows).onConflictDoNothing();
    });
    return [];
  } catch (err) {
    return [`GitHub (${target}): its pull requests could not be read: ${(err as Error).message}`];
  }
}
