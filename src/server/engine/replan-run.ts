import type { PlannedSubtask } from "../../shared/schemas/plan";
import type { RepositoryMap } from "../../shared/schemas/repository-map";
import { fieldsOf, normalTitle, type ProposedNode } from "../plan/replan-diff";
import type { TaskRow } from "../plan/rows";
import { childrenMap, subtreeOf } from "../plan/rows";
import { isAtomic } from "./atomicity";
import { briefOf, optionsOf } from "./brief";
import { readGuidance } from "./guidance";
import type { Planner, SplitRequest } from "./planners/contract";
import { plannedRange, siblingDependencies } from "./sibling-dependencies";

/**
 * Re-planning's planner run (docs/decisions/019-replan-and-history.md): the planner plans a node's subtree
 * again, with the person's guidance, level by level within a budget of splits, without touching the tree.
 * services/tasks/replan.ts turns the answer into a reviewable proposal.
 */

/** Splits one re-plan may ask a model for (the node, then its new subtasks); the offline planner has no cost. */
export const REPLAN_MODEL_SPLITS = 13;
const REPLAN_OFFLINE_SPLITS = 500;
const CONCURRENT_SPLITS = 4;
const ELSEWHERE_LIMIT = 80;

async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** A planner's subtasks as proposal nodes: what is planned elsewhere in the plan is left out, numbers kept consistent. */
function toProposed(planned: PlannedSubtask[], elsewhere: Set<string>): ProposedNode[] {
  const kept = planned.filter((p) => !elsewhere.has(normalTitle(p.description)));
  const renumber = new Map(planned.map((p, i) => [i + 1, kept.indexOf(p) + 1]));
  const cleaned = kept.map((p) => ({
    ...p,
    depends_on: (p.depends_on ?? []).map((n) => renumber.get(n) ?? 0).filter((n) => n > 0),
  }));
  const waits = siblingDependencies(cleaned);
  return cleaned.map((p, i) => {
    const range = plannedRange(p);
    return {
      ...fieldsOf({ ...p, estimate_hours: { low: range.low, likely: p.estimated_hours, high: range.high } }),
      depends_on: waits.filter(([w]) => w === i).map(([, a]) => a),
      children: null,
    };
  });
}

/** The planner's new subtree for a node: its children, and theirs as deep as the guidance and budget allow. */
export async function planSubtree(
  planner: Planner,
  root: TaskRow,
  target: TaskRow,
  rows: TaskRow[],
  guidanceText: string,
  /** The plan's repository map (issue 42), when it has one. */
  map: RepositoryMap | null = null,
): Promise<ProposedNode[]> {
  const opts = optionsOf(root);
  const brief = briefOf(root, root.repositorySummary, map);
  const guidance = readGuidance(guidanceText);
  // "Less detail" never reaches here: it merges what is there (plan/coarsen.ts).
  const levels = guidance.moreDetail ? 3 : 2;
  let budget = planner.name === "offline" ? REPLAN_OFFLINE_SPLITS : REPLAN_MODEL_SPLITS;
  const byId = new Map(rows.map((r) => [r.id, r]));
  const kids = childrenMap(rows);
  const inside = new Set([target.id, ...subtreeOf(rows, target.id).map((r) => r.id)]);
  const ancestors: string[] = [];
  for (let p = target.parentId; p; p = byId.get(p)?.parentId ?? null) {
    ancestors.unshift(byId.get(p)!.description);
  }
  const siblings = rows.filter(
    (r) => r.parentId === target.parentId && r.id !== target.id && target.parentId,
  );
  const elsewhereRows = rows.filter(
    (r) =>
      !inside.has(r.id) && r.parentId !== null && !siblings.includes(r) && !ancestors.includes(r.description),
  );
  const plannedElsewhere = new Set(
    rows.filter((r) => !inside.has(r.id) && r.parentId !== null).map((r) => normalTitle(r.description)),
  );
  const threshold = opts.threshold;

  const split = async (
    task: SplitRequest["task"],
    path: string[],
    around: string[],
    depth: number,
    current: string[],
  ) => {
    budget--;
    const planned = await planner.splitTask({
      brief,
      task,
      ancestors: path,
      siblings: around,
      elsewhere:
        depth === target.depth ? elsewhereRows.slice(0, ELSEWHERE_LIMIT).map((r) => r.description) : [],
      depth,
      maxDepth: opts.maxDepth,
      maxSubtasks: opts.maxSubtasks,
      replan: { guidance: guidance.text, current },
    });
    // As a decomposition does: below the first level, a subtask is never more complex than its parent.
    const cap = depth === 0 ? 10 : (task.complexity_score ?? 10);
    return toProposed(
      planned.value
        .slice(0, opts.maxSubtasks)
        .map((p) => ({ ...p, complexity_score: Math.min(p.complexity_score, cap) })),
      plannedElsewhere,
    );
  };

  const first = await split(
    {
      description: target.description,
      complexity_score: target.complexityScore,
      implementation_details: target.parentId ? target.implementationDetails : null,
    },
    ancestors,
    siblings.map((s) => s.description),
    target.depth,
    (kids.get(target.id) ?? []).map((c) => c.description),
  );
  // Level by level: which nodes get their own subtasks planned, which end as leaves, which stay unplanned.
  let frontier: { node: ProposedNode; depth: number; path: string[]; around: string[] }[] = first.map(
    (n) => ({
      node: n,
      depth: target.depth + 1,
      path: [...ancestors, target.description],
      around: first.filter((o) => o !== n).map((o) => o.description),
    }),
  );
  for (let level = 1; frontier.length > 0; level++) {
    const toSplit: typeof frontier = [];
    for (const f of frontier) {
      const atomic = isAtomic(
        {
          depth: f.depth,
          complexityScore: f.node.complexity_score ?? 10,
          estimatedHours: f.node.estimate_hours?.likely ?? null,
        },
        { maxDepth: opts.maxDepth, threshold },
      );
      if (atomic) f.node.children = [];
      else if (level < levels && budget - toSplit.length > 0) toSplit.push(f);
      // Otherwise left unplanned (null): the subtasks it has now stay as they are.
    }
    const results = await mapLimit(toSplit, planner.name === "offline" ? 1 : CONCURRENT_SPLITS, (f) => {
      const existing = rows.find(
        (r) => inside.has(r.id) && normalTitle(r.description) === normalTitle(f.node.description),
      );
      return split(
        {
          description: f.node.description,
          complexity_score: f.node.complexity_score,
          implementation_details: f.node.implementation_details,
        },
        f.path,
        f.around,
        f.depth,
        existing ? (kids.get(existing.id) ?? []).map((c) => c.description) : [],
      );
    });
    frontier = [];
    toSplit.forEach((f, i) => {
      const children = results[i]!;
      f.node.children = children;
      for (const c of children) {
        frontier.push({
          node: c,
          depth: f.depth + 1,
          path: [...f.path, f.node.description],
          around: children.filter((o) => o !== c).map((o) => o.description),
        });
      }
    });
  }
  return first;
}
