import { initTRPC, TRPCError } from "@trpc/server";
import { TRPC_ERROR_CODES_BY_KEY } from "@trpc/server/rpc";
import superjson from "superjson";
import { ZodError } from "zod";
import { BATCH_COST_MAX, HEAVY_CALL_COST, HEAVY_PROCEDURES } from "../../shared/batch-cost";
import { AppError, reportUnexpected, SERVER_ERROR_MESSAGE } from "../errors";
import { forbiddenInput } from "../lib/forbidden-text";
import { etagOf } from "../lib/shared-answer";
import { checkAccess } from "../operations/invoke";
import { zodFieldErrors } from "../operations/validation";
import type { Context } from "./trpc-context";

// -- init ---------------------------------------------------------------------------------------------
/**
 * superjson, except that a missing input stays missing. Over HTTP tRPC never deserializes an absent
 * input, but a WebSocket message without `params.input` (or with a bare `null`) reached superjson and
 * failed the whole message with its TypeError ("Cannot destructure property 'json'…"). Now a procedure
 * that takes no input just runs, and one that needs an input says so (errorFormatter below).
 */
const transformer = {
  input: {
    serialize: (value: unknown) => superjson.serialize(value),
    deserialize: (payload: unknown) =>
      payload === undefined || payload === null
        ? undefined
        : superjson.deserialize(payload as Parameters<typeof superjson.deserialize>[0]),
  },
  output: {
    // A shared answer (a whole plan's tree, lib/shared-answer.ts) is plain JSON through and through: it
    // goes as superjson's envelope without its walk, which took most of a cached 10,000-node read (issue
    // 39). The client's superjson reads an envelope with no meta as the value itself.
    serialize: (value: unknown) => (etagOf(value) ? { json: value } : superjson.serialize(value)),
    deserialize: (payload: unknown) =>
      superjson.deserialize(payload as Parameters<typeof superjson.deserialize>[0]),
  },
};

/** The input schema refused the input as a whole because there was none. */
const inputMissing = (cause: ZodError, input: unknown) =>
  input === undefined && cause.issues.some((i) => i.path.length === 0 && i.code === "invalid_type");

const t = initTRPC.context<Context>().create({
  transformer,
  isDev: false, // never send stack traces
  errorFormatter({ shape, error, input, path }) {
    const cause = error.cause;
    if (cause instanceof ZodError && path && inputMissing(cause, input)) {
      const detail = `${path} needs an input; none was sent.`;
      return {
        ...shape,
        message: detail,
        data: {
          code: shape.data.code,
          httpStatus: shape.data.httpStatus,
          detail,
          errors: [{ field: "input", message: detail }],
        },
      };
    }
    const errors =
      cause instanceof ZodError
        ? zodFieldErrors(cause)
        : cause instanceof AppError
          ? cause.fieldErrors
          : undefined;
    // Subscriptions can fail outside the middleware chain: an AppError still keeps its own code.
    if (cause instanceof AppError) {
      return {
        ...shape,
        code: TRPC_ERROR_CODES_BY_KEY[cause.code],
        message: cause.message,
        data: {
          code: cause.code,
          httpStatus: cause.status,
          detail: cause.message,
          errors: cause.fieldErrors,
        },
      };
    }
    const detail =
      error.code === "INTERNAL_SERVER_ERROR"
        ? SERVER_ERROR_MESSAGE
        : cause instanceof ZodError
          ? (errors?.[0]?.message ?? "Invalid request. Please check your input.")
          : error.message;
    return {
      ...shape,
      message: detail,
      data: { code: shape.data.code, httpStatus: shape.data.httpStatus, detail, errors },
    };
  },
});

export const router = t.router;

// -- procedures ---------------------------------------------------------------------------------------
/**
 * The one place a procedure's error is mapped: an AppError keeps its code (tRPC's codes have the same
 * names, so the HTTP status follows), and anything unexpected is logged once on the request's logger.
 */
const appErrors = t.middleware(async ({ next, ctx, path }) => {
  const result = await next();
  if (!result.ok) {
    const cause = result.error.cause;
    if (cause instanceof AppError) throw new TRPCError({ code: cause.code, message: cause.message, cause });
    if (result.error.code === "INTERNAL_SERVER_ERROR")
      reportUnexpected(ctx.log, cause ?? result.error, { path });
  }
  return result;
});

/** Whole-plan calls one socket may have running at once: what a batch may cost (shared/batch-cost.ts). */
export const HEAVY_CALLS_PER_SOCKET = BATCH_COST_MAX / HEAVY_CALL_COST;

/**
 * Over HTTP a batch's cost is checked before it runs (app.ts); a WebSocket message's batch reaches the
 * procedures one by one, so the socket counts its whole-plan calls in flight instead, and refuses those
 * past what one batch may cost (issue 39).
 */
async function heavyOnSocket<T>(connection: NonNullable<Context["connection"]>, next: () => Promise<T>) {
  if ((connection.heavy ?? 0) >= HEAVY_CALLS_PER_SOCKET) {
    throw new AppError(
      "BAD_REQUEST",
      `Too many whole-plan reads at once on one connection (at most ${HEAVY_CALLS_PER_SOCKET}): send the next when one is answered.`,
    );
  }
  connection.heavy = (connection.heavy ?? 0) + 1;
  try {
    return await next();
  } finally {
    connection.heavy -= 1;
  }
}

/**
 * Limits every call, over HTTP and WebSocket alike: the batch size (a WebSocket message can be a batch
 * too), NUL characters anywhere in the input (PostgreSQL text refuses them) or nesting too deep to
 * look through (lib/forbidden-text.ts), and the number of open subscriptions on one socket.
 */
const edgeLimits = t.middleware(async ({ ctx, next, type, path, batchIndex, getRawInput, signal }) => {
  const maxBatch = ctx.deps.config.TRPC_MAX_BATCH_SIZE;
  if (batchIndex >= maxBatch) {
    throw new AppError("BAD_REQUEST", `Too many procedures in one batch (at most ${maxBatch}).`);
  }
  const forbidden = forbiddenInput(await getRawInput());
  if (forbidden) {
    throw new AppError("UNPROCESSABLE_CONTENT", forbidden, {
      fieldErrors: [{ field: "input", message: forbidden }],
    });
  }
  const connection = ctx.connection;
  if (connection && HEAVY_PROCEDURES.has(path)) return heavyOnSocket(connection, next);
  if (type !== "subscription" || !connection) return next();
  const max = ctx.deps.config.WS_MAX_SUBSCRIPTIONS_PER_SOCKET;
  if (connection.subscriptions >= max) {
    throw new AppError("TOO_MANY_REQUESTS", `Too many subscriptions on one connection (at most ${max}).`);
  }
  connection.subscriptions++;
  let released = false;
  const release = () => {
    if (!released) connection.subscriptions--;
    released = true;
  };
  // A subscription ends by a stop or a closed socket (the signal), by finishing, or by failing.
  signal?.addEventListener("abort", release, { once: true });
  const result = await next();
  if (!result.ok) {
    release();
    return result;
  }
  const iterable = result.data as AsyncIterable<unknown>;
  if (typeof iterable?.[Symbol.asyncIterator] !== "function") return result;
  async function* counted() {
    try {
      yield* iterable;
    } finally {
      release();
    }
  }
  return { ...result, data: counted() };
});

export const publicProcedure = t.procedure.use(appErrors).use(edgeLimits);

/**
 * For the hand-written procedures (subscriptions, system): the access rule of operations/invoke.ts, which
 * the declared operations go through too. Over a WebSocket it re-checks that the session (or API token)
 * still exists, so nothing runs after a logout, a revocation or an expiry.
 */
export const protectedProcedure = publicProcedure.use(async ({ ctx, next }) => {
  const signedIn = (await checkAccess("user", ctx))!;
  return next({ ctx: { ...ctx, user: signedIn.user, sessionId: signedIn.sessionId } });
});
