/**
 * Which tasks cover each stated requirement (R1, R2, ... read from a plan's description), and how far
 * their work has got: the one rule behind the Requirements view, the `requirement_status` MCP tool and
 * the Markdown export. Pure: no I/O, no clock.
 *
 * - A task covers R when its `requirement_ids` name R. The plan's root is not a task that covers
 *   anything (it is the whole plan).
 * - The most specific ones count: a task covering R whose subtasks also name R leaves R to them (an
 *   outline's group names everything its parts cover; the parts say which is which). A task covering R
 *   with no subtask naming R counts all its leaves.
 * - R is done when every leaf under its tasks is completed; in progress when some are completed or one
 *   is in progress; not started otherwise; and "no tasks" when nothing covers it.
 */

export const REQUIREMENT_STATUSES = ["done", "in_progress", "not_started", "no_tasks"] as const;
export type RequirementStatus = (typeof REQUIREMENT_STATUSES)[number];

/** A requirement's status in words ("no tasks yet"), for text that is read (Markdown, screen readers). */
export const REQUIREMENT_STATUS_TEXT: Record<RequirementStatus, string> = {
  done: "done",
  in_progress: "in progress",
  not_started: "not started",
  no_tasks: "no tasks yet",
};

/** A node of the plan, in pre-order (the root first, every parent before its children, siblings in order). */
export type CoverageNode = {
  id: string;
  parentId: string | null;
  requirementIds?: readonly string[] | null;
  status: string;
};

export type CoveringTask = { id: string; leaves_done: number; leaves_total: number };

export type RequirementCoverage = {
  id: string;
  text: string;
  status: RequirementStatus;
  leaves_done: number;
  leaves_total: number;
  /** The most specific tasks naming it, in the plan's order. */
  tasks: CoveringTask[];
  /** Whether a task is one of `tasks` or lies below one (its work counts for this requirement). */
  includes(taskId: string): boolean;
};

export type CoverageTotals = { requirements: number; done: number; not_done: number; without_tasks: number };

/**
 * Each requirement's covering tasks and progress. `nodes` is the whole plan in pre-order, root first
 * (O(n) plus the covering tasks: a plan of thousands of nodes is read in one pass).
 */
export function requirementCoverage(
  requirements: readonly { id: string; text: string }[],
  nodes: readonly CoverageNode[],
): RequirementCoverage[] {
  const n = nodes.length;
  const index = new Map<string, number>();
  for (let i = 0; i < n; i++) index.set(nodes[i]!.id, i);
  // A subtree is a run of the pre-order: node i's ends before end[i]. Sizes add up from the last node.
  const size = new Array<number>(n).fill(1);
  const hasChildren = new Array<boolean>(n).fill(false);
  for (let i = n - 1; i > 0; i--) {
    const p = index.get(nodes[i]!.parentId ?? "");
    if (p === undefined) continue;
    size[p]! += size[i]!;
    hasChildren[p] = true;
  }
  // Running counts of leaves, done leaves and started leaves, so any subtree's are two look-ups.
  const leaves = new Array<number>(n + 1).fill(0);
  const done = new Array<number>(n + 1).fill(0);
  const started = new Array<number>(n + 1).fill(0);
  for (let i = 0; i < n; i++) {
    const leaf = !hasChildren[i];
    const status = nodes[i]!.status;
    leaves[i + 1] = leaves[i]! + (leaf ? 1 : 0);
    done[i + 1] = done[i]! + (leaf && status === "completed" ? 1 : 0);
    started[i + 1] = started[i]! + (leaf && status === "in_progress" ? 1 : 0);
  }
  const span = (i: number, of: number[]) => of[i + size[i]!]! - of[i]!;

  const covering = new Map<string, number[]>(requirements.map((r) => [r.id, []]));
  for (let i = 1; i < n; i++) {
    for (const id of new Set(nodes[i]!.requirementIds ?? [])) covering.get(id)?.push(i);
  }

  return requirements.map((r) => {
    const all = covering.get(r.id) ?? [];
    // In pre-order, a covering task has a covering task below it exactly when the next one starts inside it.
    const own = all.filter((i, k) => {
      const next = all[k + 1];
      return next === undefined || next >= i + size[i]!;
    });
    let leavesTotal = 0;
    let leavesDone = 0;
    let leavesStarted = 0;
    const tasks = own.map((i) => {
      const t = span(i, leaves);
      const d = span(i, done);
      leavesTotal += t;
      leavesDone += d;
      leavesStarted += span(i, started);
      return { id: nodes[i]!.id, leaves_done: d, leaves_total: t };
    });
    const status: RequirementStatus =
      own.length === 0
        ? "no_tasks"
        : leavesDone === leavesTotal
          ? "done"
          : leavesDone > 0 || leavesStarted > 0
            ? "in_progress"
            : "not_started";
    return {
      id: r.id,
      text: r.text,
      status,
      leaves_done: leavesDone,
      leaves_total: leavesTotal,
      tasks,
      includes(taskId: string) {
        const at = index.get(taskId);
        return at !== undefined && own.some((i) => at >= i && at < i + size[i]!);
      },
    };
  });
}

/** How many requirements there are, how many are done or not, and how many no task covers. */
export function coverageTotals(list: readonly { status: RequirementStatus }[]): CoverageTotals {
  const done = list.filter((r) => r.status === "done").length;
  return {
    requirements: list.length,
    done,
    not_done: list.length - done,
    without_tasks: list.filter((r) => r.status === "no_tasks").length,
  };
}

/** "5 of 8 requirements done; 2 have no task" (the view's one line, the Markdown's summary). */
export function coverageSummary(totals: CoverageTotals): string {
  if (totals.requirements === 0) return "The description states no requirements.";
  const noun = totals.requirements === 1 ? "requirement" : "requirements";
  const head = `${totals.done} of ${totals.requirements} ${noun} done`;
  if (totals.without_tasks === 0) return head;
  return `${head}; ${totals.without_tasks} ${totals.without_tasks === 1 ? "has" : "have"} no task`;
}
