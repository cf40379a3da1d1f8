import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { z } from "zod";
import {
  type acceptReplanInput,
  changeSummary,
  type PlannedFields,
  type ReplanChange,
  type ReplanResult,
} from "../../../shared/schemas/replan";
import type { TaskFile } from "../../../shared/schemas/repository-map";
import type { Tx } from "../../db/client";
import { replanProposals, taskDependencies, tasks } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { withLikelyFiles } from "../../engine/repository/likely-files";
import { loadRepositoryMap } from "../../engine/repository/map-summary";
import { AppError } from "../../errors";
import { acceptableDependencies } from "../../plan/graph";
import { getOwnedRow } from "../../plan/owned";
import { uncoveredBy, uncoveredSentence } from "../../plan/replan-coverage";
import { withRequirements } from "../../plan/replan-diff";
import { beginRevision, recordRevision, revisionTitle } from "../../plan/revisions";
import type { TaskRow } from "../../plan/rows";
import { loadPlanGraph, loadTreeRows, subtreeOf } from "../../plan/rows";
import { assertPlanRoom } from "../../plan/size";
import { findProposal, fingerprint, refuseWhileDecomposing } from "./proposals";
import { statedScope } from "./serialize";

/** Accepting a re-plan proposal (all or some of its changes) as a revision, and unlocking a task. */

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
    // A stated requirement left with no task is never a silent side effect (issue 40).
    const root = rows.find((r) => r.id === rootId)!;
    const stated = statedScope(root)?.requirements.map((r) => r.id) ?? [];
    const uncovered = uncoveredBy(rows, applied, stated);
    if (uncovered.length > 0 && !input.accept_uncovered) {
      throw new AppError(
        "CONFLICT",
        `${uncoveredSentence(uncovered)} Leave out the changes that remove their tasks, or accept with accept_uncovered to go on.`,
      );
    }
    // Tasks it adds and removes: the plan after it must stay within PLAN_MAX_NODES.
    const adds = applied.filter((c) => c.op === "add").length;
    const removes = applied.filter((c) => c.op === "remove").length;
    await assertPlanRoom(tx, rootId, adds - removes, deps.config.PLAN_MAX_NODES);
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
    // On a repository (issue 42): what a re-plan adds names its likely files, as a split's subtasks do.
    const map = added.size ? await loadRepositoryMap(tx, rootId) : null;
    if (map) {
      const adds = applied.filter((c) => c.op === "add");
      const filed = withLikelyFiles(
        map,
        rows.find((r) => r.id === rootId)?.description ?? "",
        adds.map((c): { description: string; implementation_details: string; files?: TaskFile[] } => ({
          description: c.after.description,
          implementation_details: c.after.implementation_details ?? "",
        })),
      );
      for (const [i, c] of adds.entries()) {
        const files = filed[i]?.files;
        if (files?.length)
          await tx
            .update(tasks)
            .set({ files })
            .where(eq(tasks.id, added.get(c.change_id)!));
      }
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
    // What "less detail" merges keeps its work: actuals, start and dependencies go to the merged task.
    const mergedDependencies = await carryMerged(tx, rootId, rows, applied);
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
    const candidates = [...mergedDependencies, ...applied].flatMap((c) => {
      if (!("op" in c)) {
        // A merged task's dependency: kept where both ends are still in the plan.
        const taskId = resolve(c.taskId);
        const dependsOnId = resolve(c.dependsOnId);
        return taskId && dependsOnId ? [{ taskId, dependsOnId }] : [];
      }
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
      summary: `Re-planned ${revisionTitle(target.description)}${proposal.guidance ? ` ("${proposal.guidance.slice(0, 80)}")` : ""}: ${changeSummary(applied, { add: "added", update: "changed", move: "moved", remove: "removed" })}`,
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
 * Before the tasks a merge removes are deleted: their actual hours (summed), first start and progress go
 * to the task they merge into, and their dependencies are returned, redrawn on that task, for the caller
 * to add where the plan allows (acceptableDependencies drops one that closes a cycle).
 */
async function carryMerged(
  tx: Tx,
  rootId: string,
  rows: TaskRow[],
  applied: ReplanChange[],
): Promise<{ taskId: string; dependsOnId: string }[]> {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const into = new Map<string, string>(); // removed task (and what is below it) -> the task it merges into
  for (const c of applied) {
    if (c.op !== "remove" || !c.merged_into || !byId.has(c.merged_into)) continue;
    for (const r of [c.task_id, ...subtreeOf(rows, c.task_id).map((x) => x.id)]) into.set(r, c.merged_into);
  }
  if (into.size === 0) return [];
  const taken = new Map<string, TaskRow[]>();
  for (const [gone, target] of into) taken.set(target, [...(taken.get(target) ?? []), byId.get(gone)!]);
  for (const [targetId, parts] of taken) {
    const target = byId.get(targetId)!;
    const withHours = parts.filter((p) => p.actualHours !== null);
    const starts = [target, ...parts].map((p) => p.startedAt).filter((d): d is Date => d !== null);
    const started = parts.some((p) => p.status === "in_progress" || p.startedAt !== null);
    const set: Partial<TaskRow> = {};
    if (withHours.length) {
      set.actualHours =
        Math.round(((target.actualHours ?? 0) + withHours.reduce((n, p) => n + p.actualHours!, 0)) * 100) /
        100;
      set.actualSource = [target, ...withHours].some((p) => p.actualSource === "person")
        ? "person"
        : "working_time";
    }
    if (starts.length) set.startedAt = new Date(Math.min(...starts.map((d) => d.getTime())));
    if (started && target.status === "pending") set.status = "in_progress";
    if (Object.keys(set).length) await tx.update(tasks).set(set).where(eq(tasks.id, targetId));
  }
  const edges = await tx
    .select({ taskId: taskDependencies.taskId, dependsOnId: taskDependencies.dependsOnId })
    .from(taskDependencies)
    .where(eq(taskDependencies.rootTaskId, rootId));
  // Each redrawn edge once, and none the plan has already.
  const key = (e: { taskId: string; dependsOnId: string }) => `${e.taskId}>${e.dependsOnId}`;
  const seen = new Set(edges.filter((e) => !into.has(e.taskId) && !into.has(e.dependsOnId)).map(key));
  return edges
    .filter((e) => into.has(e.taskId) || into.has(e.dependsOnId))
    .map((e) => ({
      taskId: into.get(e.taskId) ?? e.taskId,
      dependsOnId: into.get(e.dependsOnId) ?? e.dependsOnId,
    }))
    .filter((e) => e.taskId !== e.dependsOnId && !seen.has(key(e)) && seen.add(key(e)));
}
