import type { OperationContext } from "../operations/define";

/**
 * A tRPC call's context: an operation's context (built by operations/context.ts's callerContext, the one
 * builder every adapter uses) and what tRPC itself needs of the request.
 */
export type Context = OperationContext & {
  /** How the caller authenticated: only cookie-authenticated mutations need the CSRF check. */
  authVia: "cookie" | "bearer" | null;
  requestId: string;
  /** Over WebSocket only: state of that one connection (its open subscriptions, its whole-plan calls running). */
  connection?: { subscriptions: number; heavy?: number };
};
