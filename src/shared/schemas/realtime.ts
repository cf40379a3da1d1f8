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
const STAGE_IDS = STAGES.map((s) => s.id) as [StageId, ...StageId[]];
export type StageStatus = "started" | "processing" | "completed" | "error";

const id = z.string().max(100);
const count = z.number().int().nonnegative();
const progress = z.number().min(0).max(100);
/** Where an export stands; its success carries the tracker's own result (links, counts) beside these. */
const exportRef = { export_id: id, kind: z.string().max(50) };

/**
 * What each event type carries in `data`, declared once: the server's publishers are typed by it (a field
 * no type declares does not compile), the bus checks events that reach it from other processes, and the
 * client reads what it receives through it, on tRPC and the raw channels alike. Every field is one a
 * publisher may leave out unless the type always has it; events stored before a field was declared
 * read as without it.
 */
export const EVENT_DATA = {
  "task.created": z.object({ parent_id: id.nullable().optional() }),
  "task.updated": z
    .object({
      notes_changed: z.literal(true),
      replanned: z.literal(true),
      applied: count,
      tracker_changes: count,
      synced: count,
      pull_requests_changed: z.literal(true),
      needs_attention: z.boolean(),
      attention_reason: z.string(),
      restored: z.literal(true),
      revision_id: id,
      dependencies_changed: z.literal(true),
      moved: z.literal(true),
      parent_id: id.nullable(),
      position: z.number().int(),
    })
    .partial(),
  "task.status_changed": z.object({ previous_status: z.string().max(50).optional() }),
  "task.approved": z.object({ approved_by: z.string().optional() }),
  "task.rejected": z.object({
    reason: z.string().nullable().optional(),
    new_description: z.string().optional(),
  }),
  "task.completed": z.object({}),
  "task.ready": z.object({ ready: z.array(id), ready_count: count }),
  "task.deleted": z.object({ parent_id: id.nullable(), deleted: count }),
  "task.decomposed": z.object({ progress: progress.optional() }),
  "decomposition.started": z.object({}),
  "decomposition.completed": z.object({ progress: progress.optional(), total_subtasks: count.optional() }),
  "decomposition.error": z.object({}),
  "service.status": z.object({
    stage: z.enum(STAGE_IDS),
    stage_name: z.string(),
    progress,
    node_id: id.optional(),
    needs_attention: z.boolean().optional(),
    merged: count.optional(),
  }),
  "event_modeling.started": z.object({ progress: progress.optional() }),
  "event_modeling.completed": z.object({
    events: count,
    commands: count,
    read_models: count,
    applied: z.boolean(),
  }),
  "export.progress": z.object({ ...exportRef, step: z.string(), progress, message: z.string().optional() }),
  "export.success": z.looseObject(exportRef),
  "export.error": z.object({ ...exportRef, message: z.string() }),
  "comment.mentioned": z.object({ url: z.string() }),
  "team.member_removed": z.object({ team_id: id }),
  "team.member_added": z.object({ team_id: id }),
} satisfies { [T in TaskEventType]: z.ZodObject };

/** The `data` of an event of type T. */
export type EventData<T extends TaskEventType> = z.infer<(typeof EVENT_DATA)[T]>;

const eventFields = {
  id: z.number().int(),
  task_id: id.nullable(),
  root_task_id: id.nullable(),
  /** The task's status; for service.status events the stage's (started, processing, completed, error). */
  status: z.string().max(50).optional(),
  is_atomic: z.boolean().optional(),
  /** The pipeline stage, for service.status events. */
  operator_id: z.string().max(50).optional(),
  message: z.string().optional(),
  timestamp: z.string(),
};

type EventSchema<T extends TaskEventType> = z.ZodObject<
  typeof eventFields & { type: z.ZodLiteral<T>; data: (typeof EVENT_DATA)[T] }
>;
type AnyEventSchema = { [T in TaskEventType]: EventSchema<T> }[TaskEventType];
const eventSchema = <T extends TaskEventType>(type: T) =>
  z.object({ ...eventFields, type: z.literal(type), data: EVENT_DATA[type] }) as EventSchema<T>;

/** One realtime event as clients receive it: its type decides what `data` carries (EVENT_DATA). */
export const realtimeEvent = z.discriminatedUnion(
  "type",
  TASK_EVENT_TYPES.map(eventSchema) as [AnyEventSchema, ...AnyEventSchema[]],
);
export type RealtimeEvent = z.infer<typeof realtimeEvent>;

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
