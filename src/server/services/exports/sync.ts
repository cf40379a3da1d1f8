import { and, eq, inArray } from "drizzle-orm";
import type { TaskStatus } from "../../../shared/schemas/tasks";
import { remoteItems, tasks } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { readCredential } from "../../integrations/credentials";
import { githubClient } from "../../integrations/github/client";
import { createHttpClient } from "../../integrations/http-client";
import { connectJira } from "../../integrations/jira/connection";
import { trelloAuthorization } from "../../integrations/trello/auth";
import { trelloBudgets } from "../../integrations/trello/budgets";
import { outboundFetch } from "../../lib/outbound/fetch";
import { getOwnedRow } from "../../plan/owned";
import { updateTask } from "../tasks/tasks";
import { syncLinkedPullRequests } from "./github/pull-requests";
import { adfText } from "./jira/adf-text";
import { ATOMIZE_LABEL } from "./jira/payloads";
import { jqlString, searchAll } from "./jira/search";
import { wikiText } from "./jira/wiki-text";
import {
  type AddedItem,
  announceTrackerChanges,
  type RemoteSnapshot,
  reviewAdded,
  reviewItem,
  reviewStatus,
} from "./tracker-changes";

/**
 * Status flowing back from JIRA, GitHub and Trello (issue 13's two-way sync): "Sync now" asks each
 * service for the status of what an export made; webhooks (webhooks.ts) bring single changes as they
 * happen. Either way a remote status becomes a task status by one rule (`taskStatusFor`), and a change is
 * made through the task service, so progress bars, the schedule and open browsers follow.
 */

/** The statuses a remote change may set (the ones a person may set with PATCH). */
type SyncedStatus = "completed" | "in_progress" | "pending";

export type RemoteState =
  | { kind: "jira"; status: string; category: string }
  | { kind: "github"; state: string; reason: string | null }
  | { kind: "trello"; list: string };

/** GitHub's reasons for closing an issue that do not mean its work was done. */
const CLOSED_UNDONE = new Set(["not_planned", "duplicate"]);

/**
 * The task status a remote status stands for, or null for "leave it": JIRA by status category (done, in
 * progress, to do), GitHub by open/closed (closed as not planned or as a duplicate is not done and is
 * left alone; a reopened issue reopens a completed task), Trello by the list's name.
 */
export function taskStatusFor(remote: RemoteState, current: TaskStatus): SyncedStatus | null {
  let wanted: SyncedStatus | null = null;
  if (remote.kind === "jira") {
    wanted =
      remote.category === "done"
        ? "completed"
        : remote.category === "indeterminate"
          ? "in_progress"
          : "pending";
  } else if (remote.kind === "github") {
    if (remote.state === "closed") wanted = CLOSED_UNDONE.has(remote.reason ?? "") ? null : "completed";
    else wanted = current === "completed" ? "pending" : null;
  } else {
    const list = remote.list.trim().toLowerCase();
    wanted =
      list === "done"
        ? "completed"
        : list === "in progress"
          ? "in_progress"
          : list === "to do"
            ? "pending"
            : null;
  }
  return wanted === current ? null : wanted;
}

/** A remote status in people's words, as the tree shows it ("closed (duplicate)": not done). */
export function remoteStatusText(remote: RemoteState): string {
  if (remote.kind === "jira") return remote.status;
  if (remote.kind === "github")
    return remote.state === "closed" && remote.reason
      ? `closed (${remote.reason.replace(/_/g, " ")})`
      : remote.state;
  return remote.list;
}

/** Closed there without the work being done (GitHub's not planned or duplicate), in words; else null. */
export function closedUndone(remote: RemoteState): string | null {
  return remote.kind === "github" && remote.state === "closed" && CLOSED_UNDONE.has(remote.reason ?? "")
    ? remoteStatusText(remote)
    : null;
}

type ItemRow = typeof remoteItems.$inferSelect;

/**
 * How a status read there is taken:
 * - `changed: true` (a webhook that says the status changed) or a status different from the one last seen
 *   there counts as a change there; the same status as last seen is not news, whatever the task says (a
 *   task completed in Atomize is not reopened because its issue still says To Do). An item never read
 *   before takes a done or in-progress status, never a reopening.
 * - A change older than the task's last change in Atomize (`at`, by the service's clock), when that
 *   change came after the item was made or last read there, is not applied: it waits for review as a
 *   conflict (tracker-changes.ts).
 */
export type StatusReading = { changed?: boolean; at?: Date | null };

/** Applies one remote status to the task it belongs to; returns whether the task changed. */
export async function applyRemoteState(
  deps: Deps,
  item: ItemRow,
  remote: RemoteState,
  reading: StatusReading = {},
): Promise<boolean> {
  const text = remoteStatusText(remote).slice(0, 100);
  // Marked read after the task is moved, so the move made here is not an Atomize change newer than it.
  const seen = () =>
    deps.db
      .update(remoteItems)
      .set({ remoteStatus: text, syncedAt: new Date() })
      .where(eq(remoteItems.id, item.id));
  if (!item.taskId) {
    await seen(); // its task was deleted
    return false;
  }
  const [task] = await deps.db
    .select({ status: tasks.status, parentId: tasks.parentId, updatedAt: tasks.updatedAt })
    .from(tasks)
    .where(eq(tasks.id, item.taskId));
  const next = task ? taskStatusFor(remote, task.status as TaskStatus) : null;
  const changed =
    reading.changed ?? (item.remoteStatus === null ? next !== "pending" : item.remoteStatus !== text);
  // A root's status is its plan's (decomposition), not work: remote status never changes it.
  if (!task || task.parentId === null || !next || !changed) {
    await seen();
    return false;
  }
  // Only an Atomize change since the item was made or last read there can be newer than the change there.
  const since = Math.max(item.createdAt.getTime(), item.syncedAt?.getTime() ?? 0);
  const edited = task.updatedAt.getTime();
  if (reading.at && edited > reading.at.getTime() && edited > since) {
    const n = await reviewStatus(
      deps,
      item,
      { status: next, words: text },
      task.status as TaskStatus,
      reading.at,
    );
    await announceTrackerChanges(deps, item.userId, item.rootTaskId, n, item.kind);
    await seen();
    return false;
  }
  await updateTask(deps, item.userId, item.taskId, { status: next });
  await seen();
  return true;
}

export type SyncResult = {
  checked: number;
  changed: number;
  /** Changes made there that now wait for review (tracker-changes.ts). */
  to_review: number;
  /** Places that could not be asked (no stored connection, a refusal), and items not found there, in words. */
  problems: string[];
};

/** What one service says about the items of one place. */
type Reading = {
  items: Map<string, { state: RemoteState; snap: RemoteSnapshot; at: Date | null }>;
  added: AddedItem[];
};

/**
 * "Sync now": the status and the fields of everything exports made for a plan, asked of each service with
 * the stored connection. Statuses apply to the tasks (as above); other edits made there wait for review.
 * A service that cannot be asked is reported, not fatal; so is each item it no longer has.
 */
export async function syncPlan(deps: Deps, userId: string, id: string): Promise<SyncResult> {
  const row = await getOwnedRow(deps, userId, id);
  const rootId = row.rootTaskId ?? row.id;
  const items = await deps.db
    .select()
    .from(remoteItems)
    .where(and(eq(remoteItems.rootTaskId, rootId), eq(remoteItems.userId, userId)));
  const result: SyncResult = { checked: 0, changed: 0, to_review: 0, problems: [] };
  const groups = new Map<string, ItemRow[]>();
  for (const it of items) {
    if (it.removedAt) continue;
    const k = `${it.kind}\u0000${it.target}`;
    groups.set(k, [...(groups.get(k) ?? []), it]);
  }
  for (const group of groups.values()) {
    const { kind, target } = group[0]!;
    const name = { jira: "JIRA", github: "GitHub", trello: "Trello" }[kind];
    try {
      const reading =
        kind === "jira"
          ? await jiraReading(deps, userId, target, group)
          : kind === "github"
            ? await githubReading(deps, userId, target)
            : await trelloReading(deps, userId, target);
      let review = 0;
      for (const it of group) {
        const read = reading.items.get(it.remoteId);
        if (!read) {
          if (it.taskId)
            result.problems.push(
              `${name}: ${it.remoteKey} was not found there (deleted, moved, or not visible to this account).`,
            );
          continue;
        }
        result.checked += 1;
        if (await applyRemoteState(deps, it, read.state, { at: read.at })) result.changed += 1;
        review += await reviewItem(deps, it, read.snap, read.at ?? new Date());
      }
      // Made by any export to this place (another plan's too): not added there.
      const made = await deps.db
        .select({ remoteId: remoteItems.remoteId })
        .from(remoteItems)
        .where(and(eq(remoteItems.kind, kind), eq(remoteItems.target, target)));
      const known = new Set(made.map((i) => i.remoteId));
      const added = reading.added.filter((a) => !known.has(a.remoteId));
      review += await reviewAdded(deps, { userId, rootTaskId: rootId, kind, target }, added, new Date());
      result.to_review += review;
      await announceTrackerChanges(deps, userId, rootId, review, kind);
      // Pull requests that close its issues, for the Requirements view (github/pull-requests.ts).
      if (kind === "github")
        result.problems.push(...(await syncLinkedPullRequests(deps, userId, rootId, target, group)));
    } catch (err) {
      result.problems.push(`${name} (${target.split("|").pop()}): ${(err as Error).message}`);
    }
  }
  if (result.changed > 0) {
    await deps.events.publish({
      type: "task.updated",
      userId,
      taskId: rootId,
      rootTaskId: rootId,
      message: `Synced: ${result.changed} task${result.changed === 1 ? "" : "s"} changed`,
      data: { synced: result.changed },
    });
  }
  return result;
}

const time = (v: unknown): Date | null => {
  const ms = typeof v === "string" ? Date.parse(v) : Number.NaN;
  return Number.isFinite(ms) ? new Date(ms) : null;
};

/** Story points from the labels an export sets ("story-points-5" on JIRA, "sp: 5" on GitHub). */
export function pointsFromLabels(labels: readonly string[], pattern: RegExp): number | null {
  for (const l of labels) {
    const m = pattern.exec(l);
    if (m) return Number(m[1]);
  }
  return null;
}

type JiraIssue = {
  key: string;
  self?: string;
  fields?: {
    summary?: string;
    description?: unknown;
    labels?: string[];
    parent?: { key?: string };
    updated?: string;
    status?: { name?: string; statusCategory?: { key?: string } };
  };
};

/** A JIRA issue as read: its status, its fields in the words the export wrote them, and when it changed. */
export function jiraRead(issue: JiraIssue) {
  const f = issue.fields ?? {};
  return {
    state: {
      kind: "jira" as const,
      status: f.status?.name ?? "?",
      category: f.status?.statusCategory?.key ?? "new",
    },
    snap: {
      ...(typeof f.summary === "string" ? { title: f.summary } : {}),
      // ADF from REST v3; wiki markup from v2, which is what webhooks carry (never read as "emptied").
      ...(f.description !== undefined
        ? {
            text: !f.description
              ? ""
              : typeof f.description === "string"
                ? wikiText(f.description)
                : adfText(f.description),
          }
        : {}),
      ...(Array.isArray(f.labels)
        ? { story_points: pointsFromLabels(f.labels, /^story-points-(\d+)$/) }
        : {}),
      parent: f.parent?.key ?? null,
    } satisfies RemoteSnapshot,
    at: time(f.updated),
  };
}

const JIRA_FIELDS = "status,summary,description,labels,parent,updated";

/**
 * The project's issues with the export's label, page by page: a search by keys would be refused whole
 * (400) when one key no longer exists there, so each missing item is reported on its own instead. Issues
 * made there under an exported issue since the first export are items added there.
 */
async function jiraReading(deps: Deps, userId: string, target: string, group: ItemRow[]): Promise<Reading> {
  const stored = await readCredential<{ user_email: string; api_token: string }>(deps, userId, "jira");
  if (!stored) throw new Error("connect JIRA in Settings to sync its statuses");
  const [site, project] = target.split("|") as [string, string];
  const { jira } = await connectJira({
    fetch: outboundFetch(deps.config, "user"),
    site,
    email: stored.secret.user_email,
    token: stored.secret.api_token,
    gateway: deps.config.ATLASSIAN_API_URL,
    concurrency: 2,
    retries: 1,
    describe: (status) => `JIRA answered ${status}`,
  });
  const found = await searchAll<JiraIssue>(
    jira,
    `project = ${jqlString(project)} AND labels = ${jqlString(ATOMIZE_LABEL)} ORDER BY key`,
    JIRA_FIELDS,
  );
  const items: Reading["items"] = new Map();
  for (const issue of found) items.set(issue.key, jiraRead(issue));
  const ours = new Set(group.map((g) => g.remoteId));
  // Issues people made there: children of an issue without the export's label.
  const fresh = await searchAll<JiraIssue>(
    jira,
    `project = ${jqlString(project)} AND parent is not EMPTY AND (labels is EMPTY OR labels != ${jqlString(ATOMIZE_LABEL)}) ORDER BY key`,
    JIRA_FIELDS,
  );
  const added: AddedItem[] = [];
  for (const issue of fresh) {
    const parent = issue.fields?.parent?.key ?? null;
    if (ours.has(issue.key) || !parent || !ours.has(parent)) continue;
    const read = jiraRead(issue);
    added.push({
      remoteId: issue.key,
      key: issue.key,
      url: `${site}/browse/${encodeURIComponent(issue.key)}`,
      title: read.snap.title ?? issue.key,
      text: read.snap.text ?? "",
      parent,
    });
  }
  return { items, added };
}

/** Each card's list on the board (the export's To Do, In Progress and Done lists), name and description. */
async function trelloReading(deps: Deps, userId: string, boardId: string): Promise<Reading> {
  const stored = await readCredential<{ api_key: string; token: string }>(deps, userId, "trello");
  if (!stored) throw new Error("connect Trello in Settings to sync its statuses");
  const http = createHttpClient({
    fetch: outboundFetch(deps.config, "user"),
    baseUrl: deps.config.TRELLO_API_URL,
    headers: { authorization: trelloAuthorization(stored.secret.api_key, stored.secret.token) },
    shared: trelloBudgets(deps, stored.secret.token),
    concurrency: 2,
    retries: 1,
    describe: (status) => `Trello answered ${status}`,
  });
  const board = encodeURIComponent(boardId);
  const [lists, cards] = await Promise.all([
    http.request<Array<{ id: string; name: string }>>("GET", `/1/boards/${board}/lists`, {
      query: { fields: "name" },
    }),
    http.request<
      Array<{
        id: string;
        idList: string;
        name?: string;
        desc?: string;
        shortUrl?: string;
        dateLastActivity?: string;
      }>
    >("GET", `/1/boards/${board}/cards`, {
      query: { fields: "idList,name,desc,shortUrl,dateLastActivity" },
    }),
  ]);
  const names = new Map(lists.body.map((l) => [l.id, l.name]));
  const items: Reading["items"] = new Map();
  // A card people added to the board: an item added there (the ones exports made are filtered out).
  const added: AddedItem[] = cards.body.map((c) => ({
    remoteId: c.id,
    key: c.shortUrl?.split("/").pop() ?? c.id,
    url: c.shortUrl ?? `https://trello.com/c/${c.id}`,
    title: c.name ?? "",
    text: c.desc ?? "",
    parent: null,
  }));
  for (const c of cards.body) {
    const list = names.get(c.idList);
    if (!list) continue;
    items.set(c.id, {
      state: { kind: "trello", list },
      snap: {
        ...(typeof c.name === "string" ? { title: c.name } : {}),
        ...(typeof c.desc === "string" ? { text: c.desc } : {}),
      },
      at: time(c.dateLastActivity),
    });
  }
  return { items, added };
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
      const state: RemoteState = { kind: "github", state: issue.state, reason: issue.state_reason ?? null };
      items.set(String(issue.number), {
        state,
        snap: {
          title: issue.title,
          text: issue.body ?? "",
          story_points: pointsFromLabels(labels, /^sp: (\d+)$/),
          closed: closedUndone(state),
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

/** The remote items a webhook names: the user's items of that kind whose id matches. */
export async function itemsFor(
  deps: Deps,
  userId: string,
  kind: ItemRow["kind"],
  remoteIds: string[],
  target?: string,
) {
  if (remoteIds.length === 0) return [];
  return deps.db
    .select()
    .from(remoteItems)
    .where(
      and(
        eq(remoteItems.userId, userId),
        eq(remoteItems.kind, kind),
        inArray(remoteItems.remoteId, remoteIds),
        ...(target ? [eq(remoteItems.target, target)] : []),
      ),
    );
}
