import type { TRPCMutationProcedure, TRPCQueryProcedure } from "@trpc/server";
import type { z } from "zod";
import { type AnyOperation, type Operation, type OperationContext, tokenRefusal } from "../operations/define";
import type { Context } from "./context";
import { adminProcedure, protectedProcedure, publicProcedure } from "./init";

type ProcedureInput<S> = S extends z.ZodType ? z.input<S> : undefined;

/** The tRPC procedure type an operation becomes, so the SPA's AppRouter keeps exact input and output types. */
export type ProcedureOf<Op> =
  Op extends Operation<infer T, infer _A, infer S, infer O>
    ? T extends "query"
      ? TRPCQueryProcedure<{ input: ProcedureInput<S>; output: Awaited<O>; meta: object }>
      : TRPCMutationProcedure<{ input: ProcedureInput<S>; output: Awaited<O>; meta: object }>
    : never;

function operationContext(ctx: Context): OperationContext {
  return {
    deps: ctx.deps,
    user: ctx.user,
    sessionId: ctx.sessionId,
    apiToken: ctx.apiToken ?? null,
    meta: ctx.meta,
    log: ctx.log,
    refreshCookie: ctx.refreshCookie,
    setCookies: ctx.setCookies,
  };
}

/** One procedure from one operation: its access level's middleware, its input schema, its handler. */
export function procedureOf<Op extends AnyOperation>(op: Op): ProcedureOf<Op> {
  const base =
    op.access === "admin" ? adminProcedure : op.access === "user" ? protectedProcedure : publicProcedure;
  // The token rule before the input is read, as the REST facade does: a read token gets "read-only"
  // whatever it sent, not a validation error.
  const allowed = base.use(({ ctx, next }) => {
    const refused = tokenRefusal(op, ctx.apiToken ?? undefined);
    if (refused) throw refused;
    return next();
  });
  const withInput = op.input ? allowed.input(op.input) : allowed;
  const resolve = ({ ctx, input }: { ctx: Context; input: unknown }) =>
    op.run(operationContext(ctx) as never, input as never);
  const procedure = op.type === "query" ? withInput.query(resolve) : withInput.mutation(resolve);
  return procedure as unknown as ProcedureOf<Op>;
}

/** A router's worth of procedures from a record of operations (the record's keys are the procedure names). */
export function proceduresOf<T extends Record<string, AnyOperation>>(ops: T) {
  const entries = Object.entries(ops).map(([name, op]) => [name, procedureOf(op)]);
  return Object.fromEntries(entries) as unknown as { [K in keyof T]: ProcedureOf<T[K]> };
}
