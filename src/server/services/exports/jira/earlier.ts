import type { HttpClient } from "../../../integrations/http-client";
import { markRemoved } from "../remote";
import type { ExportContext } from "../tracker-deps";
import { issueFields } from "./payloads";
import type { JiraPlan, JiraState, Planned } from "./types";

/**
 * Labels Atomize puts on issues: the "atomize" label, an export's marker and the complexity and story-point
 * labels. Only these are ever removed again; any other label on an issue is a person's and stays.
 */
const OUR_LABEL = /^(atomize|atomize-export-[0-9a-f]+|complexity-.+|story-points-.+|epic-complexity-.+)$/;

/**
 * The edit operations that bring an issue's labels to what the plan wants: the missing ones added, and
 * ours that it no longer wants removed (JIRA's `update.labels` add/remove touch only the named label).
 * `current`: the labels the issue had when last read (empty when unknown: then only adds are sent).
 */
export function labelOperations(
  wanted: string[],
  current: string[],
): Array<{ add: string } | { remove: string }> {
  return [
    ...wanted.filter((l) => !current.includes(l)).map((l) => ({ add: l })),
    ...current.filter((l) => OUR_LABEL.test(l) && !wanted.includes(l)).map((l) => ({ remove: l })),
  ];
}

/**
 * Brings what an earlier export made up to date with the plan: summary, description, labels, story
 * points and (for stories and sub-tasks) parent. One request per issue, resumable (state.refreshed).
 * Labels are edited, not replaced: labels people added in JIRA stay.
 */
export async function updateEarlierIssues(
  ctx: ExportContext,
  plan: JiraPlan,
  earlier: Set<string>,
  opts: {
    typeIds: Record<Planned["kind"], string>;
    storyPoints: Record<Planned["kind"], string | null>;
    epicName?: string | null;
    marker: string;
    /** Each earlier issue's labels as the search for them read them (by issue key). */
    labels: Map<string, string[]>;
    /** Each earlier issue's parent as the search read it: `parent` is sent only when it changes. */
    parents?: Map<string, string | null>;
  },
): Promise<{ updated: number; unmoved: string[] }> {
  const state = ctx.state as JiraState;
  state.refreshed ??= [];
  const todo = plan.planned.filter((p) => earlier.has(p.task.id) && !state.refreshed!.includes(p.task.id));
  let n = 0;
  const unmoved: string[] = [];
  for (const p of todo) {
    const { fields } = issueFields(
      p,
      plan.key,
      opts.typeIds[p.kind],
      opts.storyPoints[p.kind],
      state,
      opts.marker,
      opts.epicName ?? null,
    );
    // The issue type and project stay as they are; labels go through `update` (a field may not be in both).
    const { project: _p, issuetype: _t, labels, parent, ...editable } = fields;
    const issueKey = state.issues![p.task.id]!;
    const ops = labelOperations(labels as string[], opts.labels.get(issueKey) ?? []);
    // `parent` only when it changed: JIRA refuses it on a sub-task's edit even unchanged, and a sub-task
    // moves to another parent only by hand (its Move action), which the export's result says.
    const wanted = (parent as { key?: string } | undefined)?.key ?? null;
    const had = opts.parents?.has(issueKey) ? opts.parents.get(issueKey)! : undefined;
    const moves = had === undefined ? p.kind !== "subtask" : wanted !== had;
    if (moves && p.kind === "subtask" && had !== undefined) unmoved.push(`${issueKey} → ${wanted}`);
    await plan.http.request("PUT", `/rest/api/3/issue/${encodeURIComponent(issueKey)}`, {
      json: {
        fields: moves && p.kind !== "subtask" ? { ...editable, parent: parent ?? null } : editable,
        ...(ops.length ? { update: { labels: ops } } : {}),
      },
    });
    state.refreshed.push(p.task.id);
    n += 1;
    if (n % 10 === 0) {
      await ctx.saveState();
      await ctx.progress("issue_creation", 80, `Updated ${n} of ${todo.length} earlier issues`);
    }
  }
  await ctx.saveState();
  return { updated: state.refreshed.length, unmoved };
}

/** Issues made for tasks deleted since: labelled "atomize-removed", never deleted. */
export async function markRemovedIssues(ctx: ExportContext, plan: JiraPlan): Promise<number> {
  for (const item of plan.previous.removed) {
    await plan.http.request("PUT", `/rest/api/3/issue/${encodeURIComponent(item.remoteId)}`, {
      json: { update: { labels: [{ add: "atomize-removed" }] } },
      expect: [404],
    });
  }
  await markRemoved(
    ctx.deps,
    plan.previous.removed.map((r) => r.id),
  );
  return plan.previous.removed.length;
}

const LEVEL: Record<Planned["kind"], number> = { epic: 1, story: 0, subtask: -1 };

/** An issue an earlier export made, as the search for them answers: its type and its links. */
export type EarlierIssue = {
  key: string;
  fields?: {
    issuetype?: { hierarchyLevel?: number };
    labels?: string[];
    parent?: { key?: string };
    issuelinks?: Array<{
      id: string;
      type?: { name?: string; outward?: string };
      inwardIssue?: { key?: string };
    }>;
  };
};

export async function replaceChangedKinds(
  http: HttpClient,
  found: EarlierIssue[],
  planned: Planned[],
  state: JiraState,
  earlier: Set<string>,
): Promise<number> {
  const issues = state.issues!;
  const levelOf = new Map<string, number>();
  for (const i of found) {
    const level = i.fields?.issuetype?.hierarchyLevel;
    if (typeof level === "number") levelOf.set(i.key, level);
  }
  let n = 0;
  for (const p of planned) {
    const was = issues[p.task.id];
    if (!earlier.has(p.task.id) || !was) continue;
    const level = levelOf.get(was);
    if (level === undefined || level === LEVEL[p.kind]) continue;
    await http.request("PUT", `/rest/api/3/issue/${encodeURIComponent(was)}`, {
      json: { update: { labels: [{ add: "atomize-removed" }] } },
      expect: [404],
    });
    delete issues[p.task.id];
    earlier.delete(p.task.id);
    n += 1;
  }
  return n;
}
