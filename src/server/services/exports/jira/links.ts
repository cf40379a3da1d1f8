import type { HttpClient } from "../../../integrations/http-client";
import type { ExportContext } from "../tracker-deps";
import type { EarlierIssue } from "./earlier";
import type { JiraState, Planned } from "./types";

/**
 * Each dependency as a "Blocks" link. JIRA shows the `inwardIssue` as the one that blocks and the
 * `outwardIssue` as the one blocked (the reverse of what its reference suggests; tests/fakes/jira.ts
 * cites where this was observed). A site whose admin removed the "Blocks" type (found by name, or by its
 * "blocks" outward wording when renamed) keeps its issues; the result says why no link was made.
 */
export async function linkBlockers(
  ctx: ExportContext,
  http: HttpClient,
  planned: Planned[],
  state: JiraState,
) {
  const issues = state.issues!;
  const pairs = planned.flatMap((p) =>
    p.task.depends_on.filter((id) => issues[id]).map((blocker) => ({ taskId: p.task.id, blocker })),
  );
  if (pairs.length === 0) return { dependencies: 0, dependencies_linked: 0 };
  state.links ??= [];
  const types = await http.request<{ issueLinkTypes?: Array<{ name: string; outward?: string }> }>(
    "GET",
    "/rest/api/3/issueLinkType",
  );
  const list = types.body.issueLinkTypes ?? [];
  const blocks =
    list.find((t) => t.name === "Blocks") ?? list.find((t) => t.outward?.toLowerCase() === "blocks");
  if (!blocks) {
    return {
      dependencies: pairs.length,
      dependencies_linked: 0,
      dependencies_note: 'This JIRA site has no "Blocks" issue link type, so the order was not linked.',
    };
  }
  for (const pair of pairs) {
    const mark = `${pair.taskId}>${pair.blocker}`;
    if (state.links.includes(mark)) continue;
    await http.request("POST", "/rest/api/3/issueLink", {
      json: {
        type: { name: blocks.name },
        inwardIssue: { key: issues[pair.blocker] },
        outwardIssue: { key: issues[pair.taskId] },
      },
    });
    state.links.push(mark);
    if (state.links.length % 10 === 0) {
      await ctx.saveState();
      await ctx.progress("label_update", 90, `Linked ${state.links.length} of ${pairs.length} dependencies`);
    }
  }
  await ctx.saveState();
  return { dependencies: pairs.length, dependencies_linked: state.links.length };
}

/**
 * On an export to the same project again: "Blocks" links between this plan's issues that the plan no
 * longer has (a person removed the dependency) are removed. Links to anything else are someone's own.
 */
export async function unlinkDroppedBlockers(
  http: HttpClient,
  found: EarlierIssue[],
  planned: Planned[],
  state: JiraState,
  earlier: Set<string>,
): Promise<number> {
  const issues = state.issues!;
  const wanted = new Set(
    planned.flatMap((p) =>
      p.task.depends_on.filter((id) => issues[id]).map((b) => `${issues[p.task.id]}>${issues[b]}`),
    ),
  );
  const planKeys = new Set(Object.values(issues));
  const earlierKeys = new Set([...earlier].flatMap((id) => (issues[id] ? [issues[id]] : [])));
  const dropped: string[] = [];
  for (const issue of found) {
    if (!earlierKeys.has(issue.key)) continue;
    for (const link of issue.fields?.issuelinks ?? []) {
      const blocks = link.type?.name === "Blocks" || link.type?.outward?.toLowerCase() === "blocks";
      const blocker = link.inwardIssue?.key;
      if (blocks && blocker && planKeys.has(blocker) && !wanted.has(`${issue.key}>${blocker}`))
        dropped.push(link.id);
    }
  }
  for (const id of dropped) {
    await http.request("DELETE", `/rest/api/3/issueLink/${encodeURIComponent(id)}`, { expect: [404] });
  }
  return dropped.length;
}
