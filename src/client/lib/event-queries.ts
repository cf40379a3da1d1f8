import type { TaskEventType } from "../../shared/schemas/realtime";

/**
 * What each live event makes stale, in one place (issue 44): the task page's and the dashboard's realtime
 * hooks both read it, and which queries a refresh reaches is plan-queries.ts's families. Typed by every
 * event type, so a new one does not compile until it says what it refreshes.
 * - `plan`: the views of the plan the event is about. "now": its task, every view of the plan and the
 *   lists, shortly after (debounced); "progress": the task and the tree at most once a second while a
 *   plan is being made, so it grows live; "completion": everything, once the plan is complete; null:
 *   nothing.
 * - `list`: the dashboard's list, counts and monthly usage.
 */
export type EventQueries = { plan: "now" | "progress" | "completion" | null; list: boolean };

const taskChange: EventQueries = { plan: "now", list: true };
const progress: EventQueries = { plan: "progress", list: false };
const none: EventQueries = { plan: null, list: false };

export const EVENT_QUERIES: Record<TaskEventType, EventQueries> = {
  "task.created": taskChange,
  "task.updated": taskChange,
  "task.status_changed": taskChange,
  "task.approved": taskChange,
  "task.rejected": taskChange,
  "task.completed": taskChange,
  "task.ready": taskChange,
  "task.deleted": taskChange,
  "task.decomposed": taskChange,
  "decomposition.started": { plan: "progress", list: true },
  "decomposition.completed": { plan: "completion", list: true },
  "decomposition.error": taskChange,
  "service.status": progress,
  "event_modeling.started": progress,
  "event_modeling.completed": progress,
  // An export's progress has its own stream and dialog; a mention, a team change only toast.
  "export.progress": none,
  "export.success": none,
  "export.error": none,
  "comment.mentioned": none,
  "team.member_removed": none,
  "team.member_added": none,
};
