import type { z } from "zod";
import type { Deps } from "../deps";
import type { Logger } from "../lib/logger";
import type { ApiTokenUse, SessionMeta, UserRow } from "../services/auth/sessions";

/**
 * One operation of the API, declared once: who may call it, its input schema (from src/shared), the
 * service call, and where it lives under /api. The tRPC procedure (trpc/operations.ts), the REST route
 * (rest/operations.ts), the MCP tools (mcp/server.ts) and the OpenAPI description (openapi/document.ts)
 * are all built from it. Every adapter calls it through `invoke` (operations/invoke.ts): access, token
 * scope, input parsed exactly once, run. See docs/recipes/add-an-operation.md.
 */

export type Access = "public" | "user" | "admin";
export type HttpMethod = "get" | "post" | "put" | "patch" | "delete";

/** What a handler may use of the request, whichever adapter it came through. */
export type OperationContext = {
  deps: Deps;
  user: UserRow | null;
  sessionId: string | null;
  /** The personal access token the caller used (a script, the CLI, a coding agent), if any. */
  apiToken: ApiTokenUse | null;
  meta: SessionMeta;
  log: Logger;
  /** The refresh-token cookie, when the browser sent one. */
  refreshCookie: string | null;
  /** Adds Set-Cookie headers to the HTTP response; null over WebSocket, where no response exists. */
  setCookies: ((cookies: string[]) => void) | null;
  /**
   * Over a WebSocket, which keeps the context of its handshake: checks that the session (or API token)
   * still exists, before every call that needs one. Null over HTTP, where every request is authenticated.
   */
  recheck: (() => Promise<void>) | null;
};

export type SignedInContext = OperationContext & { user: UserRow; sessionId: string };
export type ContextFor<A extends Access> = A extends "public" ? OperationContext : SignedInContext;

/** Where a REST route finds the input besides its path fields. */
export type RestInputSource =
  /** the JSON body, merged with the path fields */
  | "body"
  /** the JSON body, placed under this input field (tRPC's `{ id, updates }`) */
  | { bodyKey: string }
  /** the query string */
  | "query"
  /** the query string over the JSON body (a link may carry the value, a client may post it) */
  | "query+body"
  /** nothing but the path fields and `fixed` */
  | "none";

/** 204 answers with no body (the handler returns nothing). */
export type SuccessStatus = 200 | 201 | 202 | 204;

export type RestRoute<O> = {
  method: HttpMethod;
  /** The path under /api in OpenAPI form: each `{name}` fills the input field of that name. */
  path: string;
  from?: RestInputSource;
  /** Input fields this route sets itself (one operation behind several paths). */
  fixed?: Record<string, unknown>;
  /** Path segments that choose nothing but must be valid (checked, not passed on). */
  pathOnly?: Record<string, z.ZodType>;
  /** The success status; 200 unless given. */
  status?: SuccessStatus;
  /** How the REST facade shapes the result, where its contract differs from the procedure's. */
  respond?: (out: O) => unknown;
  /** The REST body's schema where `respond` reshapes the answer (the API reference describes it). */
  output?: z.ZodType;
  /** Overrides the OpenAPI summary for this path (e.g. the Trello variant of a shared operation). */
  summary?: string;
};

export type Operation<
  T extends "query" | "mutation" = "query" | "mutation",
  A extends Access = Access,
  S extends z.ZodType | undefined = z.ZodType | undefined,
  O = unknown,
> = {
  type: T;
  access: A;
  /** One line for the API reference. */
  summary: string;
  /** Absent when the operation takes no input. */
  input: S;
  /** The answer's schema (the API reference's); the handler's return type is bound to it (Declaration). */
  output: z.ZodType;
  run: (ctx: ContextFor<A>, input: InputOf<S>) => O | Promise<O>;
  /** Absent for procedures the SPA alone uses (nothing in the REST facade). */
  rest?: RestRoute<Awaited<O>>[];
  /** Needs a signed-in session: a personal access token is refused (token management itself). */
  sessionOnly?: boolean;
};

export type InputOf<S> = S extends z.ZodType ? z.output<S> : undefined;
/** Any operation, whatever its types: what the adapters iterate over (they only pass values through). */
export type AnyOperation = {
  type: "query" | "mutation";
  access: Access;
  summary: string;
  input: z.ZodType | undefined;
  output: z.ZodType;
  run: (ctx: never, input: never) => unknown;
  rest?: RestRoute<never>[];
  sessionOnly?: boolean;
};

type Declaration<A extends Access, S extends z.ZodType | undefined, O, Out extends z.ZodType> = {
  access: A;
  summary: string;
  input?: S;
  /**
   * The answer's schema: the API reference's, and the handler's return type is bound to it at compile
   * time (what `run` returns must be what the schema takes, as tRPC's `.output()` binds it).
   */
  output: Out;
  run: (ctx: ContextFor<A>, input: InputOf<S>) => O | Promise<O>;
  rest?: RestRoute<Awaited<O>>[];
  sessionOnly?: boolean;
};

/** A read: a tRPC query, usually a GET. */
export function query<
  A extends Access,
  Out extends z.ZodType,
  O extends z.input<Out>,
  S extends z.ZodType | undefined = undefined,
>(d: Declaration<A, S, O, Out>): Operation<"query", A, S, O> {
  return { ...d, type: "query", input: d.input as S };
}

/** A change: a tRPC mutation, usually a POST, PATCH, PUT or DELETE. */
export function mutation<
  A extends Access,
  Out extends z.ZodType,
  O extends z.input<Out>,
  S extends z.ZodType | undefined = undefined,
>(d: Declaration<A, S, O, Out>): Operation<"mutation", A, S, O> {
  return { ...d, type: "mutation", input: d.input as S };
}

/**
 * The API reference's entry for a route that is not an operation (a redirect, an HTML page, a file
 * upload): such routes are written by hand in rest/, and each one documents itself here.
 */
export type RouteDoc = {
  method: HttpMethod;
  path: string;
  tag: string;
  summary: string;
  access?: Access;
  /** Query parameters, all optional strings. */
  query?: string[];
  /** A multipart/form-data body with these file fields. */
  files?: string[];
  /** Status -> what the answer is. */
  responses: Record<string, string>;
};
