/**
 * The one kit every fake HTTP service in tests/fakes sits on, so each fake holds only what its service
 * does: listening on loopback and closing (the SMTP fake uses that part too), a router, one body reader,
 * failure modes and a request log, the same for all of them.
 *
 * - `startFakeServer` listens on 127.0.0.1 (an ephemeral port unless one is given); `close()` cuts open
 *   sockets, idle keep-alive ones included, and ends pending delays, so a test's teardown never waits.
 * - `Router`: method + path pattern (`/rest/api/3/issue/:key`, `/repositories/:id(\d+)`, `/1/cards*`).
 *   A path no route knows is the fake's `notFound` answer; a known path with another method its
 *   `methodNotAllowed` answer (or `notFound`, as most services do).
 * - The body is read before anything else (so the log always has it), up to `bodyLimit`; handlers ask
 *   for it as raw bytes, text, JSON or a form. An over-limit body or malformed JSON throws the error the
 *   fake supplies, so it is answered in the service's own shape at the point the service would notice.
 * - `faults`, armed by tests (or by a fake's own `setMode`) for the next N requests matching a method
 *   and path pattern: fail with a status, headers and body; delay; drop the connection unanswered; or
 *   handle the request and lose the answer (the write happens, the client gets a socket error).
 * - `log`: every request (method, path, query, headers, parsed body, status, arrival time).
 *
 * Sources. The kit stands for no one service, so it holds none of a service's rules: each fake's own
 * header names the documentation or OpenAPI description its answers follow (GitHub's REST reference and
 * rate-limit rules, Atlassian's JIRA v3 and Confluence v2 OpenAPI documents, Trello's OpenAPI and
 * rate-limit guide, OpenAI's API reference, Google's OpenID Connect discovery, Ollama's API reference,
 * RFC 5321 for SMTP). What the kit itself does is plain HTTP as RFC 9110 (HTTP Semantics) defines it: 404
 * for an unknown target (section 15.5.5), 405 only where a fake says its service sends it, since most of
 * these services answer an unsupported method with 404 (15.5.6), 413 for a body over the limit (15.5.14).
 * A lost answer and a dropped connection follow RFC 9110 section 9.2.2: a client can't tell whether a
 * non-idempotent request that got no answer was applied, which is the case the exporters must survive.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Server, Socket } from "node:net";

// ---------------------------------------------------------------------------------------------
// Listening and closing

export type Loopback = {
  /** The host as written in a URL (an IPv6 address in brackets). */
  host: string;
  port: number;
  /** Waits `ms`, or less when close() comes first, so a held request never outlives the fake. */
  delay(ms: number): Promise<void>;
  /** Refuses new connections, destroys open ones (idle keep-alive ones too) and ends pending delays. */
  close(): Promise<void>;
};

/** Listens on a loopback port (0 = any free one) and remembers sockets so close() can cut them. */
export async function listenOnLoopback(
  server: Server,
  opts: { host?: string; port?: number } = {},
): Promise<Loopback> {
  const host = opts.host ?? "127.0.0.1";
  const sockets = new Set<Socket>();
  const pending = new Set<() => void>();
  let closing: Promise<void> | undefined;
  server.on("connection", (socket: Socket) => {
    if (closing) {
      socket.destroy();
      return;
    }
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    host: host.includes(":") ? `[${host}]` : host,
    port,
    delay: (ms) =>
      new Promise<void>((resolve) => {
        if (closing || ms <= 0) return resolve();
        const done = () => {
          clearTimeout(timer);
          pending.delete(done);
          resolve();
        };
        const timer = setTimeout(done, ms);
        pending.add(done);
      }),
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
        for (const done of [...pending]) done();
      });
      return closing;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Replies

/** What a handler answers; header names are case-insensitive (sent in lower case). */
export type Reply = { status: number; headers?: Record<string, string>; body?: string | Buffer };

/** Thrown (by a handler, or by the body reader for a fake without error types of its own) to answer with `reply`. */
export class ReplyError extends Error {
  constructor(readonly reply: Reply) {
    super(`HTTP ${reply.status}`);
  }
}

/** Later headers win, whatever the case of their names. */
export function mergeHeaders(...parts: Array<Record<string, string> | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of parts)
    for (const [name, value] of Object.entries(part ?? {})) out[name.toLowerCase()] = value;
  return out;
}

/** `reply` with `headers` added under its own (the reply's win). */
export const withHeaders = (reply: Reply, headers: Record<string, string>): Reply => ({
  ...reply,
  headers: mergeHeaders(headers, reply.headers),
});

/** JSON, `application/json; charset=utf-8` unless `headers` names another content type. */
export const jsonReply = (status: number, value: unknown, headers?: Record<string, string>): Reply => ({
  status,
  headers: mergeHeaders({ "content-type": "application/json; charset=utf-8" }, headers),
  body: JSON.stringify(value),
});

/** Text, `text/plain; charset=utf-8` unless `headers` names another content type. */
export const textReply = (status: number, text: string, headers?: Record<string, string>): Reply => ({
  status,
  headers: mergeHeaders({ "content-type": "text/plain; charset=utf-8" }, headers),
  body: text,
});

/** `application/json; charset=utf-8` -> `application/json`. */
export const mediaType = (contentType: string | undefined): string =>
  (contentType ?? "").split(";")[0]!.trim().toLowerCase();

// ---------------------------------------------------------------------------------------------
// Routing

type PathMatcher = (path: string) => Record<string, string> | null;

const decode = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/**
 * `:name` is one non-empty segment, `:name(regex)` one matching `regex` (which may span slashes; no
 * groups inside), `*` any rest, even empty (param "*"). Params arrive percent-decoded.
 */
export function pathMatcher(pattern: string): PathMatcher {
  const names: string[] = [];
  let source = "";
  let last = 0;
  for (const m of pattern.matchAll(/:(\w+)(?:\(([^)]*)\))?|\*/g)) {
    source += escapeRegExp(pattern.slice(last, m.index));
    names.push(m[1] ?? "*");
    source += m[0] === "*" ? "(.*)" : `(${m[2] ?? "[^/]+"})`;
    last = m.index + m[0].length;
  }
  const re = new RegExp(`^${source}${escapeRegExp(pattern.slice(last))}$`);
  return (path) => {
    const m = re.exec(path);
    return m ? Object.fromEntries(names.map((name, i) => [name, decode(m[i + 1] ?? "")])) : null;
  };
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** `undefined`: no answer (the connection stays open until the client or close() ends it). */
export type Handler<C> = (
  ctx: C,
  params: Record<string, string>,
) => Reply | undefined | Promise<Reply | undefined>;

/** Routes in the order added; the first whose method and pattern match handles the request. */
export class Router<C = FakeRequest> {
  private readonly routes: Array<{ method: string; match: PathMatcher; handler: Handler<C> }> = [];

  on(method: string, pattern: string, handler: Handler<C>): this {
    this.routes.push({ method, match: pathMatcher(pattern), handler });
    return this;
  }
  get(pattern: string, handler: Handler<C>) {
    return this.on("GET", pattern, handler);
  }
  post(pattern: string, handler: Handler<C>) {
    return this.on("POST", pattern, handler);
  }
  put(pattern: string, handler: Handler<C>) {
    return this.on("PUT", pattern, handler);
  }
  delete(pattern: string, handler: Handler<C>) {
    return this.on("DELETE", pattern, handler);
  }

  /** The handler, or the methods the path does allow (empty: no route knows the path). */
  match(
    method: string,
    path: string,
  ): { handler: Handler<C>; params: Record<string, string> } | { allowed: string[] } {
    const allowed: string[] = [];
    for (const route of this.routes) {
      const params = route.match(path);
      if (!params) continue;
      if (route.method === method) return { handler: route.handler, params };
      if (!allowed.includes(route.method)) allowed.push(route.method);
    }
    return { allowed };
  }
}

// ---------------------------------------------------------------------------------------------
// Requests, the log and faults

export type LoggedRequest = {
  method: string;
  /** The pathname as received. */
  path: string;
  /** The query string with its "?", or "". */
  search: string;
  headers: IncomingHttpHeaders;
  /** JSON value, form fields (repeated ones as arrays) or text, by content type; undefined when empty or over the limit. */
  body: unknown;
  /** 0 until answered, and for requests never answered (dropped, answer lost, held). */
  status: number;
  /** `Date.now()` when the request arrived. */
  at: number;
};

export type FakeRequest = {
  method: string;
  url: URL;
  /** The pathname routes and faults match (trailing slashes dropped when the server ignores them). */
  path: string;
  headers: IncomingHttpHeaders;
  remoteAddress: string;
  log: LoggedRequest;
  /** The body; throws the fake's `tooLarge` error past `bodyLimit`. */
  raw(): Buffer;
  text(): string;
  /** Strict JSON.parse of the body (empty is malformed); throws `onMalformed(detail)` or the fake's `malformedJson` error. */
  json(onMalformed?: (detail: string) => unknown): unknown;
  form(): URLSearchParams;
  /** Resolves once the response is done or the connection is gone. */
  closed: Promise<void>;
  /** The client left, or close() cut the connection: nothing can be answered any more. */
  gone(): boolean;
};

/**
 * Which requests a fault applies to, and how many (default: every one until `clear()`); `after`: the first
 * N matching requests pass untouched, so a test can break a flow at an exact point without racing it.
 */
export type FaultTarget = { method?: string; path?: string; times?: number; after?: number };

export type Faults = {
  /** Answer with `reply` (built per request when a function) instead of handling the request. */
  fail(target: FaultTarget, reply: Reply | ((req: FakeRequest) => Reply)): void;
  /** Wait `ms`, then handle the request as usual (unless the client left meanwhile). */
  delay(target: FaultTarget, ms: number): void;
  /** Destroy the connection without handling the request. */
  drop(target?: FaultTarget): void;
  /** Handle the request (its writes happen), then destroy the connection instead of answering. */
  loseAnswer(target?: FaultTarget): void;
  clear(): void;
};

type FaultAction =
  | { kind: "fail"; reply: Reply | ((req: FakeRequest) => Reply) }
  | { kind: "delay"; ms: number }
  | { kind: "drop" }
  | { kind: "lose" };
type Fault = FaultAction & { method?: string; match: PathMatcher | null; left: number; skip: number };

function faultList() {
  let armed: Fault[] = [];
  const arm = (target: FaultTarget = {}, action: FaultAction) => {
    const left = target.times ?? Number.POSITIVE_INFINITY;
    if (left <= 0) return;
    armed.push({
      ...action,
      method: target.method,
      match: target.path ? pathMatcher(target.path) : null,
      left,
      skip: target.after ?? 0,
    });
  };
  const faults: Faults = {
    fail: (target, reply) => arm(target, { kind: "fail", reply }),
    delay: (target, ms) => arm(target, { kind: "delay", ms }),
    drop: (target) => arm(target, { kind: "drop" }),
    loseAnswer: (target) => arm(target, { kind: "lose" }),
    clear: () => {
      armed = [];
    },
  };
  /** The first armed fault for this request, one of its `times` spent. */
  const take = (req: FakeRequest): FaultAction | null => {
    const fault = armed.find(
      (f) => (f.method === undefined || f.method === req.method) && (f.match === null || f.match(req.path)),
    );
    if (!fault) return null;
    if (fault.skip > 0) {
      fault.skip--;
      return null;
    }
    fault.left--;
    if (fault.left <= 0) armed = armed.filter((f) => f !== fault);
    return fault;
  };
  return { faults, take };
}

function formFields(params: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const name of new Set(params.keys())) {
    const values = params.getAll(name);
    out[name] = values.length === 1 ? values[0]! : values;
  }
  return out;
}

function bodyForLog(bytes: Buffer, contentType: string | undefined): unknown {
  if (bytes.length === 0) return undefined;
  const text = bytes.toString("utf8");
  const type = mediaType(contentType);
  if (type === "application/json") {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  if (type === "application/x-www-form-urlencoded") return formFields(new URLSearchParams(text));
  return text;
}

/** Reads the whole body; past `limit` it keeps draining (so an answer can still be read) but keeps nothing. */
async function readBody(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size <= limit) chunks.push(chunk as Buffer);
  }
  return size > limit ? null : Buffer.concat(chunks);
}

// ---------------------------------------------------------------------------------------------
// The server

export type FakeServerOptions<C> = {
  host?: string;
  /** Default 0: any free port. */
  port?: number;
  routes: Router<C>;
  /** "ignore": `/a/b/` routes (and matches faults) as `/a/b`. Default "strict". */
  trailingSlash?: "strict" | "ignore";
  /** Largest body kept, in bytes (default 1 MiB). */
  bodyLimit?: number;
  notFound(req: FakeRequest): Reply;
  /** Absent: a known path with another method is `notFound`. */
  methodNotAllowed?(req: FakeRequest, allowed: string[]): Reply;
  /** The error a body read throws past `bodyLimit` (default: a plain-text 413). */
  tooLarge?(req: FakeRequest): unknown;
  /** The error `json()` throws for a malformed body (default: a plain-text 400). */
  malformedJson?(req: FakeRequest, detail: string): unknown;
  /**
   * Runs around routing, for what the service does before it looks at the path (auth, rate limits,
   * headers of every answer); `route(ctx)` dispatches with the fake's own context. Default: the request
   * is the context.
   */
  handle?(req: FakeRequest, route: (ctx: C) => Promise<Reply | undefined>): Promise<Reply | undefined>;
  /** The answer to an error thrown by a handler (default: a ReplyError's reply, else a plain-text 500). */
  onError?(err: unknown, req: FakeRequest): Reply;
  /** Headers on every answer (fault replies included), under the reply's own. */
  replyHeaders?(req: FakeRequest): Record<string, string>;
};

export type FakeServer = {
  /** The origin, e.g. http://127.0.0.1:PORT. */
  url: string;
  log: LoggedRequest[];
  faults: Faults;
  /** Requests received and not yet answered or gone. */
  readonly inFlight: number;
  /** The highest `inFlight` so far. */
  readonly maxInFlight: number;
  /** A delay that close() cuts short. */
  delay(ms: number): Promise<void>;
  close(): Promise<void>;
};

export async function startFakeServer<C = FakeRequest>(opts: FakeServerOptions<C>): Promise<FakeServer> {
  const bodyLimit = opts.bodyLimit ?? 1024 * 1024;
  const log: LoggedRequest[] = [];
  const { faults, take } = faultList();
  let inFlight = 0;
  let maxInFlight = 0;
  let origin = "";

  const tooLarge = (req: FakeRequest) =>
    opts.tooLarge ? opts.tooLarge(req) : new ReplyError(textReply(413, "request body too large"));
  const malformedJson = (req: FakeRequest, detail: string) =>
    opts.malformedJson
      ? opts.malformedJson(req, detail)
      : new ReplyError(textReply(400, `malformed JSON: ${detail}`));
  const onError = (err: unknown, req: FakeRequest): Reply => {
    if (opts.onError) return opts.onError(err, req);
    return err instanceof ReplyError ? err.reply : textReply(500, `fake server failure: ${String(err)}`);
  };

  function send(res: ServerResponse, req: FakeRequest, reply: Reply) {
    if (res.headersSent || req.gone()) return;
    const headers = mergeHeaders(opts.replyHeaders?.(req), reply.headers);
    if (reply.body !== undefined) headers["content-length"] = String(Buffer.byteLength(reply.body));
    req.log.status = reply.status;
    res.writeHead(reply.status, headers);
    res.end(reply.body);
  }

  async function serve(incoming: IncomingMessage, res: ServerResponse) {
    const url = new URL(incoming.url ?? "/", origin);
    const method = incoming.method ?? "GET";
    const entry: LoggedRequest = {
      method,
      path: url.pathname,
      search: url.search,
      headers: incoming.headers,
      body: undefined,
      status: 0,
      at: Date.now(),
    };
    log.push(entry);
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    const closed = new Promise<void>((resolve) => res.once("close", resolve));
    void closed.then(() => inFlight--);

    const bytes = await readBody(incoming, bodyLimit);
    if (bytes) entry.body = bodyForLog(bytes, incoming.headers["content-type"]);
    const path = opts.trailingSlash === "ignore" ? url.pathname.replace(/\/+$/, "") || "/" : url.pathname;
    const req: FakeRequest = {
      method,
      url,
      path,
      headers: incoming.headers,
      remoteAddress: (incoming.socket.remoteAddress ?? "127.0.0.1").replace(/^::ffff:/, ""),
      log: entry,
      raw() {
        if (!bytes) throw tooLarge(req);
        return bytes;
      },
      text: () => req.raw().toString("utf8"),
      json(onMalformed) {
        const text = req.text();
        try {
          return JSON.parse(text);
        } catch (e) {
          const detail = e instanceof Error ? e.message : String(e);
          throw onMalformed ? onMalformed(detail) : malformedJson(req, detail);
        }
      },
      form: () => new URLSearchParams(req.text()),
      closed,
      gone: () => res.destroyed || !res.socket || res.socket.destroyed,
    };

    const fault = take(req);
    if (fault?.kind === "drop") return incoming.socket.destroy();
    if (fault?.kind === "fail")
      return send(res, req, typeof fault.reply === "function" ? fault.reply(req) : fault.reply);
    if (fault?.kind === "delay") {
      await loopback.delay(fault.ms);
      if (req.gone()) return;
    }

    const route = async (ctx: C): Promise<Reply | undefined> => {
      // req.path as it is now: a fake may rewrite it first (JIRA's gateway prefix).
      const found = opts.routes.match(method, req.path);
      if ("handler" in found) return found.handler(ctx, found.params);
      if (found.allowed.length > 0 && opts.methodNotAllowed) return opts.methodNotAllowed(req, found.allowed);
      return opts.notFound(req);
    };
    let reply: Reply | undefined;
    try {
      reply = await (opts.handle ? opts.handle(req, route) : route(req as C));
    } catch (err) {
      reply = onError(err, req);
    }
    if (fault?.kind === "lose") return incoming.socket.destroy();
    if (reply) send(res, req, reply);
  }

  const server = createServer((incoming, res) => {
    // A client that leaves mid-body (or a bug here) ends its own connection, nothing more.
    serve(incoming, res).catch(() => incoming.socket.destroy());
  });
  const loopback = await listenOnLoopback(server, { host: opts.host, port: opts.port });
  origin = `http://${loopback.host}:${loopback.port}`;

  return {
    url: origin,
    log,
    faults,
    get inFlight() {
      return inFlight;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    delay: loopback.delay,
    close: loopback.close,
  };
}
