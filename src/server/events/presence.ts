import { randomUUID } from "node:crypto";
import type { PlanViewer } from "../../shared/schemas/realtime";
import type { Database } from "../db/client";
import type { Logger } from "../lib/logger";

/**
 * Who has a plan open now (issue 41), across server processes: each process keeps its own open views and
 * tells the others over PostgreSQL NOTIFY (in-process with PGlite, where one process is all there is).
 * Nothing is stored: a view is here while its channel is open.
 * - A view that opens says so ("here") and asks the other processes to say which views of that plan
 *   they have, so a late joiner sees everyone at once.
 * - A view that closes says "gone". A process that dies says nothing: its views are dropped once they
 *   miss three heartbeats (each process repeats its views every BEAT_MS).
 * Each plan's listeners hear its viewers, one entry per person and agent, whenever they change.
 */

const CHANNEL = "atomize_presence";
const BEAT_MS = 15_000;
const MISSED_BEATS = 3;
/** Views per NOTIFY message: each is ~200 bytes, and a payload stays under 8,000. */
const PER_MESSAGE = 25;

type View = { plan: string; viewer: PlanViewer };
type Message =
  | { op: "here"; proc: string; views: (View & { id: string })[]; ask?: string }
  | { op: "gone"; proc: string; ids: string[] };

export type Presence = {
  /** Marks a view of a plan open until the returned function is called; `onChange` hears the plan's viewers. */
  join(plan: string, viewer: PlanViewer, onChange: (viewers: PlanViewer[]) => void): Promise<() => void>;
  close(): Promise<void>;
};

export async function createPresence(
  database: Pick<Database, "notify" | "listen">,
  log: Logger,
): Promise<Presence> {
  const proc = randomUUID();
  /** This process's open views, by view id. */
  const local = new Map<string, View & { onChange: (viewers: PlanViewer[]) => void }>();
  /** Every process's views of each plan: view key (process and view id) → viewer and when last heard. */
  const seen = new Map<string, Map<string, { viewer: PlanViewer; at: number }>>();

  const viewersOf = (plan: string): PlanViewer[] => {
    const unique = new Map<string, PlanViewer>();
    for (const { viewer } of seen.get(plan)?.values() ?? [])
      unique.set(`${viewer.user_id}\u0000${viewer.agent ?? ""}`, viewer);
    return [...unique.values()].sort((a, b) => a.name.localeCompare(b.name));
  };
  const tell = (plan: string) => {
    const viewers = viewersOf(plan);
    for (const view of local.values()) {
      if (view.plan !== plan) continue;
      try {
        view.onChange(viewers);
      } catch (err) {
        log.warn("a presence listener failed", { err });
      }
    }
  };
  const put = (plan: string, key: string, viewer: PlanViewer) => {
    const views = seen.get(plan) ?? new Map<string, { viewer: PlanViewer; at: number }>();
    seen.set(plan, views);
    const had = views.has(key);
    views.set(key, { viewer, at: Date.now() });
    return !had;
  };
  const drop = (key: string): string | null => {
    for (const [plan, views] of seen) {
      if (!views.delete(key)) continue;
      if (views.size === 0) seen.delete(plan);
      return plan;
    }
    return null;
  };
  const send = (message: Message) =>
    database
      .notify(CHANNEL, JSON.stringify(message))
      .catch((err) => log.warn("presence notify failed", { err }));
  const announce = async (views: (View & { id: string })[], ask?: string) => {
    for (let i = 0; i < views.length || (i === 0 && ask); i += PER_MESSAGE)
      await send({ op: "here", proc, views: views.slice(i, i + PER_MESSAGE), ...(ask ? { ask } : {}) });
  };
  const mine = (plan?: string) =>
    [...local]
      .filter(([, v]) => !plan || v.plan === plan)
      .map(([id, v]) => ({ id, plan: v.plan, viewer: v.viewer }));

  const unlisten = await database.listen(CHANNEL, (payload) => {
    let message: Message;
    try {
      message = JSON.parse(payload) as Message;
    } catch {
      return;
    }
    if (message.proc === proc) return; // this process's own views are kept directly
    if (message.op === "gone") {
      const changed = new Set<string>();
      for (const id of message.ids) {
        const plan = drop(`${message.proc}:${id}`);
        if (plan) changed.add(plan);
      }
      for (const plan of changed) tell(plan);
      return;
    }
    const changed = new Set<string>();
    for (const v of message.views) if (put(v.plan, `${message.proc}:${v.id}`, v.viewer)) changed.add(v.plan);
    for (const plan of changed) tell(plan);
    if (message.ask) {
      const answer = mine(message.ask);
      if (answer.length) void announce(answer);
    }
  });

  const beat = setInterval(() => {
    void announce(mine());
    const stale = Date.now() - BEAT_MS * MISSED_BEATS;
    for (const [plan, views] of seen) {
      let changed = false;
      for (const [key, v] of views) {
        if (key.startsWith(`${proc}:`) || v.at >= stale) continue;
        views.delete(key);
        changed = true;
      }
      if (views.size === 0) seen.delete(plan);
      if (changed) tell(plan);
    }
  }, BEAT_MS);
  beat.unref();

  return {
    async join(plan, viewer, onChange) {
      const id = randomUUID();
      local.set(id, { plan, viewer, onChange });
      put(plan, `${proc}:${id}`, viewer);
      tell(plan);
      await announce([{ id, plan, viewer }], plan);
      let left = false;
      return () => {
        if (left) return;
        left = true;
        local.delete(id);
        drop(`${proc}:${id}`);
        tell(plan);
        void send({ op: "gone", proc, ids: [id] });
      };
    },
    async close() {
      clearInterval(beat);
      const ids = [...local.keys()];
      local.clear();
      if (ids.length) await send({ op: "gone", proc, ids });
      await unlisten();
    },
  };
}
