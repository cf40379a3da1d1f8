import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { type CoverageNode, coverageTotals, requirementCoverage } from "../../../shared/requirement-coverage";
import type { LinkedPullRequest, RequirementStatusAnswer } from "../../../shared/schemas/requirements";
import type { TaskStatus } from "../../../shared/schemas/tasks";
import { taskTitle } from "../../../shared/task-title";
import { linkedPullRequests, remoteItems, tasks } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { getOwnedRow } from "../../plan/owned";
import { remoteLinks } from "./read";
import { statedScope } from "./serialize";

/**
 * Requirement traceability (issue 33): each requirement the plan's description states, the tasks that
 * cover it and how far their work has got (the rule: shared/requirement-coverage.ts), what exports made
 * for those tasks, and the pull requests "Sync now" saw closing their GitHub issues. Any task of a plan
 * names the plan. Four queries whatever the plan's size: the task, the plan's nodes, its remote items and
 * its linked pull requests.
 */

/** As the Subtasks tab and the MCP outline name a task. */
const TITLE_MAX = 80;
/** Enough of a description for its title: the first line is what names it. */
const TITLE_SOURCE_CHARS = 400;

type NodeRow = CoverageNode & { description: string; status: TaskStatus };

export async function getRequirementStatus(
  deps: Deps,
  userId: string,
  id: string,
): Promise<RequirementStatusAnswer> {
  const target = await getOwnedRow(deps, userId, id);
  const rootId = target.rootTaskId ?? target.id;
  const root = rootId === target.id ? target : await getOwnedRow(deps, userId, rootId);
  const [nodes, links, pulls] = await Promise.all([
    deps.database.rows<NodeRow & { requirementIds: string[] }>(sql`select id::text as "id",
        parent_id::text as "parentId", status, requirement_ids as "requirementIds",
        left(ltrim(description, E' \\t\\r\\n'), ${TITLE_SOURCE_CHARS}) as "description"
      from ${tasks}
      where id = ${rootId} or root_task_id = ${rootId}
      order by depth, position, created_at`),
    remoteLinks(deps.db, and(eq(remoteItems.rootTaskId, rootId), isNull(remoteItems.removedAt))!),
    deps.db
      .select()
      .from(linkedPullRequests)
      .where(and(eq(linkedPullRequests.rootTaskId, rootId), eq(linkedPullRequests.userId, userId)))
      .orderBy(asc(linkedPullRequests.repository), asc(linkedPullRequests.number)),
  ]);

  const ordered = preorder(nodes, rootId);
  const byId = new Map(ordered.map((n) => [n.id, n]));
  const requirements = statedScope(root)?.requirements ?? [];
  const coverage = requirementCoverage(requirements, ordered);
  const answer = coverage.map((c) => {
    const seen = new Set<string>();
    const prs: LinkedPullRequest[] = [];
    for (const p of pulls) {
      const k = `${p.repository}#${p.number}`;
      if (seen.has(k) || !c.includes(p.taskId)) continue;
      seen.add(k);
      prs.push({ number: p.number, title: p.title, url: p.url, state: p.state, repository: p.repository });
    }
    return {
      id: c.id,
      text: c.text,
      status: c.status,
      leaves_done: c.leaves_done,
      leaves_total: c.leaves_total,
      tasks: c.tasks.map((t) => {
        const node = byId.get(t.id)!;
        return {
          id: t.id,
          title: taskTitle(node.description, TITLE_MAX),
          status: node.status,
          leaves_done: t.leaves_done,
          leaves_total: t.leaves_total,
          remote_links: links.get(t.id) ?? [],
        };
      }),
      pull_requests: prs,
    };
  });
  return {
    project_id: root.id,
    project_title: taskTitle(root.description, TITLE_MAX),
    requirements: answer,
    totals: coverageTotals(answer),
  };
}

/** The plan's nodes in pre-order (root first, siblings in the order the rows give), without recursion. */
function preorder<T extends { id: string; parentId: string | null }>(rows: T[], rootId: string): T[] {
  const children = new Map<string, T[]>();
  let root: T | undefined;
  for (const r of rows) {
    if (r.id === rootId) root = r;
    else if (r.parentId) {
      const list = children.get(r.parentId);
      if (list) list.push(r);
      else children.set(r.parentId, [r]);
    }
  }
  if (!root) return [];
  const out: T[] = [];
  const stack: T[] = [root];
  while (stack.length) {
    const node = stack.pop()!;
    out.push(node);
    const kids = children.get(node.id);
    if (kids) for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
  }
  return out;
}
