import { and, eq, inArray, isNull, or } from "drizzle-orm";
import { linkedPullRequests, remoteItems } from "../../../db/schema/index";
import type { Deps } from "../../../deps";
import { isRecord, str } from "../tracker";
import { closedIssueNumbers, pullRequestState } from "./pull-requests";
import { githubPageUrl, githubWebBase } from "./urls";

/**
 * A `pull_request` webhook delivery (GitHub's webhook reference, pull_request: `action` opened, edited,
 * closed, reopened, ...; `number`; the pull request with `merged`, its `body` and `base.ref`; the
 * `repository` with its `id`, `full_name` and `default_branch`). The Requirements view then shows the
 * pull requests that close exported issues as they change, without waiting for "Sync now": each delivery
 * replaces what was recorded for that pull request in the repository's plans, from its description as it
 * is now (an edit that drops "Closes #n", or moves the pull request off the default branch, unlinks it).
 */

export type PullRequestEvent = {
  number: number;
  title: string;
  /** Its page on GitHub: the delivery's `html_url` when that is one, else made from the repository and number. */
  url: string;
  /** The pull request's `updated_at`: deliveries apply in this order (null when it says none). */
  updatedAt: Date | null;
  state: "open" | "closed" | "merged";
  /** The issue numbers its description closes, when it targets the default branch (else none). */
  closes: number[];
  repository: { id: string; fullName: string };
};

/** "owner/repo" as GitHub names repositories. */
const FULL_NAME = /^[\w.-]{1,100}\/[\w.-]{1,100}$/;

/** The delivery's facts, or null when it is not a pull request event this can read. */
export function readPullRequestEvent(
  payload: unknown,
  apiUrl = "https://api.github.com",
): PullRequestEvent | null {
  if (!isRecord(payload) || !isRecord(payload.pull_request) || !isRecord(payload.repository)) return null;
  const pr = payload.pull_request;
  const repo = payload.repository;
  const number = pr.number;
  const fullName = str(repo.full_name);
  const title = str(pr.title);
  const url = str(pr.html_url);
  const state = str(pr.state);
  if (
    !Number.isSafeInteger(number) ||
    (number as number) <= 0 ||
    !fullName ||
    title === null ||
    !url ||
    !state
  )
    return null;
  if (!Number.isSafeInteger(repo.id) || !FULL_NAME.test(fullName)) return null;
  const updated = str(pr.updated_at);
  const updatedAt = updated && !Number.isNaN(Date.parse(updated)) ? new Date(updated) : null;
  const base = isRecord(pr.base) ? pr.base : {};
  const defaultBranch =
    str(repo.default_branch) ?? (isRecord(base.repo) ? str(base.repo.default_branch) : null);
  const onDefault = defaultBranch !== null && str(base.ref) === defaultBranch;
  const mergedAt = str(pr.merged_at) ?? (pr.merged === true ? "merged" : null);
  return {
    number: number as number,
    title: title.slice(0, 1000),
    url: githubPageUrl(url, apiUrl) ?? `${githubWebBase(apiUrl)}/${fullName}/pull/${number}`,
    updatedAt,
    state: pullRequestState({ state, merged_at: mergedAt }),
    closes: onDefault ? closedIssueNumbers(str(pr.body), fullName) : [],
    repository: { id: String(repo.id), fullName: fullName.toLowerCase() },
  };
}

/**
 * Records which of the user's exported issues in that repository the pull request closes, per plan.
 * Returns the plans whose links changed (for the live update) and how many links it holds now.
 */
export async function applyPullRequestEvent(
  deps: Deps,
  userId: string,
  event: PullRequestEvent,
): Promise<{ plans: string[]; linked: number; stale?: true }> {
  // The user's issues exported to this repository: by its id (a rename keeps it), or by name for items
  // exported before ids were kept.
  const inRepository = or(
    eq(remoteItems.containerId, event.repository.id),
    and(isNull(remoteItems.containerId), eq(remoteItems.target, event.repository.fullName)),
  );
  const items = await deps.db
    .select({
      taskId: remoteItems.taskId,
      rootTaskId: remoteItems.rootTaskId,
      target: remoteItems.target,
      remoteId: remoteItems.remoteId,
      removedAt: remoteItems.removedAt,
    })
    .from(remoteItems)
    .where(and(eq(remoteItems.userId, userId), eq(remoteItems.kind, "github"), inRepository));
  if (items.length === 0) return { plans: [], linked: 0 };
  const targets = [...new Set(items.map((i) => i.target))];
  const closes = new Set(event.closes.map(String));
  const rows = items
    .filter((i) => i.taskId && !i.removedAt && closes.has(i.remoteId))
    .map((i) => ({
      userId,
      rootTaskId: i.rootTaskId,
      taskId: i.taskId!,
      repository: i.target,
      number: event.number,
      title: event.title,
      url: event.url,
      state: event.state,
      remoteUpdatedAt: event.updatedAt,
    }));
  // What was recorded for this pull request in the repository (under any name its items were exported to).
  const recorded = and(
    eq(linkedPullRequests.userId, userId),
    eq(linkedPullRequests.number, event.number),
    inArray(linkedPullRequests.repository, targets),
  );
  const before = await deps.db
    .select({
      rootTaskId: linkedPullRequests.rootTaskId,
      remoteUpdatedAt: linkedPullRequests.remoteUpdatedAt,
    })
    .from(linkedPullRequests)
    .where(recorded);
  // A delivery older than what is recorded (a late "opened" after "closed") changes nothing.
  const newest = Math.max(-Infinity, ...before.map((b) => b.remoteUpdatedAt?.getTime() ?? -Infinity));
  if (event.updatedAt && event.updatedAt.getTime() < newest) return { plans: [], linked: 0, stale: true };
  await deps.db.transaction(async (tx) => {
    await tx.delete(linkedPullRequests).where(recorded);
    if (rows.length) await tx.insert(linkedPullRequests).values(rows).onConflictDoNothing();
  });
  const plans = [...new Set([...before.map((b) => b.rootTaskId), ...rows.map((r) => r.rootTaskId)])];
  return { plans, linked: rows.length };
}
