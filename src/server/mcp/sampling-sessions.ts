import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { Deps } from "../deps";

/**
 * MCP sessions, kept only for clients that can lend the server their model (MCP sampling, decision 029).
 * Everything else stays stateless, a server per request (decision 021). A session answers only to the
 * API token that opened it; it ends when the client deletes it, after SESSION_IDLE_MS without a request,
 * or when the server stops. Sessions live in this process: a request that reaches another process is
 * answered 404, and the client opens a new session (as the MCP specification asks of it).
 */

export const SESSION_IDLE_MS = 15 * 60_000;
/**
 * Sessions one API token may hold, one account over all its tokens, and this process in all: past any,
 * a client is served stateless (it can still plan with the tools). The account's cap keeps a few accounts
 * from taking every session (issue 39).
 */
export const SESSIONS_PER_TOKEN = 4;
export const SESSIONS_PER_USER = 8;
export const SESSIONS_MAX = 200;

export type McpSession = {
  id: string;
  tokenId: string;
  userId: string;
  transport: WebStandardStreamableHTTPServerTransport;
  server: McpServer;
  lastSeen: number;
};

export type McpSessions = {
  get(id: string): McpSession | undefined;
  /** Whether a token (of this account) may open one more session. */
  hasRoom(tokenId: string, userId: string): boolean;
  add(session: McpSession): void;
  remove(id: string): Promise<void>;
  closeAll(): Promise<void>;
};

const perDeps = new WeakMap<Deps, McpSessions>();

/** The sessions of one running server. */
export function mcpSessions(deps: Deps): McpSessions {
  let sessions = perDeps.get(deps);
  if (!sessions) {
    sessions = createSessions();
    perDeps.set(deps, sessions);
  }
  return sessions;
}

function createSessions(): McpSessions {
  const open = new Map<string, McpSession>();
  const end = async (session: McpSession) => {
    open.delete(session.id);
    await session.server.close().catch(() => {});
  };
  const sweep = setInterval(() => {
    const stale = Date.now() - SESSION_IDLE_MS;
    for (const s of open.values()) if (s.lastSeen < stale) void end(s);
  }, 60_000);
  sweep.unref();
  return {
    get(id) {
      const session = open.get(id);
      if (session) session.lastSeen = Date.now();
      return session;
    },
    hasRoom(tokenId, userId) {
      const all = [...open.values()];
      const token = all.filter((s) => s.tokenId === tokenId).length;
      const account = all.filter((s) => s.userId === userId).length;
      return open.size < SESSIONS_MAX && token < SESSIONS_PER_TOKEN && account < SESSIONS_PER_USER;
    },
    add(session) {
      open.set(session.id, session);
    },
    async remove(id) {
      const session = open.get(id);
      if (session) await end(session);
    },
    async closeAll() {
      clearInterval(sweep);
      await Promise.all([...open.values()].map(end));
    },
  };
}

/**
 * When a sampling session's client has opened its stream for server-initiated requests (its GET): the
 * transport drops a request sent before that (it keeps no event store), and the server would then wait out
 * the whole sampling timeout for an answer that never comes. Sampling waits for it (sampling.ts).
 */
const streams = new WeakMap<object, { open: boolean; opened: Promise<void>; mark: () => void }>();

function streamOf(server: object) {
  let s = streams.get(server);
  if (!s) {
    let mark = () => {};
    const opened = new Promise<void>((resolve) => {
      mark = resolve;
    });
    s = { open: false, opened, mark };
    const entry = s;
    entry.mark = () => {
      entry.open = true;
      mark();
    };
    streams.set(server, s);
  }
  return s;
}

/** The client's GET reached this session's server: its stream for server-initiated requests is open. */
export function markStreamOpen(server: object): void {
  streamOf(server).mark();
}

/** Resolves once the client's stream is open, or after `waitMs` (then the request is sent anyway). */
export async function streamReady(server: object, waitMs: number): Promise<void> {
  const s = streamOf(server);
  if (s.open) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    s.opened,
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, waitMs);
      timer.unref();
    }),
  ]);
  clearTimeout(timer);
}
