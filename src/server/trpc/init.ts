import { initTRPC, TRPCError } from "@trpc/server";
import { TRPC_ERROR_CODES_BY_KEY } from "@trpc/server/rpc";
import superjson from "superjson";
import { ZodError } from "zod";
import { AppError } from "../errors";
import { zodFieldErrors } from "../services/validation";
import type { Context } from "./context";

// -- init ---------------------------------------------------------------------------------------------
const t = initTRPC.context<Context>().create({
  transformer: superjson,
  isDev: false, // never send stack traces
  errorFormatter({ shape, error }) {
    const cause = error.cause;
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
        ? "Server error. Please try again later."
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
export const createCallerFactory = t.createCallerFactory;

// -- procedures ---------------------------------------------------------------------------------------
/** Maps the services' AppError to the matching tRPC code once, for every procedure. */
const appErrors = t.middleware(async ({ next, ctx, path }) => {
  const result = await next();
  if (!result.ok) {
    const cause = result.error.cause;
    if (cause instanceof AppError) {
      throw new TRPCError({ code: cause.code, message: cause.message, cause });
    }
    if (result.error.code === "INTERNAL_SERVER_ERROR") {
      ctx.deps.log.error("procedure failed", { path, requestId: ctx.requestId, err: cause ?? result.error });
    }
  }
  return result;
});

export const publicProcedure = t.procedure.use(appErrors);

export const protectedProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.user || !ctx.sessionId)
    throw new TRPCError({ code: "UNAUTHORIZED", message: "Not authenticated" });
  return next({ ctx: { ...ctx, user: ctx.user, sessionId: ctx.sessionId } });
});

export const adminProcedure = protectedProcedure.use(({ ctx, next }) => {
  if (ctx.user.role !== "admin") {
    throw new TRPCError({ code: "FORBIDDEN", message: "You don't have permission to perform this action." });
  }
  return next({ ctx });
});
