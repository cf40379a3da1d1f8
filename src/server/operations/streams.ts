import { z } from "zod";
import { EXPORT_KINDS } from "../../shared/schemas/integrations";
import type { PlanViewer, RealtimeEvent } from "../../shared/schemas/realtime";
import { taskId } from "../../shared/schemas/tasks";
import { AppError } from "../errors";
import type { BusEvent } from "../events/event-bus";
import { type Actor, actorOf } from "../plan/access";
import { getOwnedRow } from "../plan/owned";
import { getOwnedExport } from "../services/exports/get-owned-export";
import { exportMessages } from "../services/exports/messages";
import type { ExportRow } from "../services/exports/tracker";
import { taskEventStream } from "../services/tasks/task-event-stream";
import { toClient } from "../services/tasks/to-client";
import { teamIdsOf } from "../services/teams/team-ids-of";
import type { SignedInContext } from "./define";
import { checkAccess, type InputParser } from "./invoke";
import { parseInput } from "./validation";

/**
 * The live streams a client can watch, each declared once: who may watch it, its input, and where its
 * messages come from. Each is served twice, as a tRPC subscription (trpc/routers/realtime.ts,
 * trpc/routers/exports.ts) and as a raw `/ws/...` channel of the product's contract
 * (realtime/channels.ts); only the framing differs.
 */
export type StreamDeclaration<S extends z.ZodType, O> = {
  summary: string;
  input: S;
  /** Checks that the caller may watch it (NOT_FOUND otherwise) and opens it; ends when `signal` aborts. */
  open: (ctx: SignedInContext, input: z.output<S>, signal: AbortSignal) => Promise<O>;
};

/** The events a reconnecting client has seen: the stream resumes after the last one. */
const resumable = z.object({ lastEventId: z.string().regex(/^\d+$/).nullish() });
/** Events a stream sends first, when the client has seen none. */
const HISTORY_LIMIT = 100;

/** Task events: the stored history, then live ones (services/tasks/events.ts). */
export type TaskEventsStream = {
  /** The task the client asked for, and the tree it belongs to; null for every task of the caller. */
  taskId: string | null;
  rootTaskId: string | null;
  events: AsyncIterable<{ history: RealtimeEvent[] } | { live: RealtimeEvent }>;
};

/** The events as clients see them (the owner's id stays on the server). */
async function* forClients(events: AsyncIterable<{ history: BusEvent[] } | { live: BusEvent }>) {
  for await (const item of events) {
    yield "history" in item ? { history: item.history.map(toClient) } : { live: toClient(item.live) };
  }
}

const afterOf = (input: z.output<typeof resumable> | undefined) =>
  input?.lastEventId ? Number(input.lastEventId) : undefined;

const stream = <S extends z.ZodType, O>(d: StreamDeclaration<S, O>) => d;

export const streams = {
  userEvents: stream({
    summary: "Every event of the caller's tasks and of their teams' plans.",
    input: resumable.optional(),
    open: async (ctx, input, signal): Promise<TaskEventsStream> => ({
      taskId: null,
      rootTaskId: null,
      events: forClients(
        taskEventStream(
          ctx.deps,
          { userId: ctx.user.id, teamIds: await teamIdsOf(ctx.deps, ctx.user.id) },
          { afterId: afterOf(input), historyLimit: HISTORY_LIMIT },
          signal,
        ),
      ),
    }),
  }),
  taskEvents: stream({
    summary: "The events of one task tree; another user's task is NOT_FOUND.",
    input: resumable.extend({ taskId }),
    open: async (ctx, input, signal): Promise<TaskEventsStream> => {
      const row = await getOwnedRow(ctx.deps, ctx.user.id, input.taskId);
      const rootTaskId = row.rootTaskId ?? row.id;
      return {
        taskId: row.id,
        rootTaskId,
        events: forClients(
          taskEventStream(
            ctx.deps,
            // Seen as a member of its team (not as its creator): the channel ends if they leave it.
            { userId: ctx.user.id, rootTaskId, planTeam: row.userId === ctx.user.id ? null : row.teamId },
            { afterId: afterOf(input), historyLimit: HISTORY_LIMIT },
            signal,
          ),
        ),
      };
    },
  }),
  planPresence: stream({
    summary:
      "Who has the plan open now (the caller among them while it is open); another user's plan is NOT_FOUND.",
    input: z.strictObject({ taskId, lastEventId: z.string().max(50).nullish() }),
    open: async (ctx, input, signal): Promise<AsyncIterable<PlanViewer[]>> => {
      const row = await getOwnedRow(ctx.deps, ctx.user.id, input.taskId, "read");
      const actor = actorOf(ctx.user, ctx.apiToken)!;
      return presenceOf(ctx.deps, row.rootTaskId ?? row.id, actor, signal);
    },
  }),
  exportEvents: stream({
    summary: "An export's messages: its current state first, then live progress.",
    // lastEventId: the client's wsLink adds it on reconnect; the stream restarts from the current state anyway.
    input: z.strictObject({
      id: z.string().trim().min(1).max(100),
      lastEventId: z.string().max(50).nullish(),
      /** The raw channels name the kind in their path: an export of another kind is not found. */
      kind: z.enum(EXPORT_KINDS).optional(),
    }),
    open: async (ctx, input, signal) => {
      const row: ExportRow = await getOwnedExport(ctx.deps, ctx.user.id, input.id);
      if (input.kind && row.kind !== input.kind) throw new AppError("NOT_FOUND", "Export not found");
      return exportMessages(ctx.deps, row, signal);
    },
  }),
};

/** The viewers of a plan whenever they change, with the caller among them until `signal` aborts. */
async function* presenceOf(
  deps: SignedInContext["deps"],
  plan: string,
  actor: Actor,
  signal: AbortSignal,
): AsyncGenerator<PlanViewer[]> {
  let latest: PlanViewer[] | null = null;
  let wake: (() => void) | null = null;
  const viewer = { user_id: actor.userId, name: actor.name, agent: actor.agent };
  const leave = await deps.presence.join(plan, viewer, (viewers) => {
    latest = viewers;
    wake?.();
  });
  const onAbort = () => wake?.();
  signal.addEventListener("abort", onAbort);
  try {
    while (!signal.aborted) {
      if (!latest) {
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = null;
        continue;
      }
      const now: PlanViewer[] = latest;
      latest = null;
      yield now;
    }
  } finally {
    signal.removeEventListener("abort", onAbort);
    leave();
  }
}

/** Opens a stream for a caller: the access rule of operations (invoke.ts), the input parsed once, then open. */
export async function openStream<S extends z.ZodType, O>(
  stream: StreamDeclaration<S, O>,
  ctx: Parameters<typeof checkAccess>[1],
  input: unknown,
  signal: AbortSignal,
  parse: InputParser = parseInput,
): Promise<O> {
  const signedIn = (await checkAccess("user", ctx))!;
  return stream.open(signedIn, (await parse(stream.input, input)) as z.output<S>, signal);
}
