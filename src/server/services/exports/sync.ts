import { and, eq, inArray } from "drizzle-orm";
import type { TaskStatus } from "../../../shared/schemas/tasks";
import { remoteItems, tasks } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { readCredential } from "../../integrations/credentials";
import { githubClient } from "../../integrations/github/client";
import { createHttpClient } from "../../integrations/http-client";
import { connectJira } from "../../integrations/jira/connection";
import { trelloAuthorization } from "../../integrations/trello/auth";
import { outboundFetch } from "../../lib/outbound/fetch";
import { getOwnedRow } from "../../plan/owned";
import { updateTask } from "../tasks/tasks";

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

/**
 * The task status a remote status stands for, or null for "leave it": JIRA by status category (done, in
 * progress, to do), GitHub by open/closed (closed as not planned is left alone; a reopened issue reopens a
 * completed task), Trello by the list's name.
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
    if (remote.state === "closed") wanted = remote.reason === "not_planned" ? null : "completed";
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

/** A remote status in people's words, as the tree shows it. */
export function remoteStatusText(remote: RemoteState): string {
  if (remote.kind === "jira") return remote.status;
  if (remote.kind === "github")
    return remote.state === "closed" && remote.reason ? `closed (${remote.reason})` : remote.state;
  return remote.list;
}

type ItemRow = typeof remoteItems.$inferSelect;

/** Applies one remote status to the task it belongs to; returns whether the task changed. */
export async function applyRemoteState(deps: Deps, item: ItemRow, remote: RemoteState): Promise<boolean> {
  await deps.db
    .update(remoteItems)
    .set({ remoteStatus: remoteStatusText(remote).slice(0, 100), syncedAt: new Date() })
    .where(eq(remoteItems.id, item.id));
  if (!item.taskId) return false; // its task was deleted
  const [task] = await deps.db
    .select({ status: tasks.status, parentId: tasks.parentId })
    .from(tasks)
    .where(eq(tasks.id, item.taskId));
  // A root's status is its plan's (decomposition), not work: remote status never changes it.
  if (!task || task.parentId === null) return false;
  const next = taskStatusFor(remote, task.status as TaskStatus);
  if (!next) return false;
  await updateTask(deps, item.userId, item.taskId, { status: next });
  return true;
}

export type SyncResult = {
  checked: number;
  changed: number;
  /** Places that could not be asked (no stored connection, a refusal), in words. */
  problems: string[];
};

const chunks = <T>(list: T[], size: number) =>
  Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, i * size + size));

/**
 * "Sync now": the status of everything exports made for a plan, asked of each service with the stored
 * connection, applied to the tasks. A service that cannot be asked is reported, not fatal.
 */
export async function syncPlan(deps: Deps, userId: string, id: string): Promise<SyncResult> {
  const row = await getOwnedRow(deps, userId, id);
  const rootId = row.rootTaskId ?? row.id;
  const items = await deps.db
    .select()
    .from(remoteItems)
    .where(and(eq(remoteItems.rootTaskId, rootId), eq(remoteItems.userId, userId)));
  const result: SyncResult = { checked: 0, changed: 0, problems: [] };
  const groups = new Map<string, ItemRow[]>();
  for (const it of items) {
    const k = `${it.kind}\u0000${it.target}`;
    groups.set(k, [...(groups.get(k) ?? []), it]);
  }
  for (const group of groups.values()) {
    const { kind, target } = group[0]!;
    try {
      const states =
        kind === "jira"
          ? await jiraStates(deps, userId, target, group)
          : kind === "github"
            ? await githubStates(deps, userId, target)
            : await trelloStates(deps, userId, target);
      for (const it of group) {
        const state = states.get(it.remoteId);
        if (!state) continue;
        result.checked += 1;
        if (await applyRemoteState(deps, it, state)) result.changed += 1;
      }
    } catch (err) {
      const name = { jira: "JIRA", github: "GitHub", trello: "Trello" }[kind];
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

async function jiraStates(deps: Deps, userId: string, target: string, group: ItemRow[]) {
  const stored = await readCredential<{ user_email: string; api_token: string }>(deps, userId, "jira");
  if (!stored) throw new Error("connect JIRA in Settings to sync its statuses");
  const site = target.split("|")[0]!;
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
  const out = new Map<string, RemoteState>();
  for (const keys of chunks(
    group.map((g) => g.remoteId),
    100,
  )) {
    const res = await jira.request<{
      issues?: Array<{
        key: string;
        fields?: { status?: { name?: string; statusCategory?: { key?: string } } };
      }>;
    }>("POST", "/rest/api/3/search/jql", {
      json: { jql: `key in (${keys.map((k) => `"${k}"`).join(",")})`, fields: ["status"], maxResults: 100 },
    });
    for (const issue of res.body.issues ?? []) {
      const status = issue.fields?.status;
      out.set(issue.key, {
        kind: "jira",
        status: status?.name ?? "?",
        category: status?.statusCategory?.key ?? "new",
      });
    }
  }
  return out;
}

/** Each card's list on the board (the export's To Do, In Progress and Done lists). */
async function trelloStates(deps: Deps, userId: string, boardId: string) {
  const stored = await readCredential<{ api_key: string; token: string }>(deps, userId, "trello");
  if (!stored) throw new Error("connect Trello in Settings to sync its statuses");
  const http = createHttpClient({
    fetch: outboundFetch(deps.config, "user"),
    baseUrl: deps.config.TRELLO_API_URL,
    headers: { authorization: trelloAuthorization(stored.secret.api_key, stored.secret.token) },
    concurrency: 2,
    retries: 1,
    describe: (status) => `Trello answered ${status}`,
  });
  const board = encodeURIComponent(boardId);
  const [lists, cards] = await Promise.all([
    http.request<Array<{ id: string; name: string }>>("GET", `/1/boards/${board}/lists`, {
      query: { fields: "name" },
    }),
    http.request<Array<{ id: string; idList: string }>>("GET", `/1/boards/${board}/cards`, {
      query: { fields: "idList" },
    }),
  ]);
  const names = new Map(lists.body.map((l) => [l.id, l.name]));
  const out = new Map<string, RemoteState>();
  for (const c of cards.body) {
    const list = names.get(c.idList);
    if (list) out.set(c.id, { kind: "trello", list });
  }
  return out;
}

async function githubStates(deps: Deps, userId: string, target: string) {
  const stored = await readCredential<{ token: string }>(deps, userId, "github");
  if (!stored) throw new Error("connect GitHub in Settings to sync its statuses");
  const [owner, repo] = target.split("/") as [string, string];
  const github = githubClient(deps, stored.secret.token, { retries: 1 });
  const out = new Map<string, RemoteState>();
  for await (const page of github.paginate.iterator(github.rest.issues.listForRepo, {
    owner,
    repo,
    labels: "atomize",
    state: "all",
    per_page: 100,
  })) {
    for (const issue of page.data)
      out.set(String(issue.number), {
        kind: "github",
        state: issue.state,
        reason: issue.state_reason ?? null,
      });
  }
  return out;
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
