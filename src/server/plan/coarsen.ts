import type { LockReason, PlannedFields, ReplanChange, ReplanProposal } from "../../shared/schemas/replan";
import { ACCEPTANCE_CRITERIA_MAX, DESCRIPTION_MAX, STORY_POINTS } from "../../shared/schemas/tasks";
import { descriptionFirstLine, fitText } from "../../shared/task-title";

/**
 * "Less detail" as a merge (issue 40; pure, services/tasks/replan.ts applies it as a proposal). A re-plan
 * asked for less detail does not plan the node again (a new, coarser plan dropped the only work of four
 * requirements): it merges what is there into fewer, larger tasks, one level at a time.
 * - When some of the node's subtasks have subtasks, each of those becomes one task: its subtasks are
 *   merged into it.
 * - When all of them are leaves, neighbours are merged in pairs, in their order (a node with two or fewer
 *   leaves, not the project, takes them into itself).
 * A merged task keeps every requirement id, the summed estimate and the criteria of what it takes in;
 * each removal names the task it merges into, so accepting it moves the removed work's actual hours,
 * start and dependencies there. Locked tasks (done, edited, exported) are never merged, nor is what holds
 * one; when nothing can be merged, the proposal says why.
 */

export type CoarseNode = {
  id: string;
  parentId: string;
  fields: PlannedFields;
  locked: LockReason[];
};

export type Coarsened = {
  changes: ReplanChange[];
  keptLocked: ReplanProposal["kept_locked"];
  /** Why nothing can be merged, in a sentence; null when something is. */
  nothing: string | null;
};

const TITLE_MAX = 120;

const titleOf = (f: PlannedFields) =>
  fitText(descriptionFirstLine(f.description) || "Untitled task", TITLE_MAX);

/** The smallest story-point value at or above n (13 at most). */
function pointsAtLeast(n: number): number {
  return STORY_POINTS.find((p) => p >= n) ?? STORY_POINTS[STORY_POINTS.length - 1]!;
}

function sumEstimates(list: PlannedFields[]): PlannedFields["estimate_hours"] {
  const known = list.map((f) => f.estimate_hours).filter((e) => e !== null);
  if (known.length === 0) return null;
  const sum = (k: "low" | "likely" | "high") => Math.round(known.reduce((n, e) => n + e[k], 0) * 10) / 10;
  return { low: sum("low"), likely: sum("likely"), high: sum("high") };
}

/** The fields of `into` once `parts` (leaves, in order) are merged into it. */
export function mergedFields(
  into: PlannedFields,
  parts: PlannedFields[],
  intoIsPart: boolean,
): PlannedFields {
  const all = intoIsPart ? [into, ...parts] : parts;
  const ids = [...new Set([into, ...parts].flatMap((f) => f.requirement_ids))];
  const criteria = [
    ...new Set([...into.acceptance_criteria, ...parts.flatMap((f) => f.acceptance_criteria)]),
  ].slice(0, ACCEPTANCE_CRITERIA_MAX);
  const points = all.map((f) => f.story_points).filter((p) => p !== null);
  const scores = [into, ...parts].map((f) => f.complexity_score).filter((s) => s !== null);
  const description = intoIsPart
    ? [
        `${titleOf(into)}; ${parts.map(titleOf).join("; ")}`,
        "",
        ...[into, ...parts].map((f) => `- ${titleOf(f)}`),
      ]
        .join("\n")
        .slice(0, DESCRIPTION_MAX)
    : into.description;
  const details = [
    into.implementation_details,
    ...parts.map((f) => (f.implementation_details ? `${titleOf(f)}: ${f.implementation_details}` : null)),
  ]
    .filter((d): d is string => Boolean(d))
    .join("\n\n")
    .slice(0, DESCRIPTION_MAX);
  return {
    description,
    implementation_details: details || null,
    acceptance_criteria: criteria,
    requirement_ids: ids,
    story_points: points.length ? pointsAtLeast(points.reduce((a, b) => a + b, 0)) : into.story_points,
    complexity_score: scores.length ? Math.max(...scores) : null,
    estimate_hours: sumEstimates(all),
  };
}

const LOCK_WORDS: Record<LockReason, string> = {
  completed: "is done",
  edited: "was edited by hand",
  exported: "was exported",
};

/** "“Set up CI” (R2) is done and locked": why a task is left as it is. */
export function lockedSentence(f: PlannedFields, locked: readonly LockReason[]): string {
  const ids = f.requirement_ids.length ? ` (${f.requirement_ids.join(", ")})` : "";
  return `“${titleOf(f)}”${ids} ${locked.map((l) => LOCK_WORDS[l]).join(" and ")} and locked`;
}

export function coarsenPlan(
  target: { id: string; isProject: boolean; fields: PlannedFields },
  existing: CoarseNode[],
): Coarsened {
  const children = new Map<string, CoarseNode[]>();
  for (const e of existing) {
    const list = children.get(e.parentId);
    if (list) list.push(e);
    else children.set(e.parentId, [e]);
  }
  const below = (id: string): CoarseNode[] => (children.get(id) ?? []).flatMap((c) => [c, ...below(c.id)]);
  const leavesBelow = (id: string): CoarseNode[] =>
    (children.get(id) ?? []).flatMap((c) => (children.has(c.id) ? leavesBelow(c.id) : [c]));
  const changes: ReplanChange[] = [];
  const keptLocked = new Map<string, ReplanProposal["kept_locked"][number]>();
  const keep = (e: CoarseNode) =>
    keptLocked.set(e.id, { task_id: e.id, description: e.fields.description, locked: e.locked });
  let next = 1;
  const newId = () => `c${next++}`;

  /** One merge: `into` takes `parts` (removed with what is below them); `leaves` are what it sums. */
  const merge = (
    into: { id: string; fields: PlannedFields },
    parts: CoarseNode[],
    leaves: PlannedFields[],
    intoIsPart: boolean,
  ) => {
    const after = mergedFields(into.fields, leaves, intoIsPart);
    const update: ReplanChange = {
      change_id: newId(),
      op: "update",
      task_id: into.id,
      before: {},
      after: {},
      requires: [],
    };
    for (const k of Object.keys(after) as (keyof PlannedFields)[]) {
      if (JSON.stringify(after[k]) === JSON.stringify(into.fields[k])) continue;
      Object.assign(update.before, { [k]: into.fields[k] });
      Object.assign(update.after, { [k]: after[k] });
    }
    const requires = Object.keys(update.after).length ? [update.change_id] : [];
    if (requires.length) changes.push(update);
    for (const p of parts) {
      changes.push({
        change_id: newId(),
        op: "remove",
        task_id: p.id,
        before: { description: p.fields.description, subtasks: below(p.id).length },
        merged_into: into.id,
        requires,
      });
    }
  };

  const kids = children.get(target.id) ?? [];
  if (kids.length === 0) {
    return {
      changes,
      keptLocked: [],
      nothing: `“${titleOf(target.fields)}” has no subtasks: there is nothing to merge.`,
    };
  }
  const lockedIn = (n: CoarseNode) => [n, ...below(n.id)].filter((x) => x.locked.length > 0);
  if (kids.some((k) => children.has(k.id))) {
    // Each subtask with subtasks takes them in.
    for (const k of kids) {
      if (!children.has(k.id)) continue;
      const locked = lockedIn(k);
      if (locked.length) {
        for (const l of locked) keep(l);
        continue;
      }
      merge(
        k,
        children.get(k.id)!,
        leavesBelow(k.id).map((l) => l.fields),
        false,
      );
    }
  } else if (kids.length <= 2 && !target.isProject) {
    // Two leaves or one: the node itself becomes the task.
    const locked = kids.filter((k) => k.locked.length > 0);
    for (const l of locked) keep(l);
    if (!locked.length)
      merge(
        { id: target.id, fields: target.fields },
        kids,
        kids.map((k) => k.fields),
        false,
      );
  } else if (kids.length > 2) {
    // Neighbours in pairs; a locked task stays alone and the pairing goes on after it.
    let run: CoarseNode[] = [];
    const flush = () => {
      for (let i = 0; i + 1 < run.length; i += 2) {
        const [a, b] = [run[i]!, run[i + 1]!];
        merge(a, [b], [b.fields], true);
      }
      run = [];
    };
    for (const k of kids) {
      if (k.locked.length) {
        keep(k);
        flush();
      } else run.push(k);
    }
    flush();
  }
  let nothing: string | null = null;
  if (changes.length === 0) {
    const locked = [...keptLocked.values()];
    nothing = locked.length
      ? `Nothing can be merged: ${locked
          .slice(0, 3)
          .map((l) => lockedSentence(existing.find((e) => e.id === l.task_id)!.fields, l.locked))
          .join(
            "; ",
          )}${locked.length > 3 ? `; and ${locked.length - 3} more` : ""}. Reopen or unlock them to let a re-plan change them.`
      : `The project has only ${kids.length} task${kids.length === 1 ? "" : "s"}: there is nothing to merge.`;
  }
  return { changes, keptLocked: [...keptLocked.values()], nothing };
}
