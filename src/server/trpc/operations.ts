import { TRPCError, type TRPCMutationProcedure, type TRPCQueryProcedure } from "@trpc/server";
import type { z } from "zod";
import type { OperationRegistry } from "../operations/all";
import type { AnyOperation, Operation } from "../operations/define";
import { type InputParser, invoke } from "../operations/invoke";
import { publicProcedure } from "./init";
import type { Context } from "./trpc-context";

type ProcedureInput<S> = S extends z.ZodType ? z.input<S> : undefined;

/** The tRPC procedure type an operation becomes, so the SPA's AppRouter keeps exact input and output types. */
export type ProcedureOf<Op> =
  Op extends Operation<infer T, infer _A, infer S, infer O>
    ? T extends "query"
      ? TRPCQueryProcedure<{ input: ProcedureInput<S>; output: Awaited<O>; meta: object }>
      : TRPCMutationProcedure<{ input: ProcedureInput<S>; output: Awaited<O>; meta: object }>
    : never;

export type ProceduresOf<T extends Record<string, AnyOperation>> = { [K in keyof T]: ProcedureOf<T[K]> };

/** A refused input as tRPC reports its own: BAD_REQUEST with the ZodError (trpc/init.ts formats it). */
export const trpcParse: InputParser = (schema, input) => {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw new TRPCError({ code: "BAD_REQUEST", cause: parsed.error });
  return parsed.data;
};

/**
 * One procedure from one operation. The procedure takes its input as sent and hands it to `invoke`
 * (operations/invoke.ts), which checks access and the token rule before the input is read, parses it,
 * and runs the operation: the same steps, in the same order, as every other adapter.
 */
export function procedureOf<Op extends AnyOperation>(op: Op): ProcedureOf<Op> {
  const asSent = publicProcedure.input((raw: unknown) => raw);
  const resolve = ({ ctx, input }: { ctx: Context; input: unknown }) => invoke(op, ctx, input, trpcParse);
  const procedure = op.type === "query" ? asSent.query(resolve) : asSent.mutation(resolve);
  return procedure as unknown as ProcedureOf<Op>;
}

/** A router's worth of procedures from a record of operations (the record's keys are the procedure names). */
export function proceduresOf<T extends Record<string, AnyOperation>>(ops: T): ProceduresOf<T> {
  const entries = Object.entries(ops).map(([name, op]) => [name, procedureOf(op)]);
  return Object.fromEntries(entries) as unknown as ProceduresOf<T>;
}

/** One group of the registry (operations/all.ts) as procedures, exactly typed. */
export function groupProcedures<K extends keyof OperationRegistry>(
  registry: OperationRegistry,
  id: K,
): ProceduresOf<OperationRegistry[K]["operations"]> {
  return proceduresOf(registry[id].operations);
}
