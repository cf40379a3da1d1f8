import type { GithubClient } from "../../../integrations/github/client";
import { isStatus } from "./errors";
import { taskMarker } from "./payloads";
import type { GithubState } from "./types";

/**
 * After a create whose answer was lost: the repository's issues labelled "atomize" since the export
 * began, newest first, searched for the pending task's marker. GitHub's issue list is read from its
 * database, not a search index, so an issue just created is already there.
 */
export async function findPendingIssue(
  github: GithubClient,
  owner: string,
  repo: string,
  state: GithubState,
  since: Date,
) {
  const taskId = state.pending_issue!;
  const marker = taskMarker(taskId);
  for await (const page of github.paginate.iterator(github.rest.issues.listForRepo, {
    owner,
    repo,
    labels: "atomize",
    state: "all",
    since: new Date(since.getTime() - 60_000).toISOString(),
    sort: "created",
    direction: "desc",
    per_page: 100,
  })) {
    const found = page.data.find((i) => i.body?.includes(marker));
    if (found) {
      state.issues![taskId] = { number: found.number, id: found.id, url: found.html_url };
      break;
    }
  }
  state.pending_issue = undefined;
}

/** An issue an earlier export made, or null when it is gone (deleted or transferred since). */
export function issueIfThere(github: GithubClient, owner: string, repo: string, number: string) {
  return github.rest.issues
    .get({ owner, repo, issue_number: Number(number) })
    .then((r) => r.data)
    .catch((err: unknown) => {
      if (isStatus(err, 404) || isStatus(err, 410)) return null;
      throw err;
    });
}
