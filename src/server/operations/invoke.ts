import type { z } from "zod";
import { AppError, reportUnexpected } from "../errors";
import { tokenRefusal } from "../http/token-rules";
import { actorOf, runAs } from "../plan/access";
import type { Access, AnyOperation, Operation, OperationContext, SignedInContext } from "./define";
import { parseInput } from "./validation";

/**
 * The one entry to an operation, for every adapter (tRPC, the REST facade and its hand-written routes,
 * MCP): who may call it, what a token may do, the input parsed once, the run. An adapter differs only in
 * where the input comes from and how a refusal is worded, which it says with `parse`.
 */

/** Reads and parses the input for the operation's schema; the default parses a value already read. */
export type InputParser = (schema: z.ZodType, input: unknown) => unknown | Promise<unknown>;

/** The access rule: signed in for `user`, an admin for `admin`, and over a WebSocket still signed in. */
export async function checkAccess(access: Access, ctx: OperationContext): Promise<SignedInContext | null> {
  if (access === "public") return null;
  if (!ctx.user || !ctx.sessionId) throw new AppError("UNAUTHORIZED", "Not authenticated");
  await ctx.recheck?.();
  if (access === "admin" && ctx.user.role !== "admin") {
    throw new AppError("FORBIDDEN", "You don't have permission to perform this action.");
  }
  return ctx as SignedInContext;
}

/** Runs an operation for a caller: access, token scope, input, run (and, in tests, the answer's schema). */
export async function invoke<Op extends AnyOperation>(
  op: Op,
  ctx: OperationContext,
  input: unknown,
  parse: InputParser = parseInput,
): Promise<OperationOutput<Op>> {
  await checkAccess(op.access, ctx);
  const refused = tokenRefusal(op, ctx.apiToken ?? undefined);
  if (refused) throw refused;
  const parsed = op.input ? await parse(op.input, input) : undefined;
  // A mutation is a write: a team's viewer is refused it wherever the plan is checked (plan/access.ts).
  const actor = actorOf(ctx.user, ctx.apiToken);
  const out = await runAs(op.type === "mutation", actor, () => op.run(ctx as never, parsed as never));
  if (ctx.deps.config.CHECK_OPERATION_OUTPUTS) checkOutput(op, ctx, out);
  return out as OperationOutput<Op>;
}

export type OperationOutput<Op> =
  Op extends Operation<infer _T, infer _A, infer _S, infer O> ? Awaited<O> : unknown;

/**
 * In tests (CHECK_OPERATION_OUTPUTS), every answer is parsed with its operation's output schema, so the
 * API reference's response bodies are checked by every test that calls the API; a mismatch is a 500.
 */
function checkOutput(op: AnyOperation, ctx: OperationContext, out: unknown) {
  const checked = op.output.safeParse(out);
  if (checked.success) return;
  const err = new Error(`The answer of "${op.summary}" does not match its output schema`);
  reportUnexpected(ctx.log, err, { issues: checked.error.issues.slice(0, 5) });
  throw err;
}
