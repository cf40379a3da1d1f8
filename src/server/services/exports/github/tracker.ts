import { parseGithubRepository } from "../../../../shared/github-names";
import type { Deps } from "../../../deps";
import { AppError } from "../../../errors";
import { readCredential } from "../../../integrations/credentials";
import { githubClient } from "../../../integrations/github/client";
import {
  type AddedItem,
  type Change,
  hubSignatureOk,
  isRecord,
  pointsFromLabels,
  type Reading,
  type RemoteStatus,
  str,
  time,
} from "../tracker";
import type { Tracker } from "../tracker-deps";
import { githubExporter } from "./exporter";
import { applyPullRequestEvent, readPullRequestEvent } from "./pull-request-events";
import { syncLinkedPullRequests } from "./pull-requests";

/**
 * GitHub Issues as a tracker: an issue per task with the `atomize` label, sub-issues for the tree; open
 * and closed are the status. Webhooks are signed `X-Hub-Signature-256: sha256=<hex>` with a secret Atomize
 * makes ("Validating webhook deliveries", docs.github.com/webhooks); `issues` events move tasks, and
 * `pull_request` events list the pull requests that close exported issues (github/pull-request-events.ts).
 */
export const githubTracker: Tracker = {
  kind: "github",
  async start(deps, userId, input) {
    const stored = await readCredential<{ token: string }>(deps, userId, "github");
    if (!stored)
      throw new AppError("UNPROCESSABLE_CONTENT", "Connect your GitHub account in Settings first.");
    return { secret: { token: stored.secret.token }, config: { repository: input.config.repository } };
  },
  async previewTarget(_deps, _userId, input) {
    const repo = input.repository ? parseGithubRepository(input.repository) : null;
    return repo ? `${repo.owner}/${repo.repo}`.toLowerCase() : null;
  },
  exporter: githubExporter,
  read: (deps, userId, target) => githubReading(deps, userId, target),
  // Pull requests that close its issues, for the Requirements view (github/pull-requests.ts).
  afterRead: syncLinkedPullRequests,
  webhook: {
    secret: { made: true },
    verify: (secret, raw, _url, headers) => hubSignatureOk(secret, raw, headers["x-hub-signature-256"]),
    // A redelivery keeps the original id, the header GitHub advises checking against replays.
    deliveryId: (headers) => headers["x-github-delivery"]?.trim() || null,
    change: (headers, payload) => githubChange(headers["x-github-event"], payload),
    async handle(deps, userId, headers, payload) {
      if (headers["x-github-event"] !== "pull_request") return undefined;
      const event = readPullRequestEvent(payload, deps.config.GITHUB_API_URL);
      if (!event) return { status: "ignored", changed: 0 };
      const { plans, linked, stale } = await applyPullRequestEvent(deps, userId, event);
      if (stale) return { status: "stale", changed: 0 };
      if (plans.length === 0) return { status: "ignored", changed: 0 };
      for (const rootId of plans) {
        await deps.events.publish({
          type: "task.updated",
          userId,
          taskId: rootId,
          rootTaskId: rootId,
          message: "Pull requests linked",
          data: { pull_requests_changed: true },
        });
      }
      return { status: "applied", changed: linked };
    },
  },
};

/** GitHub's reasons for closing an issue that do not mean its work was done. */
const CLOSED_UNDONE = new Set(["not_planned", "duplicate"]);

/**
 * Open or closed: closed as not planned or as a duplicate is not done and is left alone; a reopened issue
 * reopens a completed task. `undone` is the closing in words when it is one of those.
 */
function githubStatus(state: string, reason: string | null): RemoteStatus & { undone: string | null } {
  const text = state === "closed" && reason ? `closed (${reason.replace(/_/g, " ")})` : state;
  const undone = state === "closed" && CLOSED_UNDONE.has(reason ?? "");
  return {
    text,
    means: state === "closed" ? (undone ? null : "completed") : "open",
    undone: undone ? text : null,
  };
}

/**
 * The repository's issues with the atomize label: state, title, body and story-point label. An issue a
 * person labelled atomize that no export made is an item added there.
 */
async function githubReading(deps: Deps, userId: string, target: string): Promise<Reading> {
  const stored = await readCredential<{ token: string }>(deps, userId, "github");
  if (!stored) throw new Error("connect GitHub in Settings to sync its statuses");
  const [owner, repo] = target.split("/") as [string, string];
  const github = githubClient(deps, stored.secret.token, { retries: 1 });
  const items: Reading["items"] = new Map();
  const labelled: AddedItem[] = [];
  for await (const page of github.paginate.iterator(github.rest.issues.listForRepo, {
    owner,
    repo,
    labels: "atomize",
    state: "all",
    per_page: 100,
  })) {
    for (const issue of page.data) {
      if (issue.pull_request) continue;
      const labels = issue.labels.map((l) => (typeof l === "string" ? l : (l.name ?? "")));
      const { undone, ...state } = githubStatus(issue.state, issue.state_reason ?? null);
      items.set(String(issue.number), {
        state,
        snap: {
          title: issue.title,
          text: issue.body ?? "",
          story_points: pointsFromLabels(labels, /^sp: (\d+)$/),
          closed: undone,
        },
        at: time(issue.updated_at),
      });
      if (issue.state === "open")
        labelled.push({
          remoteId: String(issue.number),
          key: `#${issue.number}`,
          url: issue.html_url,
          title: issue.title,
          text: issue.body ?? "",
          parent: null,
        });
    }
  }
  return { items, added: labelled };
}

/**
 * An `issues` event: opened/closed/reopened/edited/labeled/unlabeled... The status applies only on closed
 * and reopened; the issue's title, body and story-point label go to review whatever the action.
 */
function githubChange(event: string | undefined, p: unknown): Change | null {
  if (event !== "issues" || !isRecord(p) || !isRecord(p.issue) || !isRecord(p.repository)) return null;
  const number = p.issue.number;
  const repo = str(p.repository.full_name);
  const repoId = p.repository.id;
  const state = str(p.issue.state);
  if (!Number.isInteger(number) || !repo || !state) return null;
  const { undone, ...remote } = githubStatus(state, str(p.issue.state_reason));
  const labels = Array.isArray(p.issue.labels)
    ? p.issue.labels.map((l) => (isRecord(l) ? (str(l.name) ?? "") : typeof l === "string" ? l : ""))
    : null;
  const title = str(p.issue.title);
  const body = p.issue.body === null ? "" : str(p.issue.body);
  return {
    remoteId: String(number),
    target: repo.toLowerCase(),
    ...(typeof repoId === "number" && Number.isInteger(repoId) ? { containerId: String(repoId) } : {}),
    state: ["closed", "reopened"].includes(String(p.action)) ? remote : null,
    snap: {
      ...(title !== null ? { title } : {}),
      ...(body !== null ? { text: body } : {}),
      ...(labels ? { story_points: pointsFromLabels(labels, /^sp: (\d+)$/) } : {}),
      closed: undone,
    },
    at: time(p.issue.updated_at),
  };
}
