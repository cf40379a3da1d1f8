import { and, gt, inArray } from "drizzle-orm";
import type { WebSocket } from "ws";
import { z } from "zod";
import { REALTIME_CLOSE } from "../../shared/schemas/realtime";
import { sessions } from "../db/schema/index";
import type { Deps } from "../deps";
import { SESSION_ENDED_CHANNEL } from "../services/auth/sessions";

const endedPayload = z.array(z.string().max(200)).max(1000);

export type SessionSockets = {
  /** Closes `ws` (4401) when its session ends: logout, revocation, expiry, in any process. */
  track(sessionId: string, ws: WebSocket): void;
  close(): Promise<void>;
};

/**
 * Open sockets by session. Ended sessions are announced over the database's NOTIFY channel (so a logout
 * in one process closes sockets in every process); a periodic check catches expiry and anything missed.
 */
export async function createSessionSockets(deps: Deps): Promise<SessionSockets> {
  const bySession = new Map<string, Set<WebSocket>>();

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
      const ids = [...bySession.keys()];
      for (let i = 0; i < ids.length; i += 500) {
        const slice = ids.slice(i, i + 500);
        const live = await deps.db
          .select({ id: sessions.id })
          .from(sessions)
          .where(and(inArray(sessions.id, slice), gt(sessions.expiresAt, new Date())));
        const alive = new Set(live.map((r) => r.id));
        for (const id of slice) if (!alive.has(id)) end(id);
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
      const open = bySession.get(sessionId) ?? new Set<WebSocket>();
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
