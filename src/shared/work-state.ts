/**
 * A project has two states, never folded into one (issue 40): its plan's (is it planned?) and its work's
 * (how much of it is done?). A root's `status` is the plan's ("completed" once it is planned, not when its
 * work is done), so nothing shows a root's or a group's status as its work: the work is its leaves.
 */
import { z } from "zod";

export const PLAN_STATES = [
  "queued",
  "planning",
  "awaiting_approval",
  "reading_review",
  "planned",
  "failed",
  "rejected",
] as const;
export type PlanState = (typeof PLAN_STATES)[number];

export const WORK_STATES = ["not_started", "in_progress", "done"] as const;
export type WorkState = (typeof WORK_STATES)[number];

export const planState = z.enum(PLAN_STATES).meta({
  description:
    "The plan's state: queued, planning, awaiting_approval (the first level waits for review), reading_review (what was read waits for its check), planned, failed or rejected.",
});
export const workState = z.enum(WORK_STATES).meta({
  description:
    "The work's state, from the leaves: not_started (none done), in_progress, or done (all of them).",
});

/** The states in words, as the exports and the CLI write them. */
export const PLAN_STATE_TEXT: Record<PlanState, string> = {
  queued: "queued",
  planning: "planning",
  awaiting_approval: "waiting for your approval",
  reading_review: "waiting for you to check what was read",
  planned: "planned",
  failed: "planning failed",
  rejected: "rejected",
};
export const WORK_STATE_TEXT: Record<WorkState, string> = {
  not_started: "not started",
  in_progress: "in progress",
  done: "done",
};

/** The plan's state, from its root's status (the API's value, unchanged). */
export function planStateOf(rootStatus: string): PlanState {
  switch (rootStatus) {
    case "pending":
      return "queued";
    case "processing":
      return "planning";
    case "submitted":
      return "awaiting_approval";
    case "awaiting_review":
      return "reading_review";
    case "failed":
    case "error":
      return "failed";
    case "rejected":
      return "rejected";
    // "completed", or a status a person set by hand on the root: the plan is made all the same.
    default:
      return "planned";
  }
}

/** The work's state from its leaves: done when every one is (and there is one), started when any is. */
export function workStateOf(p: { leaves_done: number; leaves_total: number }, anyStarted = false): WorkState {
  if (p.leaves_total > 0 && p.leaves_done >= p.leaves_total) return "done";
  return p.leaves_done > 0 || anyStarted ? "in_progress" : "not_started";
}

/**
 * What a node's work is, in the words of a task's own status: a leaf's own status; for a node with
 * subtasks (a group, or the project), its leaves' (completed when all are done, in_progress when some
 * are, pending otherwise). Its own stored status there says only that it was split.
 */
export function workStatusOf(node: {
  status: string;
  children?: readonly unknown[];
  children_count?: number;
  rollup?: { leaves_done: number; leaves_total: number } | null;
}): string {
  const hasChildren = (node.children?.length ?? node.children_count ?? 0) > 0;
  if (!hasChildren || !node.rollup) return node.status;
  const state = workStateOf(node.rollup);
  return state === "done" ? "completed" : state === "in_progress" ? "in_progress" : "pending";
}

/** Which dashboard counter a project adds to: by its work, unless its planning failed or was rejected. */
export function projectStatsGroup(
  plan: PlanState,
  work: WorkState,
): "completed" | "in_progress" | "pending" | "rejected" | "failed" {
  if (plan === "failed") return "failed";
  if (plan === "rejected") return "rejected";
  return work === "done" ? "completed" : work === "in_progress" ? "in_progress" : "pending";
}
