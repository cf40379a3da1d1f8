import { setTimeout as sleep } from "node:timers/promises";
import { taskTitle } from "../../../../shared/task-title";
import type { HttpClient } from "../../../integrations/http-client";
import type { JiraState, Planned } from "./types";

/** The JQL string literal of a value (a project key may be a reserved word, such as AND or IN). */
export function jqlString(value: string): string {
  return `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

/**
 * After a bulk call whose answer was lost (or that failed half-way): find what JIRA did create, by this
 * export's marker label, summary and parent, before sending anything again. JIRA's search lags behind its
 * writes, so it looks again for up to `settleMs` while some are still unaccounted for; what it does not
 * find by then is created again.
 */
export async function reconcile(
  http: HttpClient,
  key: string,
  marker: string,
  planned: Planned[],
  state: JiraState,
  settleMs: number,
  signal: AbortSignal,
) {
  const deadline = Date.now() + settleMs;
  for (;;) {
    const found = await searchAll<{ key: string; fields: { summary: string; parent?: { key: string } } }>(
      http,
      `project = ${jqlString(key)} AND labels = ${jqlString(marker)}`,
      "summary,parent",
    );
    const known = new Set(Object.values(state.issues ?? {}));
    for (const id of state.pending ?? []) {
      const p = planned.find((x) => x.task.id === id);
      if (!p) continue;
      const parentKey = p.parentTaskId ? state.issues![p.parentTaskId] : undefined;
      const match = found.find(
        (i) =>
          !known.has(i.key) &&
          i.fields.summary === taskTitle(p.task.description, 250) &&
          i.fields.parent?.key === parentKey,
      );
      if (match) {
        state.issues![id] = match.key;
        known.add(match.key);
      }
    }
    state.pending = (state.pending ?? []).filter((id) => !state.issues![id]);
    if (state.pending.length === 0 || Date.now() >= deadline) break;
    await sleep(Math.min(1000, Math.max(50, settleMs / 10)), undefined, { signal });
  }
  state.pending = [];
}

/** Every issue a JQL search finds (JIRA's enhanced search, page by page via nextPageToken). */
export async function searchAll<T>(http: HttpClient, jql: string, fields: string): Promise<T[]> {
  const out: T[] = [];
  let nextPageToken: string | undefined;
  do {
    const res = await http.request<{ issues: T[]; nextPageToken?: string }>("GET", "/rest/api/3/search/jql", {
      query: { jql, fields, maxResults: 100, nextPageToken },
    });
    out.push(...res.body.issues);
    nextPageToken = res.body.nextPageToken;
  } while (nextPageToken);
  return out;
}
