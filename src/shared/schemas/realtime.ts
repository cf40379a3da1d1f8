import { z } from "zod";

/** Realtime event types (global channel and task screens). */
export const TASK_EVENT_TYPES = [
  "task.created",
  "task.updated",
  "task.status_changed",
  "task.approved",
  "task.rejected",
  "task.completed",
  /** Leaves whose dependencies became all done (data.ready), after a task was completed or reopened. */
  "task.ready",
  "task.deleted",
  "task.decomposed",
  "decomposition.started",
  "decomposition.completed",
  "decomposition.error",
  "service.status",
  "event_modeling.started",
  "event_modeling.completed",
  "export.progress",
  "export.success",
  "export.error",
  /** Someone mentioned the user in a comment (issue 41): on their own channel only. */
  "comment.mentioned",
  /**
   * The user left a team or was removed from it (issue 41): on their own channel; their open channels of
   * the team's plans close (4404), as they would not open now.
   */
  "team.member_removed",
  /** The user joined a team: on their own channel, which carries the team's plans from then on. */
  "team.member_added",
] as const;
export type TaskEventType = (typeof TASK_EVENT_TYPES)[number];

/** The six pipeline stages and their progress values. */
export const STAGES = [
  { id: "source", name: "Source Processing", progress: 10 },
  { id: "context_fetch", name: "Context Analysis", progress: 25 },
  { id: "complexity_scorer", name: "Complexity Analysis", progress: 40 },
  { id: "root_processor", name: "Technical Planning", progress: 55 },
  { id: "decomposer", name: "Task Decomposition", progress: 75 },
  { id: "composer", name: "Final Composition", progress: 90 },
] as const;
export type StageId = (typeof STAGES)[number]["id"];
export type StageStatus = "started" | "processing" | "completed" | "error";

/**
 * One realtime event as clients receive it: `operator_id` is the
 * pipeline stage for service.status events; `data` carries the type-specific payload.
 */
export type RealtimeEvent = {
  id: number;
  type: TaskEventType;
  task_id: string | null;
  root_task_id: string | null;
  status?: string;
  is_atomic?: boolean;
  operator_id?: string;
  message?: string;
  timestamp: string;
  data: Record<string, unknown>;
};

/** Someone with a plan open now (issue 41): a person, or one of their agents (its token's name). */
export const planViewer = z.object({ user_id: z.string(), name: z.string(), agent: z.string().nullable() });
export type PlanViewer = z.infer<typeof planViewer>;

/** Who has a plan open now: sent when it changes (the tRPC `realtime.planPresence`, and `/ws/tasks/{id}`). */
export type PresenceMessage = { type: "presence"; viewers: PlanViewer[]; timestamp: string };

/** What a client may send on a raw channel. Anything else is answered with an error message. */
export const clientChannelMessage = z.discriminatedUnion("type", [
  z.object({ type: z.literal("heartbeat") }),
  z.object({ type: z.literal("ping") }),
]);

export const REALTIME_CLOSE = {
  unauthorized: { code: 4401, reason: "Unauthorized: sign in again" },
  sessionEnded: { code: 4401, reason: "Session ended: sign in again" },
  notFound: { code: 4404, reason: "Task not found" },
  badRequest: { code: 4400, reason: "Bad request" },
  restarting: { code: 1012, reason: "Server restarting" },
} as const;
