import {
  COMPARED_FIELDS,
  type LockReason,
  type PlannedFields,
  type ReplanChange,
  type ReplanProposal,
} from "../../shared/schemas/replan";
import { similarity, wordSet } from "../lib/words";

/**
 * A re-plan as a diff (pure; services/tasks/replan.ts loads and applies it). The planner's new subtree is
 * matched to the current one by title (the same wording anywhere in the subtree, else a close wording
 * among the same parent's children); what matches is kept (and updated or moved when the planner changed
 * it), what the planner no longer has is removed, and what is new is added. Locked nodes (completed,
 * edited by hand, exported) are never updated, moved or removed, nothing is added under them, and a node
 * holding a locked one is not removed either.
 */

/** A node of the planner's proposal. `children: null` means "not planned this deep": keep what is there. */
export type ProposedNode = PlannedFields & {
  /** 0-based indexes of the siblings (in this list) it waits for. */
  depends_on: number[];
  children: ProposedNode[] | null;
};

/** A node of the current subtree below the re-planned node (in tree order: depth, then position). */
export type ExistingNode = {
  id: string;
  parentId: string;
  fields: PlannedFields;
  locked: LockReason[];
};

export type PlanDiff = { changes: ReplanChange[]; keptLocked: ReplanProposal["kept_locked"] };

/** Wordings closer than this (token-set Jaccard) count as the same task reworded. */
export const SAME_TASK = 0.5;

export function normalTitle(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

export function diffPlan(targetId: string, existing: ExistingNode[], proposed: ProposedNode[]): PlanDiff {
  const byId = new Map(existing.map((e) => [e.id, e]));
  const children = new Map<string, ExistingNode[]>();
  for (const e of existing) {
    const list = children.get(e.parentId);
    if (list) list.push(e);
    else children.set(e.parentId, [e]);
  }
  const byTitle = new Map<string, ExistingNode[]>();
  for (const e of existing) {
    const key = normalTitle(e.fields.description);
    const list = byTitle.get(key);
    if (list) list.push(e);
    else byTitle.set(key, [e]);
  }
  const matched = new Map<string, ProposedNode>(); // existing id -> proposal
  const changes: ReplanChange[] = [];
  const keptLocked = new Map<string, ReplanProposal["kept_locked"][number]>();
  const keep = (e: ExistingNode) => {
    if (!keptLocked.has(e.id))
      keptLocked.set(e.id, { task_id: e.id, description: e.fields.description, locked: e.locked });
  };
  let next = 1;
  const newId = () => `c${next++}`;
  /** Where each proposed node ended up: an existing task id, or the change that adds it. */
  const refOf = new Map<ProposedNode, { taskId: string } | { changeId: string }>();
  /** Existing parents whose children the proposal covers (their unmatched children are removed). */
  const covered: string[] = [targetId];

  const hasLockedBelow = (id: string): boolean =>
    (children.get(id) ?? []).some((c) => c.locked.length > 0 || hasLockedBelow(c.id));

  const level = (list: ProposedNode[], parent: { taskId: string } | { changeId: string }) => {
    const parentTask = "taskId" in parent ? parent.taskId : null;
    const found = new Map<ProposedNode, ExistingNode>();
    // Same wording first (anywhere in the subtree, this parent's children preferred), then close wording.
    for (const p of list) {
      const candidates = (byTitle.get(normalTitle(p.description)) ?? []).filter((e) => !matched.has(e.id));
      const e = candidates.find((c) => c.parentId === parentTask) ?? candidates[0];
      if (e) {
        matched.set(e.id, p);
        found.set(p, e);
      }
    }
    if (parentTask) {
      for (const p of list) {
        if (found.has(p)) continue;
        const words = wordSet(p.description);
        let best: ExistingNode | null = null;
        let score = SAME_TASK;
        for (const c of children.get(parentTask) ?? []) {
          if (matched.has(c.id)) continue;
          const s = similarity(words, wordSet(c.fields.description));
          if (s >= score) {
            best = c;
            score = s;
          }
        }
        if (best) {
          matched.set(best.id, p);
          found.set(p, best);
        }
      }
    }
    const deeper: [ProposedNode[], { taskId: string } | { changeId: string }][] = [];
    list.forEach((p, position) => {
      const e = found.get(p);
      const parentRef = {
        parent_id: parentTask,
        parent_change_id: "changeId" in parent ? parent.changeId : null,
      };
      const requires = parentRef.parent_change_id ? [parentRef.parent_change_id] : [];
      if (!e) {
        const change_id = newId();
        refOf.set(p, { changeId: change_id });
        changes.push({
          change_id,
          op: "add",
          ...parentRef,
          position,
          after: { ...fieldsOf(p), depends_on: [] },
          requires,
        });
        if (p.children?.length) deeper.push([p.children, { changeId: change_id }]);
        return;
      }
      refOf.set(p, { taskId: e.id });
      const differing = COMPARED_FIELDS.filter((f) => !sameValue(e.fields[f], p[f]));
      if (e.locked.length > 0) {
        // Left exactly as it is, with what is below it.
        if (differing.length || e.parentId !== parentTask) keep(e);
        return;
      }
      if (e.parentId !== parentTask) {
        changes.push({
          change_id: newId(),
          op: "move",
          task_id: e.id,
          ...parentRef,
          position,
          before: { parent_id: e.parentId },
          after: { parent_id: parentTask },
          requires,
        });
      }
      if (differing.length) {
        const before: Partial<PlannedFields> = {};
        const after: Partial<PlannedFields> = {};
        for (const f of differing) {
          Object.assign(before, { [f]: e.fields[f] });
          Object.assign(after, { [f]: p[f] });
        }
        changes.push({ change_id: newId(), op: "update", task_id: e.id, before, after, requires: [] });
      }
      if (p.children !== null) {
        covered.push(e.id);
        deeper.push([p.children, { taskId: e.id }]);
      }
    });
    // What a new node waits for, among its proposed siblings.
    list.forEach((p, i) => {
      const ref = refOf.get(p);
      if (!ref || !("changeId" in ref)) return;
      const add = changes.find((c) => c.change_id === ref.changeId);
      if (add?.op !== "add") return;
      for (const j of p.depends_on) {
        const other = list[j];
        const r = other && j !== i ? refOf.get(other) : undefined;
        if (r) add.after.depends_on.push("taskId" in r ? r.taskId : r.changeId);
      }
    });
    for (const [list2, parent2] of deeper) level(list2, parent2);
  };
  level(proposed, { taskId: targetId });

  // What the planner no longer has, below every parent it planned again.
  const movesOf = new Map<string, string>();
  for (const c of changes) if (c.op === "move") movesOf.set(c.task_id, c.change_id);
  const matchedBelow = (id: string): string[] =>
    (children.get(id) ?? []).flatMap((c) =>
      matched.has(c.id) ? (movesOf.has(c.id) ? [movesOf.get(c.id)!] : []) : matchedBelow(c.id),
    );
  // A matched task with no move out (a locked one stays where it is) keeps its unmatched ancestors.
  const stayingMatchedBelow = (id: string): boolean =>
    (children.get(id) ?? []).some(
      (c) => (matched.has(c.id) && !movesOf.has(c.id)) || stayingMatchedBelow(c.id),
    );
  const subtasks = (id: string): number =>
    (children.get(id) ?? []).reduce((n, c) => n + 1 + subtasks(c.id), 0);
  const drop = (e: ExistingNode) => {
    if (e.locked.length > 0) {
      keep(e);
      return;
    }
    if (hasLockedBelow(e.id) || stayingMatchedBelow(e.id)) {
      // Kept for what it holds; its other unmatched children can still go.
      for (const c of children.get(e.id) ?? []) if (!matched.has(c.id)) drop(c);
      return;
    }
    changes.push({
      change_id: newId(),
      op: "remove",
      task_id: e.id,
      before: { description: e.fields.description, subtasks: subtasks(e.id) },
      requires: matchedBelow(e.id),
    });
  };
  for (const parent of covered) {
    for (const c of children.get(parent) ?? []) if (!matched.has(c.id) && byId.has(c.id)) drop(c);
  }
  return { changes, keptLocked: [...keptLocked.values()] };
}

/** Just the planned fields of a node (a proposal's, or a planner's subtask with its estimate range). */
export function fieldsOf(p: PlannedFields): PlannedFields {
  return {
    description: p.description,
    implementation_details: p.implementation_details,
    acceptance_criteria: p.acceptance_criteria,
    requirement_ids: p.requirement_ids,
    story_points: p.story_points,
    complexity_score: p.complexity_score,
    estimate_hours: p.estimate_hours,
  };
}

/** The chosen changes and every change they need (a new parent, the moves out of a removed subtask). */
export function withRequirements(changes: ReplanChange[], chosen: string[]): Set<string> {
  const byId = new Map(changes.map((c) => [c.change_id, c]));
  const out = new Set<string>();
  const add = (id: string) => {
    if (out.has(id)) return;
    const c = byId.get(id);
    if (!c) return;
    out.add(id);
    for (const r of c.requires) add(r);
  };
  for (const id of chosen) add(id);
  return out;
}
