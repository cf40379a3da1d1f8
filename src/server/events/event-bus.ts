import { and, asc, desc, eq, gt, inArray, lt, notInArray, or, type SQL } from "drizzle-orm";
import { z } from "zod";
import {
  type EventData,
  type RealtimeEvent,
  realtimeEvent,
  type TaskEventType,
} from "../../shared/schemas/realtime";
import type { Database } from "../db/client";
import { taskEvents } from "../db/schema/index";
import type { Logger } from "../lib/logger";

/** The LISTEN/NOTIFY channel that carries events between processes. */
export const EVENT_CHANNEL = "atomize_events";

/** Events for one person only, even on a team plan: a mention, an export's progress, a removal. */
export const PERSONAL_EVENTS: ReadonlySet<TaskEventType> = new Set<TaskEventType>([
  "comment.mentioned",
  "team.member_removed",
  "team.member_added",
  "export.progress",
  "export.success",
  "export.error",
]);
/** NOTIFY payloads must stay under 8000 bytes; larger events travel by id and are read back. */
const MAX_INLINE_PAYLOAD = 7000;

type PublishFields = {
  userId: string;
  taskId: string | null;
  rootTaskId: string | null;
  /** The team it concerns, when not a plan's (a plan's events take its team from the plan). */
  teamId?: string;
  status?: string;
  isAtomic?: boolean;
  operatorId?: string;
  message?: string;
};
/** What an event of type T carries: `data` as EVENT_DATA declares it, required when it has a field that is. */
type PublishOf<T extends TaskEventType> = PublishFields & { type: T } & (Record<
    never,
    never
  > extends EventData<T>
    ? { data?: EventData<T> }
    : { data: EventData<T> });
/** An event to publish: its `data` must be what its type declares (shared/schemas/realtime.ts). */
export type PublishInput = { [T in TaskEventType]: PublishOf<T> }[TaskEventType];
export type { PublishOf };

/**
 * A delivered event with its owner and its plan's team, so subscribers can filter by user and by team
 * (both stay on the server).
 */
export type BusEvent = RealtimeEvent & { user_id: string; team_id?: string | null };
/** An event that reaches this process from another one (NOTIFY), checked before anyone hears it. */
const busEvent = z.intersection(
  realtimeEvent,
  z.object({ user_id: z.string(), team_id: z.string().nullable().optional() }),
);
const notification = z.union([z.object({ ref: z.number().int() }), busEvent]);

export type EventBus = {
  /** Persists the event (for history and resume), then fans it out to every process. */
  publish(input: PublishInput): Promise<BusEvent>;
  /** Several events in one statement (ids in the given order), then fanned out in that order. */
  publishMany(inputs: PublishInput[]): Promise<BusEvent[]>;
  /**
   * Stores events inside the caller's transaction, so they are in the history exactly when its writes
   * are; `announce` fans them out once it has committed.
   */
  record(tx: DbOrTx, inputs: PublishInput[]): Promise<BusEvent[]>;
  announce(events: BusEvent[]): Promise<void>;
  subscribe(listener: (event: BusEvent) => void): () => void;
  /** Stored events, oldest first: of one root task, or of all a user's tasks and their teams' plans. */
  history(filter: {
    userId: string;
    rootTaskId?: string;
    teamIds?: readonly string[];
    afterId?: number;
    limit?: number;
  }): Promise<BusEvent[]>;
  purgeOlderThan(date: Date): Promise<void>;
  close(): Promise<void>;
};

type Row = typeof taskEvents.$inferSelect;
type DbOrTx = Database["db"] | Parameters<Parameters<Database["db"]["transaction"]>[0]>[0];

/** A stored event: written through PublishInput, so its data is what its type declares. */
function toEvent(row: Row): BusEvent {
  const d = row.data as Record<string, unknown> & {
    status?: string;
    is_atomic?: boolean;
    operator_id?: string;
    message?: string;
  };
  const { status, is_atomic, operator_id, message, ...data } = d;
  return {
    id: row.id,
    type: row.type as TaskEventType,
    user_id: row.userId,
    team_id: row.teamId,
    task_id: row.taskId,
    root_task_id: row.rootTaskId,
    ...(status !== undefined ? { status } : {}),
    ...(is_atomic !== undefined ? { is_atomic } : {}),
    ...(operator_id !== undefined ? { operator_id } : {}),
    ...(message !== undefined ? { message } : {}),
    timestamp: row.createdAt.toISOString(),
    data,
  } as BusEvent;
}

export async function createEventBus(database: Database, log: Logger): Promise<EventBus> {
  const listeners = new Set<(e: BusEvent) => void>();
  const deliver = (e: BusEvent) => {
    for (const l of listeners) {
      try {
        l(e);
      } catch (err) {
        log.error("event listener failed", { err, type: e.type });
      }
    }
  };

  const unlisten = await database.listen(EVENT_CHANNEL, (payload) => {
    void (async () => {
      try {
        const parsed = notification.parse(JSON.parse(payload));
        if ("ref" in parsed) {
          const [row] = await database.db
            .select()
            .from(taskEvents)
            .where(eq(taskEvents.id, parsed.ref))
            .limit(1);
          if (row) deliver(toEvent(row));
        } else {
          deliver(parsed);
        }
      } catch (err) {
        log.warn("dropped a malformed event notification", { err });
      }
    })();
  });

  function rowOf(input: PublishInput) {
    const data: Record<string, unknown> = { ...input.data };
    if (input.status !== undefined) data.status = input.status;
    if (input.isAtomic !== undefined) data.is_atomic = input.isAtomic;
    if (input.operatorId !== undefined) data.operator_id = input.operatorId;
    if (input.message !== undefined) data.message = input.message;
    return {
      userId: input.userId,
      taskId: input.taskId,
      rootTaskId: input.rootTaskId,
      ...(input.teamId ? { teamId: input.teamId } : {}),
      type: input.type,
      data,
    };
  }

  async function record(tx: DbOrTx, inputs: PublishInput[]): Promise<BusEvent[]> {
    if (inputs.length === 0) return [];
    const rows = await tx.insert(taskEvents).values(inputs.map(rowOf)).returning();
    return rows.sort((a, b) => a.id - b.id).map(toEvent);
  }

  async function announce(events: BusEvent[]): Promise<void> {
    for (const event of events) {
      const inline = JSON.stringify(event);
      await database.notify(
        EVENT_CHANNEL,
        inline.length <= MAX_INLINE_PAYLOAD ? inline : JSON.stringify({ ref: event.id }),
      );
    }
  }

  async function publishMany(inputs: PublishInput[]): Promise<BusEvent[]> {
    const events = await record(database.db, inputs);
    await announce(events);
    return events;
  }

  return {
    async publish(input) {
      const [event] = await publishMany([input]);
      return event!;
    },
    publishMany,
    record,
    announce,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async history({ userId, rootTaskId, teamIds = [], afterId, limit = 200 }) {
      // One plan's events are everyone's who may see the plan (checked when they subscribed: a team's
      // members see each other's changes, issue 41); all of a user's are theirs, with their teams' plans'
      // (but not a teammate's own events: a mention, an export).
      const conditions: SQL[] = rootTaskId
        ? [
            or(eq(taskEvents.rootTaskId, rootTaskId), eq(taskEvents.taskId, rootTaskId))!,
            or(eq(taskEvents.userId, userId), notInArray(taskEvents.type, [...PERSONAL_EVENTS]))!,
          ]
        : [
            teamIds.length === 0
              ? eq(taskEvents.userId, userId)
              : or(
                  eq(taskEvents.userId, userId),
                  and(
                    inArray(taskEvents.teamId, [...teamIds]),
                    notInArray(taskEvents.type, [...PERSONAL_EVENTS]),
                  ),
                )!,
          ];
      if (afterId !== undefined) {
        conditions.push(gt(taskEvents.id, afterId));
        const rows = await database.db
          .select()
          .from(taskEvents)
          .where(and(...conditions))
          .orderBy(asc(taskEvents.id))
          .limit(limit);
        return rows.map(toEvent);
      }
      // Without a resume point: the latest `limit` events, returned oldest first.
      const rows = await database.db
        .select()
        .from(taskEvents)
        .where(and(...conditions))
        .orderBy(desc(taskEvents.id))
        .limit(limit);
      return rows.reverse().map(toEvent);
    },
    async purgeOlderThan(date) {
      await database.db.delete(taskEvents).where(lt(taskEvents.createdAt, date));
    },
    async close() {
      listeners.clear();
      await unlisten();
    },
  };
}
