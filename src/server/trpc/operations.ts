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

// ---- the registry as nested procedures ---------------------------------------------------------------

type PathOf<K extends string> = K extends `${infer Head}.${infer Rest}` ? [Head, ...PathOf<Rest>] : [K];
type Nest<P extends string[], V> = P extends [infer Head extends string, ...infer Rest extends string[]]
  ? { [N in Head]: Nest<Rest, V> }
  : V;
type Intersect<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** The registry's groups as nested procedures: `blog.admin.posts` becomes `{ blog: { admin: { posts } } }`. */
export type RegistryProcedures<R extends Record<string, { operations: Record<string, AnyOperation> }>> =
  Intersect<{ [K in keyof R & string]: Nest<PathOf<K>, ProceduresOf<R[K]["operations"]>> }[keyof R & string]>;

export function registryProcedures(registry: OperationRegistry): RegistryProcedures<OperationRegistry> {
  const root: Record<string, unknown> = {};
  for (const [id, group] of Object.entries(registry)) {
    let node = root;
    for (const part of id.split(".")) {
      node[part] ??= {};
      node = node[part] as Record<string, unknown>;
    }
    Object.assign(node, proceduresOf(group.operations));
  }
  return root as RegistryProcedures<OperationRegistry>;
}
