import type { WebSocket } from "ws";
import { z } from "zod";
import { REALTIME_CLOSE } from "../../shared/schemas/realtime";
import type { Deps } from "../deps";
import { tokenIdOfSession } from "../services/auth/api-tokens";
import { liveApiTokenIds } from "../services/auth/live-api-token-ids";
import { liveSessionIds } from "../services/auth/live-session-ids";
import { SESSION_ENDED_CHANNEL } from "../services/auth/sessions";

const endedPayload = z.array(z.string().max(200)).max(1000);

/** A long-lived connection (a WebSocket) that ends with its session. */
type Connection = Pick<WebSocket, "close" | "once">;

export type SessionSockets = {
  /**
   * Closes `ws` (4401) when its session ends: logout, revocation, expiry, in any process. A personal
   * access token's socket is tracked under the token's session id (api-tokens.ts `tokenSessionId`) and
   * closes when the token is revoked or expires.
   */
  track(sessionId: string, ws: Connection): void;
  close(): Promise<void>;
};

/**
 * Open sockets by session. Ended sessions are announced over the database's NOTIFY channel (so a logout
 * in one process closes sockets in every process); a periodic check catches expiry and anything missed.
 * Tokens live in their own table, so the check asks each table about its own ids.
 */
export async function createSessionSockets(deps: Deps): Promise<SessionSockets> {
  const bySession = new Map<string, Set<Connection>>();

  const end = (sessionId: string) => {
    const open = bySession.get(sessionId);
    if (!open) return;
    bySession.delete(sessionId);
    for (const ws of open) ws.close(REALTIME_CLOSE.sessionEnded.code, REALTIME_CLOSE.sessionEnded.reason);
  };

  const unlisten = await deps.database.listen(SESSION_ENDED_CHANNEL, (payload) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(payload);
    } catch {
      parsed = null;
    }
    const ids = endedPayload.safeParse(parsed);
    if (ids.success) for (const id of ids.data) end(id);
  });

  let checking = false;
  const check = async () => {
    if (checking || bySession.size === 0) return;
    checking = true;
    try {
      const sessionIds: string[] = [];
      const tokenIds = new Map<string, string>();
      for (const id of bySession.keys()) {
        const tokenId = tokenIdOfSession(id);
        if (tokenId === null) sessionIds.push(id);
        else tokenIds.set(tokenId, id);
      }
      for (let i = 0; i < sessionIds.length; i += 500) {
        const slice = sessionIds.slice(i, i + 500);
        const alive = await liveSessionIds(deps, slice);
        for (const id of slice) if (!alive.has(id)) end(id);
      }
      const tokens = [...tokenIds.keys()];
      for (let i = 0; i < tokens.length; i += 500) {
        const slice = tokens.slice(i, i + 500);
        const alive = await liveApiTokenIds(deps, slice);
        for (const id of slice) if (!alive.has(id)) end(tokenIds.get(id)!);
      }
    } catch (err) {
      deps.log.warn("session check of open sockets failed", { err: (err as Error).message });
    } finally {
      checking = false;
    }
  };
  const timer = setInterval(() => void check(), deps.config.WS_SESSION_CHECK_MS);
  timer.unref();

  return {
    track(sessionId, ws) {
      const open = bySession.get(sessionId) ?? new Set<Connection>();
      bySession.set(sessionId, open);
      open.add(ws);
      ws.once("close", () => {
        const set = bySession.get(sessionId);
        set?.delete(ws);
        if (set?.size === 0) bySession.delete(sessionId);
      });
    },
    async close() {
      clearInterval(timer);
      await unlisten();
    },
  };
}
