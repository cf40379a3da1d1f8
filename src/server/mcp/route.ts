import { randomUUID } from "node:crypto";
import type { Context } from "hono";
import { MCP_PATH, TOKENS_PAGE } from "../../shared/agent-setup";
import { BATCH_COST_MAX, batchCost, batchTooCostly, heavyMcpMessage } from "../../shared/batch-cost";
import type { Deps } from "../deps";
import { AppError } from "../errors";
import type { AppEnv } from "../http/hono-env";
import { callerContext } from "../operations/context";
import {
  discoverResult,
  LEGACY_VERSION,
  MODERN_VERSIONS,
  modernAnswer,
  modernVersionOf,
  unsupportedVersion,
} from "./eras";
import { markStreamOpen, mcpSessions } from "./sampling-sessions";

/**
 * The MCP SDK (with its JSON Schema validator) is a fifth of the server's code: loaded at the first MCP
 * request, not at every start (decision 025).
 */
let sdk:
  | Promise<
      [
        typeof import("./server"),
        typeof import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"),
      ]
    >
  | undefined;
const loadSdk = () => {
  sdk ??= Promise.all([
    import("./server"),
    import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"),
  ]);
  return sdk;
};

export { MCP_PATH };

/** JSON-RPC messages in one request: a batch is a loop a single request could make the server run. */
export const MCP_BATCH_MAX = 10;

const rpcError = (c: Context<AppEnv>, status: 400, code: number, message: string) =>
  c.json({ jsonrpc: "2.0", error: { code, message }, id: null }, status);

/** RFC 9728's well-known path for protected-resource metadata (the resource's path follows it). */
export const PROTECTED_RESOURCE_PATH = "/.well-known/oauth-protected-resource";

/**
 * The MCP server's protected-resource metadata (RFC 9728; MCP's authorization section asks servers for
 * it): the resource, bearer tokens in the header, and where a person gets one. No `authorization_servers`:
 * Atomize issues no OAuth tokens, so a client has no flow to start and can say so instead.
 */
export function protectedResourceMetadata(publicUrl: string) {
  const origin = publicUrl.replace(/\/+$/, "");
  return {
    resource: `${origin}${MCP_PATH}`,
    bearer_methods_supported: ["header"],
    resource_name: "Atomize MCP server (personal access tokens from Settings > API tokens)",
    resource_documentation: `${origin}${TOKENS_PAGE}`,
  };
}

const NEEDS_TOKEN =
  "The MCP server needs a personal access token: make one in Atomize under Settings → API tokens and send it as Authorization: Bearer <token>.";

const SESSION_HEADER = "mcp-session-id";

/** A client that can lend its model: it declared MCP sampling when it initialized. */
function asksForSampling(body: unknown): boolean {
  const message = (Array.isArray(body) ? body : [body]).find(
    (m) => (m as { method?: unknown })?.method === "initialize",
  ) as { params?: { capabilities?: { sampling?: unknown } } } | undefined;
  return Boolean(message?.params?.capabilities?.sampling);
}

/**
 * /mcp: the MCP Streamable HTTP transport, authenticated by a personal access token only. The app's
 * middleware has already applied the body limit, the NUL and cross-site checks, and the token's rate
 * limit. Stateless (a server and transport per request, JSON answers, no session kept), except for a
 * client that declares MCP sampling: it gets a session (sessions.ts), so the server can ask it for
 * completions while it plans a project with the client's model (sampling.ts).
 */
export async function handleMcp(c: Context<AppEnv>): Promise<Response> {
  const sessionId = c.req.header(SESSION_HEADER);
  if (c.req.method !== "POST" && !sessionId) {
    // Stateless: no server-initiated stream to open (GET) and no session to end (DELETE).
    return c.json(
      {
        jsonrpc: "2.0",
        error: { code: -32000, message: "Method not allowed: send JSON-RPC with POST." },
        id: null,
      },
      405,
      { Allow: "POST" },
    );
  }
  // Read first, even to refuse: an answer sent before the body is read can reset the connection under
  // the client while it still sends. Read here (the transport would otherwise) to bound a batch.
  let body: unknown;
  if (c.req.method === "POST") {
    try {
      body = JSON.parse(await c.req.text());
    } catch {
      return rpcError(c, 400, -32700, "Parse error: the body is not JSON.");
    }
    if (Array.isArray(body) && body.length > MCP_BATCH_MAX) {
      return rpcError(c, 400, -32600, `Too many messages in one batch (at most ${MCP_BATCH_MAX}).`);
    }
    if (Array.isArray(body)) {
      const cost = batchCost(body.map(heavyMcpMessage));
      if (cost > BATCH_COST_MAX) return rpcError(c, 400, -32600, batchTooCostly(cost));
    }
  }
  const session = c.var.auth.session;
  if (!session?.apiToken) {
    // RFC 9728: the header names the protected-resource metadata, which names no authorization server,
    // so a client does not start an OAuth flow Atomize does not have; the text says where tokens come from.
    const origin = c.var.deps.config.PUBLIC_URL.replace(/\/+$/, "");
    throw new AppError("UNAUTHORIZED", NEEDS_TOKEN, {
      headers: {
        "WWW-Authenticate": `Bearer realm="atomize", error="invalid_token", error_description="Make a personal access token in Atomize under Settings > API tokens", resource_metadata="${origin}${PROTECTED_RESOURCE_PATH}${MCP_PATH}"`,
      },
    });
  }
  const sessions = mcpSessions(c.var.deps);
  if (sessionId) {
    // A session answers only to the token that opened it; any other is told it does not exist.
    const open = sessions.get(sessionId);
    if (!open || open.tokenId !== session.apiToken.id) {
      return c.json(
        { jsonrpc: "2.0", error: { code: -32001, message: "Session not found." }, id: null },
        404,
      );
    }
    if (c.req.method === "GET") markStreamOpen(open.server);
    return open.transport.handleRequest(c.req.raw, body === undefined ? undefined : { parsedBody: body });
  }
  const [{ connectMcpServer }, { WebStandardStreamableHTTPServerTransport }] = await loadSdk();
  const tokenId = session.apiToken.id;
  const userId = session.user.id;
  if (asksForSampling(body) && sessions.hasRoom(tokenId, userId)) {
    // Answers stream (SSE), so a tool call can ask the client for completions before it answers.
    const ctx = callerContext({
      deps: c.var.deps,
      session,
      meta: c.var.meta,
      log: c.var.log,
      persistent: true,
    });
    let server: Awaited<ReturnType<typeof connectMcpServer>> | undefined;
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.add({ id, tokenId, userId, transport, server: server!, lastSeen: Date.now() });
      },
      onsessionclosed: (id) => sessions.remove(id),
    });
    server = await connectMcpServer(ctx, transport, { sampling: true });
    return transport.handleRequest(c.req.raw, { parsedBody: body });
  }
  const ctx = callerContext({ deps: c.var.deps, session, meta: c.var.meta, log: c.var.log });
  // One stateless SDK server for one request, in the 2025 era the SDK speaks.
  const answer = async (request: Request, parsedBody: unknown) => {
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    const server = await connectMcpServer(ctx, transport);
    try {
      return await transport.handleRequest(request, { parsedBody });
    } finally {
      await server.close();
    }
  };
  const modern = modernVersionOf(body, c.req.header("mcp-protocol-version"));
  if (!modern) return answer(c.req.raw, body);
  return answerModern(c, body as ModernMessage, modern, answer);
}

type ModernMessage = { id?: unknown; method?: unknown };

/**
 * A request of the stateless 2026-07-28 era (eras.ts): `server/discover` from the SDK server's own
 * `initialize` answer; anything else handed to the SDK in the 2025 era and given the modern result fields.
 */
async function answerModern(
  c: Context<AppEnv>,
  message: ModernMessage,
  version: string,
  answer: (request: Request, parsedBody: unknown) => Promise<Response>,
): Promise<Response> {
  if (!(MODERN_VERSIONS as readonly string[]).includes(version))
    return c.json(unsupportedVersion(message.id, version), 400);
  const headers = new Headers(c.req.raw.headers);
  headers.set("mcp-protocol-version", LEGACY_VERSION);
  const legacy = (parsedBody: unknown) =>
    answer(
      new Request(c.req.raw.url, { method: "POST", headers, body: JSON.stringify(parsedBody) }),
      parsedBody,
    );
  if (message.method === "server/discover") {
    const init = await legacy({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: {
        protocolVersion: LEGACY_VERSION,
        capabilities: {},
        clientInfo: { name: "server-discover", version: "0" },
      },
    });
    const result = ((await init.json()) as { result?: Parameters<typeof discoverResult>[1] }).result ?? {};
    return c.json(discoverResult(message.id ?? null, result));
  }
  const res = await legacy(message);
  if (!(res.headers.get("content-type") ?? "").includes("application/json")) return res;
  return c.json(modernAnswer(String(message.method), await res.json()) as object, res.status as 200);
}

/** Ends every open session (the server is stopping). */
export function closeMcpSessions(deps: Deps): Promise<void> {
  return mcpSessions(deps).closeAll();
}
