import { and, eq } from "drizzle-orm";
import { linkedPullRequests, type remoteItems } from "../../../db/schema/index";
import type { Deps } from "../../../deps";
import { readCredential } from "../../../integrations/credentials";
import { githubClient } from "../../../integrations/github/client";
import { githubPageUrl, githubWebBase } from "./urls";

/**
 * Pull requests that close exported GitHub issues, for the Requirements view: during "Sync now", the
 * repository's pull requests are read with the issues each will close, and each one that closes an
 * exported issue is recorded against that issue's task.
 *
 * GitHub's own set is GraphQL's `closingIssuesReferences` (docs.github.com/graphql/reference/objects
 * #pullrequest): keyword links into the default branch and the links people make by hand in the
 * Development sidebar, which REST does not show. So the pull requests are read over GraphQL; where GraphQL
 * is refused (a 401, 403 or 404 from /graphql, an organisation's SAML rule, a server without it), they
 * are listed over REST (`GET /repos/{owner}/{repo}/pulls`, pulls/list) and their descriptions read for
 * keywords, the rule below, which misses the links made by hand.
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

/** A Markdown list item's line: a keyword there links nothing (issue 43's reading of GitHub's rule). */
const LIST_ITEM = /^\s*(?:[-*+]|\d+[.)])\s/;

const CLOSING =
  /(?<![\w-])(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?):?\s+(?:https:\/\/github\.com\/([\w.-]+)\/([\w.-]+)\/issues\/(\d+)|(?:([\w.-]+)\/([\w.-]+))?#(\d+))(?![\w/])/gi;

/** The numbers of the issues of `repository` ("owner/repo") a pull request description closes, in order. */
export function closedIssueNumbers(body: string | null | undefined, repository: string): number[] {
  const here = repository.toLowerCase();
  const out: number[] = [];
  const prose = (body ?? "")
    .split("\n")
    .filter((l) => !LIST_ITEM.test(l))
    .join("\n");
  for (const m of prose.matchAll(CLOSING)) {
    const owner = m[1] ?? m[4];
    const repo = m[2] ?? m[5];
    if (owner !== undefined && `${owner}/${repo}`.toLowerCase() !== here) continue;
    const n = Number(m[3] ?? m[6]);
    if (Number.isSafeInteger(n) && n > 0 && !out.includes(n)) out.push(n);
  }
  return out;
}

export type PullRequestState = "open" | "closed" | "merged";

/** A pull request as a sync reads it: the issues of the synced repository it will close. */
type ReadPull = {
  number: number;
  title: string;
  url: string;
  state: PullRequestState;
  updatedAt: string;
  closes: number[];
};

type GithubClient = ReturnType<typeof githubClient>;

const PULLS_QUERY = `query ($owner: String!, $name: String!, $after: String) {
  repository(owner: $owner, name: $name) {
    pullRequests(first: 50, after: $after, orderBy: { field: UPDATED_AT, direction: DESC }) {
      pageInfo { hasNextPage endCursor }
      nodes {
        number title url state updatedAt
        closingIssuesReferences(first: 25) { nodes { number repository { nameWithOwner } } }
      }
    }
  }
}`;

type PullsAnswer = {
  repository: {
    pullRequests: {
      pageInfo: { hasNextPage: boolean; endCursor: string | null };
      nodes: Array<{
        number: number;
        title: string;
        url: string;
        state: "OPEN" | "CLOSED" | "MERGED";
        updatedAt: string;
        closingIssuesReferences: {
          nodes: Array<{ number: number; repository: { nameWithOwner: string } }>;
        } | null;
      } | null>;
    };
  } | null;
};

/** The repository's pull requests changed since `since` (ms), with GitHub's own closing links. */
async function pullsByGraphql(github: GithubClient, target: string, since: number): Promise<ReadPull[]> {
  const [owner, name] = target.split("/") as [string, string];
  const out: ReadPull[] = [];
  for (let after: string | null = null; ; ) {
    const answer: PullsAnswer = await github.graphql<PullsAnswer>(PULLS_QUERY, { owner, name, after });
    const page = answer.repository?.pullRequests;
    if (!page) throw new Error("GitHub's GraphQL answer has no pull requests");
    for (const pr of page.nodes) {
      if (!pr) continue;
      if (Date.parse(pr.updatedAt) < since || out.length >= PULL_REQUESTS_READ_MAX) return out;
      out.push({
        number: pr.number,
        title: pr.title,
        url: pr.url,
        state: pr.state === "MERGED" ? "merged" : pr.state === "CLOSED" ? "closed" : "open",
        updatedAt: pr.updatedAt,
        closes: (pr.closingIssuesReferences?.nodes ?? [])
          .filter((i) => i.repository.nameWithOwner.toLowerCase() === target.toLowerCase())
          .map((i) => i.number),
      });
    }
    if (!page.pageInfo.hasNextPage || !page.pageInfo.endCursor) return out;
    after = page.pageInfo.endCursor;
  }
}

/** The same over REST, where GraphQL is refused: keyword links in descriptions into the default branch. */
async function pullsByKeyword(github: GithubClient, target: string, since: number): Promise<ReadPull[]> {
  const [owner, repo] = target.split("/") as [string, string];
  const out: ReadPull[] = [];
  let read = 0;
  for await (const page of github.paginate.iterator(github.rest.pulls.list, {
    owner,
    repo,
    state: "all",
    sort: "updated",
    direction: "desc",
    per_page: 100,
  })) {
    for (const pr of page.data) {
      if (Date.parse(pr.updated_at) < since || ++read > PULL_REQUESTS_READ_MAX) return out;
      if (pr.base.ref !== pr.base.repo.default_branch) continue;
      out.push({
        number: pr.number,
        title: pr.title,
        url: pr.html_url,
        state: pullRequestState(pr),
        updatedAt: pr.updated_at,
        closes: closedIssueNumbers(pr.body, target),
      });
    }
  }
  return out;
}

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
      const github = githubClient(deps, stored.secret.token, { retries: 1 });
      // Most recently changed first: one last changed before the first issue was made cannot name it.
      const since = oldest - 60_000;
      const pulls = await pullsByGraphql(github, target, since).catch(() =>
        pullsByKeyword(github, target, since),
      );
      for (const pr of pulls) {
        for (const n of pr.closes) {
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
              githubPageUrl(pr.url, deps.config.GITHUB_API_URL) ??
              `${githubWebBase(deps.config.GITHUB_API_URL)}/${target}/pull/${pr.number}`,
            state: pr.state,
            remoteUpdatedAt: Number.isNaN(Date.parse(pr.updatedAt)) ? null : new Date(pr.updatedAt),
          });
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
