import { createHash } from "node:crypto";
import { and, asc, desc, eq, inArray, notInArray, sql } from "drizzle-orm";
import type { z } from "zod";
import { UUID_PATTERN } from "../../../shared/ids";
import type { PlannedSubtask } from "../../../shared/schemas/plan";
import {
  type acceptReplanInput,
  changeSummary,
  type PlannedFields,
  type ReplanProposal,
  type ReplanResult,
  type replanInput,
} from "../../../shared/schemas/replan";
import type { Task } from "../../../shared/schemas/tasks";
import { replanProposals, taskDependencies, tasks } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { isAtomic } from "../../engine/atomicity";
import { briefOf, optionsOf } from "../../engine/brief";
import { readGuidance } from "../../engine/guidance";
import type { Planner, SplitRequest } from "../../engine/planners/contract";
import { PlannerError } from "../../engine/planners/errors";
import { plannedRange, siblingDependencies } from "../../engine/sibling-dependencies";
import { AppError } from "../../errors";
import { acceptableDependencies } from "../../plan/graph";
import {
  diffPlan,
  type ExistingNode,
  fieldsOf,
  normalTitle,
  type ProposedNode,
  withRequirements,
} from "../../plan/replan-diff";
import { beginRevision, recordRevision, revisionTitle } from "../../plan/revisions";
import type { TaskRow } from "../../plan/rows";
import { estimateOf, loadPlanGraph, loadTreeRows } from "../../plan/rows";
import { lockReasons } from "./serialize";
import { countMonthlyUse, getOwnedRow, getTask } from "./tasks";

/**
 * Re-planning a node as a reviewable diff (docs/decisions/019-replan-and-history.md): the planner plans
 * the node's subtree again, with the person's guidance, without touching the tree; the answer is a list of
 * changes (diffPlan) kept as a proposal; accepting all or some applies them in one transaction as a
 * revision of the plan, unless the subtree changed since (409).
 */

type Tx = Parameters<Parameters<Deps["db"]["transaction"]>[0]>[0];

/** Splits one re-plan may ask a model for (the node, then its new subtasks); the offline outline has no cost. */
export const REPLAN_MODEL_SPLITS = 13;
const REPLAN_OFFLINE_SPLITS = 500;
/** Proposals kept per plan; older ones are dropped as new ones are made. */
export const PROPOSALS_KEPT = 10;
const CONCURRENT_SPLITS = 4;
const ELSEWHERE_LIMIT = 80;

function childrenMap(rows: TaskRow[]): Map<string, TaskRow[]> {
  const out = new Map<string, TaskRow[]>();
  for (const r of rows) {
    if (!r.parentId) continue;
    const list = out.get(r.parentId);
    if (list) list.push(r);
    else out.set(r.parentId, [r]);
  }
  return out;
}

function subtreeOf(rows: TaskRow[], id: string): TaskRow[] {
  const kids = childrenMap(rows);
  const out: TaskRow[] = [];
  const visit = (n: string) => {
    for (const c of kids.get(n) ?? []) {
      out.push(c);
      visit(c.id);
    }
  };
  visit(id);
  return out;
}

/** The re-planned subtree as it is now: any change to it (content, place, status, locks) changes this. */
function fingerprint(rows: TaskRow[], id: string): string {
  const target = rows.find((r) => r.id === id);
  const nodes = [...(target ? [target] : []), ...subtreeOf(rows, id)].sort((a, b) => (a.id < b.id ? -1 : 1));
  const hash = createHash("sha256");
  for (const n of nodes) {
    hash.update(
      `${n.id}|${n.parentId}|${n.position}|${n.updatedAt.getTime()}|${n.status}|${n.editedAt?.getTime() ?? ""}|${n.exportedAt?.getTime() ?? ""}\n`,
    );
  }
  return hash.digest("hex");
}

function fieldsOfRow(r: TaskRow): PlannedFields {
  return {
    description: r.description,
    implementation_details: r.implementationDetails,
    acceptance_criteria: r.acceptanceCriteria,
    requirement_ids: r.requirementIds,
    story_points: r.storyPoints,
    complexity_score: r.complexityScore,
    estimate_hours: estimateOf(r),
  };
}

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
async function planSubtree(
  planner: Planner,
  root: TaskRow,
  target: TaskRow,
  rows: TaskRow[],
  guidanceText: string,
): Promise<ProposedNode[]> {
  const opts = optionsOf(root);
  const brief = briefOf(root, root.repositorySummary);
  const guidance = readGuidance(guidanceText);
  const levels = guidance.lessDetail ? 1 : guidance.moreDetail ? 3 : 2;
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
      if (guidance.lessDetail || atomic) f.node.children = [];
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

function toProposal(row: typeof replanProposals.$inferSelect): ReplanProposal {
  return {
    proposal_id: row.id,
    task_id: row.taskId,
    guidance: row.guidance,
    planner: row.planner,
    status: row.status,
    created_at: row.createdAt.toISOString(),
    changes: row.changes,
    kept_locked: row.keptLocked,
  };
}

function refuseWhileDecomposing(root: TaskRow, what: string) {
  if (["pending", "processing", "submitted"].includes(root.status)) {
    throw new AppError(
      "CONFLICT",
      root.status === "submitted"
        ? `This plan is waiting for your review. Approve or reject it before you ${what}.`
        : `This plan is still being decomposed. Wait until it finishes before you ${what}.`,
    );
  }
}

/**
 * Asks the planner for a new subtree of a task (the root included), with optional guidance, and returns
 * the difference to the current one as a proposal. Nothing in the tree changes. A model re-plan uses one of
 * the monthly allowance (it costs model calls); the offline outline's does not.
 */
export async function proposeReplan(
  deps: Deps,
  userId: string,
  id: string,
  input: z.output<typeof replanInput>,
): Promise<ReplanProposal> {
  const target = await getOwnedRow(deps, userId, id);
  const rootId = target.rootTaskId ?? target.id;
  const rows = await loadTreeRows(deps.db, rootId);
  const root = rows.find((r) => r.id === rootId)!;
  refuseWhileDecomposing(root, "re-plan it");
  const planner = await deps.planners.forUser(userId);
  if (planner.name !== "offline") {
    await deps.db.transaction((tx) => countMonthlyUse(tx, userId));
  }
  const guidance = input.guidance ?? "";
  const proposed = await planSubtree(planner, root, target, rows, guidance).catch((err: unknown) => {
    // The provider refused or could not be reached: the caller is told so, in the words a failed
    // decomposition uses, as the gateway error it is (not a server error of ours).
    if (err instanceof PlannerError) throw new AppError("BAD_GATEWAY", err.message, { cause: err });
    throw err;
  });
  const existing: ExistingNode[] = subtreeOf(rows, target.id).map((r) => ({
    id: r.id,
    parentId: r.parentId!,
    fields: fieldsOfRow(r),
    locked: lockReasons(r),
  }));
  const diff = diffPlan(target.id, existing, proposed);
  const saved = await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(replanProposals)
      .values({
        userId,
        taskId: target.id,
        rootTaskId: rootId,
        guidance: guidance || null,
        planner: planner.name,
        baseFingerprint: fingerprint(rows, target.id),
        changes: diff.changes,
        keptLocked: diff.keptLocked,
      })
      .returning();
    const kept = await tx
      .select({ id: replanProposals.id })
      .from(replanProposals)
      .where(eq(replanProposals.rootTaskId, rootId))
      .orderBy(desc(replanProposals.createdAt), desc(replanProposals.id))
      .limit(PROPOSALS_KEPT);
    await tx.delete(replanProposals).where(
      and(
        eq(replanProposals.rootTaskId, rootId),
        notInArray(
          replanProposals.id,
          kept.map((k) => k.id),
        ),
      ),
    );
    return row!;
  });
  deps.log.info("re-plan proposed", {
    taskId: target.id,
    changes: diff.changes.length,
    planner: planner.name,
  });
  return toProposal(saved);
}

/** A proposal the caller made for this task (404 otherwise). */
export async function getReplan(
  deps: Deps,
  userId: string,
  id: string,
  proposalId: string,
): Promise<ReplanProposal> {
  const target = await getOwnedRow(deps, userId, id);
  return toProposal(await findProposal(deps.db, userId, target.id, proposalId));
}

/** The caller's proposal for this task (404 otherwise, whatever the id looks like). */
async function findProposal(db: Deps["db"] | Tx, userId: string, taskId: string, proposalId: string) {
  const notFound = new AppError("NOT_FOUND", "Re-plan proposal not found");
  if (!UUID_PATTERN.test(proposalId)) throw notFound;
  const [row] = await db
    .select()
    .from(replanProposals)
    .where(
      and(
        eq(replanProposals.id, proposalId),
        eq(replanProposals.userId, userId),
        eq(replanProposals.taskId, taskId),
      ),
    )
    .limit(1);
  if (!row) throw notFound;
  return row;
}

const PLANNED_COLUMNS = {
  description: "description",
  implementation_details: "implementationDetails",
  acceptance_criteria: "acceptanceCriteria",
  requirement_ids: "requirementIds",
  story_points: "storyPoints",
  complexity_score: "complexityScore",
} as const;

function columnsOf(fields: Partial<PlannedFields>, source: "rule" | "model"): Partial<TaskRow> {
  const set: Partial<TaskRow> = {};
  for (const [field, column] of Object.entries(PLANNED_COLUMNS) as [
    keyof typeof PLANNED_COLUMNS,
    keyof TaskRow,
  ][]) {
    if (field in fields) Object.assign(set, { [column]: fields[field] });
  }
  if ("estimate_hours" in fields) {
    set.estimateLowHours = fields.estimate_hours?.low ?? null;
    set.estimatedHours = fields.estimate_hours?.likely ?? null;
    set.estimateHighHours = fields.estimate_hours?.high ?? null;
  }
  if ("estimate_hours" in fields || "story_points" in fields || "complexity_score" in fields) {
    set.estimateSource = source;
  }
  return set;
}

function unprocessable(message: string, field = "change_ids") {
  return new AppError("UNPROCESSABLE_CONTENT", message, { fieldErrors: [{ field, message }] });
}

/**
 * Applies a proposal's changes (all, or the chosen ones with what they need) in one transaction, as a
 * revision. Refused with 409 when the re-planned subtree changed since the proposal was made (re-plan again)
 * or the proposal was accepted already.
 */
export async function acceptReplan(
  deps: Deps,
  userId: string,
  id: string,
  proposalId: string,
  input: z.output<typeof acceptReplanInput>,
): Promise<ReplanResult> {
  const target = await getOwnedRow(deps, userId, id);
  const rootId = target.rootTaskId ?? target.id;
  const result = await deps.db.transaction(async (tx) => {
    await beginRevision(tx, rootId);
    const proposal = await findProposal(tx, userId, target.id, proposalId);
    if (proposal.status === "accepted") throw new AppError("CONFLICT", "This re-plan was already accepted.");
    const rows = await loadTreeRows(tx, rootId);
    refuseWhileDecomposing(rows.find((r) => r.id === rootId)!, "accept a re-plan");
    if (fingerprint(rows, target.id) !== proposal.baseFingerprint) {
      throw new AppError(
        "CONFLICT",
        "This part of the plan changed after the re-plan was proposed, so the proposal no longer fits. Re-plan again to see a fresh proposal.",
      );
    }
    const changes = proposal.changes;
    const known = new Set(changes.map((c) => c.change_id));
    const unknown = (input.change_ids ?? []).filter((c) => !known.has(c));
    if (unknown.length) throw unprocessable(`Unknown change: ${unknown.slice(0, 5).join(", ")}`);
    if (changes.length === 0)
      throw unprocessable("This re-plan proposes no changes: there is nothing to accept.");
    const chosen = withRequirements(changes, input.change_ids ?? [...known]);
    const applied = changes.filter((c) => chosen.has(c.change_id));
    const source = proposal.planner === "offline" ? "rule" : "model";
    const byId = new Map(rows.map((r) => [r.id, r]));
    const parentOf = new Map(rows.map((r) => [r.id, r.parentId]));
    const depthOf = new Map(rows.map((r) => [r.id, r.depth]));
    const added = new Map<string, string>();
    const parentOfChange = (c: { parent_id: string | null; parent_change_id: string | null }) =>
      c.parent_id ?? added.get(c.parent_change_id ?? "")!;
    /** Children placed by this re-plan, per parent, at their place in the proposal. */
    const placed = new Map<string, { id: string; position: number }[]>();
    const place = (parentId: string, id: string, position: number) => {
      const list = placed.get(parentId) ?? [];
      list.push({ id, position });
      placed.set(parentId, list);
    };
    const touchedParents = new Set<string>();

    for (const c of applied) {
      if (c.op !== "add") continue;
      const parentId = parentOfChange(c);
      const depth = depthOf.get(parentId)! + 1;
      const [row] = await tx
        .insert(tasks)
        .values({
          ...columnsOf(c.after, source),
          description: c.after.description,
          userId,
          parentId,
          rootTaskId: rootId,
          depth,
          position: 0,
          status: "pending",
          isAtomic: true,
        })
        .returning({ id: tasks.id });
      added.set(c.change_id, row!.id);
      parentOf.set(row!.id, parentId);
      depthOf.set(row!.id, depth);
      place(parentId, row!.id, c.position);
      touchedParents.add(parentId);
    }
    for (const c of applied) {
      if (c.op !== "move") continue;
      const parentId = parentOfChange(c);
      for (let p: string | null | undefined = parentId; p; p = parentOf.get(p)) {
        if (p === c.task_id) {
          throw unprocessable(
            `Change ${c.change_id} would put ${revisionTitle(byId.get(c.task_id)!.description)} under its own subtask: accept the change that moves that subtask out as well.`,
          );
        }
      }
      const delta = depthOf.get(parentId)! + 1 - depthOf.get(c.task_id)!;
      touchedParents.add(parentOf.get(c.task_id)!);
      touchedParents.add(parentId);
      await tx.update(tasks).set({ parentId, updatedAt: new Date() }).where(eq(tasks.id, c.task_id));
      if (delta !== 0) {
        await tx.execute(sql`with recursive sub(id) as (
            select ${c.task_id}::uuid union all select t.id from ${tasks} t join sub on t.parent_id = sub.id)
          update ${tasks} set depth = depth + ${delta} where id in (select id from sub)`);
        for (const r of [c.task_id, ...subtreeOf(rows, c.task_id).map((s) => s.id)]) {
          depthOf.set(r, depthOf.get(r)! + delta);
        }
      }
      parentOf.set(c.task_id, parentId);
      place(parentId, c.task_id, c.position);
    }
    for (const c of applied) {
      if (c.op !== "update") continue;
      await tx
        .update(tasks)
        .set({ ...columnsOf(c.after, source), updatedAt: new Date() })
        .where(eq(tasks.id, c.task_id));
    }
    const removed = applied.filter((c) => c.op === "remove").map((c) => c.task_id);
    for (const c of applied) if (c.op === "remove") touchedParents.add(parentOf.get(c.task_id)!);
    if (removed.length) await tx.delete(tasks).where(inArray(tasks.id, removed));

    // Sibling order: what the re-plan placed goes at its place in the proposal, the rest keeps its order.
    for (const [parentId, list] of placed) {
      const current = await tx
        .select({ id: tasks.id })
        .from(tasks)
        .where(eq(tasks.parentId, parentId))
        .orderBy(asc(tasks.position), asc(tasks.createdAt));
      const placedIds = new Set(list.map((l) => l.id));
      const order = current.map((c) => c.id).filter((c) => !placedIds.has(c));
      for (const l of [...list].sort((a, b) => a.position - b.position)) {
        order.splice(Math.min(l.position, order.length), 0, l.id);
      }
      for (const [i, sid] of order.entries()) {
        await tx
          .update(tasks)
          .set({ position: i + 1 })
          .where(eq(tasks.id, sid));
      }
    }
    // A node with subtasks is not a leaf; one left without any is.
    const parents = [...touchedParents, ...added.values()].filter(
      (p) => p !== rootId && !removed.includes(p),
    );
    if (parents.length) {
      await tx.execute(sql`update ${tasks} t set is_atomic = not exists (select 1 from ${tasks} c where c.parent_id = t.id)
        where t.id in (${sql.join(
          parents.map((p) => sql`${p}::uuid`),
          sql`, `,
        )})`);
    }

    // The order: dependencies a move turned into ones on an ancestor go (a parent's apply to its
    // subtasks anyway); the new tasks' proposed ones are added where the accepted plan allows them.
    let graph = await loadPlanGraph(tx, rootId);
    const related = graph.edges.filter((e) => {
      const a = graph.index.get(e.taskId)!;
      const b = graph.index.get(e.dependsOnId)!;
      return graph.isAncestor(a, b) || graph.isAncestor(b, a);
    });
    for (const e of related) {
      await tx
        .delete(taskDependencies)
        .where(and(eq(taskDependencies.taskId, e.taskId), eq(taskDependencies.dependsOnId, e.dependsOnId)));
    }
    if (related.length) graph = await loadPlanGraph(tx, rootId);
    const resolve = (ref: string) => added.get(ref) ?? (byId.has(ref) && !removed.includes(ref) ? ref : null);
    const candidates = applied.flatMap((c) => {
      if (c.op !== "add") return [];
      const taskId = added.get(c.change_id)!;
      return c.after.depends_on.flatMap((ref) => {
        const other = resolve(ref);
        return other && graph.index.has(other) ? [{ taskId, dependsOnId: other }] : [];
      });
    });
    const kept = graph.order ? acceptableDependencies(graph, candidates) : [];
    if (kept.length) {
      await tx
        .insert(taskDependencies)
        .values(kept.map((e) => ({ ...e, rootTaskId: rootId, source: "planner" as const })))
        .onConflictDoNothing();
    }
    if (!(await loadPlanGraph(tx, rootId)).order) {
      throw unprocessable(
        "These changes would make the plan's dependencies form a cycle. Accept fewer moves, or remove a dependency first.",
      );
    }
    await tx.update(replanProposals).set({ status: "accepted" }).where(eq(replanProposals.id, proposal.id));
    const revisionId = await recordRevision(tx, {
      rootId,
      taskId: target.id,
      kind: "replan",
      summary: `Re-plan of ${revisionTitle(target.description)}${proposal.guidance ? ` ("${proposal.guidance.slice(0, 80)}")` : ""}: ${changeSummary(applied, { add: "added", update: "changed", move: "moved", remove: "removed" })}`,
    });
    return {
      proposal_id: proposal.id,
      applied: applied.map((c) => c.change_id),
      revision_id: revisionId,
      dependencies_dropped: candidates.length - kept.length + related.length,
    };
  });
  await deps.events.publish({
    type: "task.updated",
    userId,
    taskId: target.id,
    rootTaskId: rootId,
    message: "Re-plan applied",
    data: { replanned: true, applied: result.applied.length },
  });
  return result;
}

/**
 * Unlocks a task for re-plans: forgets that a person edited it and that an export created it elsewhere.
 * A completed task stays locked: reopen it to let a re-plan change it.
 */
export async function unlockTask(deps: Deps, userId: string, id: string): Promise<Task> {
  const row = await getOwnedRow(deps, userId, id);
  await deps.db
    .update(tasks)
    .set({ editedAt: null, exportedAt: null, updatedAt: new Date() })
    .where(eq(tasks.id, row.id));
  const task = await getTask(deps, userId, id);
  await deps.events.publish({
    type: "task.updated",
    userId,
    taskId: row.id,
    rootTaskId: row.rootTaskId ?? row.id,
    status: task.status,
    message: "Task unlocked",
  });
  return task;
}
