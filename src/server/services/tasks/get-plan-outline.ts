import type { z } from "zod";
import { calibrationSentence } from "../../../shared/actuals";
import { OUTLINE_LINES_MAX, type outlineInput, type PlanOutline } from "../../../shared/schemas/agent";
import { approvalSentence } from "../../../shared/schemas/reviews";
import type { TaskStatus } from "../../../shared/schemas/tasks";
import type { Deps } from "../../deps";
import { loadCalibration } from "../../plan/calibration";
import { schedulePlan } from "../../plan/graph";
import { simulationsFor } from "../../plan/order";
import { getOwnedRow } from "../../plan/owned";
import type { TaskRow } from "../../plan/rows";
import { type LoadedPlan, leafProgress, loadPlan, type Row, titleOf } from "./agent-view";
import { reviewStateOf } from "./approval";

const STATUS_MARK: Partial<Record<string, string>> = {
  completed: "[x]",
  in_progress: "[~]",
  processing: "[~]",
  failed: "[!]",
  error: "[!]",
  rejected: "[!]",
};

/**
 * A compact outline of a task's subtree, `depth` levels down, numbered so dependencies read as
 * `after 1.2`: ids to act on, status, points, hours, critical-path and ready marks. Titles are JSON
 * strings: whoever wrote one, it cannot pass for the outline's own marks, ids or lines.
 */
export async function getPlanOutline(
  deps: Deps,
  userId: string,
  id: string,
  input: z.output<typeof outlineInput>,
): Promise<PlanOutline> {
  const top = await getOwnedRow(deps, userId, id);
  const rootId = top.rootTaskId ?? top.id;
  const plan = await loadPlan(deps, rootId, { titles: true });
  const ready = new Set(plan.ready);

  // Number the subtree first, so a dependency on a later task still reads as its number.
  const numbers = new Map<string, string>([[top.id, "0"]]);
  const shown: { row: Row; number: string; level: number }[] = [];
  let omitted = 0;
  const walk = (parent: Row, prefix: string, level: number) => {
    const kids = plan.children.get(parent.id) ?? [];
    kids.forEach((kid, i) => {
      const number = prefix ? `${prefix}.${i + 1}` : `${i + 1}`;
      if (level > input.depth || shown.length >= OUTLINE_LINES_MAX) {
        omitted++;
        walk(kid, number, level + 1);
        return;
      }
      numbers.set(kid.id, number);
      shown.push({ row: kid, number, level });
      walk(kid, number, level + 1);
    });
  };
  walk(top, "", 1);

  // A parent's mark is its work's progress (its own status is the plan's: "completed" once planned).
  const leaves = new Map<string, { done: number; total: number }>();
  const countLeaves = (row: Row): { done: number; total: number } => {
    const known = leaves.get(row.id);
    if (known) return known;
    const kids = plan.children.get(row.id);
    const c = kids
      ? kids.map(countLeaves).reduce((a, b) => ({ done: a.done + b.done, total: a.total + b.total }))
      : { done: row.status === "completed" ? 1 : 0, total: 1 };
    leaves.set(row.id, c);
    return c;
  };
  const markOf = (row: Row) => {
    if (!plan.children.has(row.id)) return STATUS_MARK[row.status] ?? "[ ]";
    const c = countLeaves(row);
    return c.done === c.total ? "[x]" : c.done > 0 ? "[~]" : "[ ]";
  };
  const line = (row: Row, number: string, level: number) => {
    const facts = [
      row.storyPoints !== null ? `${row.storyPoints} pts` : null,
      row.estimatedHours !== null ? `${row.estimatedHours}h` : null,
      plan.children.has(row.id) ? `${plan.children.get(row.id)!.length} subtasks` : null,
    ].filter(Boolean);
    const after = (plan.dependsOn.get(row.id) ?? []).map((d) => numbers.get(d) ?? d);
    return [
      `${"  ".repeat(level)}${number} ${markOf(row)} ${JSON.stringify(titleOf(row.description))}`,
      facts.length ? ` (${facts.join(", ")})` : "",
      ` id=${row.id}`,
      after.length ? ` after ${after.join(", ")}` : "",
      plan.critical.has(row.id) ? " *critical" : "",
      ready.has(row.id) ? " *ready" : "",
    ].join("");
  };
  const lines = [line(top, "0", 0), ...shown.map((s) => line(s.row, s.number, s.level))];
  if (omitted > 0) {
    lines.push(
      `(${omitted} more tasks below: ask for a subtask's own outline, or a greater depth, to see them)`,
    );
  }
  return {
    task_id: top.id,
    root_task_id: rootId,
    status: top.status as TaskStatus,
    progress: leafProgress(plan, top.id),
    critical_path_hours: plan.schedule ? plan.schedule.criticalPathHours : null,
    outline: lines.join("\n"),
    omitted,
    approval: await approvalOf(deps, top.rootTaskId ? await getOwnedRow(deps, userId, rootId, "read") : top),
    forecast: await forecastOf(deps, userId, plan, rootId, top.id),
  };
}

async function approvalOf(deps: Deps, root: TaskRow) {
  const review = await reviewStateOf(deps, root);
  return { state: review.state, sentence: approvalSentence(review.state, review.required_by) };
}

/**
 * The calibrated forecast for one person, as `GET /tasks/{id}/schedule?team_size=1` gives it (the same
 * runs and seed for the whole plan), with what it learned from in a sentence (issue 33).
 */
async function forecastOf(deps: Deps, userId: string, plan: LoadedPlan, rootId: string, topId: string) {
  const top = plan.graph.index.get(topId);
  if (!plan.graph.order || top === undefined) return null;
  const { calibration, ratiosFor } = await loadCalibration(deps.db, userId, rootId, true);
  const s = schedulePlan(plan.graph, top, 1, `${rootId}:1`, simulationsFor(plan.graph.size), ratiosFor);
  return {
    team_size: 1,
    p50_days: s.forecast.p50_days,
    p90_days: s.forecast.p90_days,
    calibration: calibrationSentence(calibration),
  };
}
