import { expect } from "vitest";
import WebSocket from "ws";
import { REALTIME_CLOSE } from "../../src/shared/schemas/realtime";
import { registerUser, TestClient } from "./http-client";
import { waitUntil } from "./wait";

/** Sockets opened with a personal access token, as tests/integration/token-sockets*.test.ts drive them. */

export type Msg = Record<string, any>;
export type Closed = { code: number; reason: string };
export type Socket = { ws: WebSocket; messages: Msg[]; closed: Promise<Closed>; isClosed: () => boolean };

export const wsBase = (url: string) => url.replace(/^http/, "ws");

export function track(ws: WebSocket): Socket {
  const messages: Msg[] = [];
  let done = false;
  ws.on("message", (m) => messages.push(JSON.parse(String(m))));
  ws.on("error", () => {});
  const closed = new Promise<Closed>((resolve) =>
    ws.once("close", (code, reason) => {
      done = true;
      resolve({ code, reason: String(reason) });
    }),
  );
  return { ws, messages, closed, isClosed: () => done };
}

export const opened = (ws: WebSocket) =>
  new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
  });

/** A raw channel (`/ws/global`, `/ws/tasks/{id}`), once it has sent its history. */
export async function openChannel(base: string, target: string, headers: Record<string, string> = {}) {
  const s = track(new WebSocket(`${wsBase(base)}${target}`, { headers }));
  await waitUntil(() => s.messages.some((m) => m.type === "event_history") || s.isClosed(), {
    message: `history on ${target}`,
  });
  return s;
}

/** The raw channel answers a heartbeat: it is open and still serving. */
export async function answersHeartbeat(s: Socket): Promise<boolean> {
  const before = s.messages.filter((m) => m.type === "heartbeat").length;
  s.ws.send(JSON.stringify({ type: "heartbeat" }));
  return waitUntil(() => s.isClosed() || s.messages.filter((m) => m.type === "heartbeat").length > before, {
    message: "a heartbeat answer",
  }).then(() => !s.isClosed());
}

/**
 * A tRPC socket with the token in connectionParams (as tRPC's wsLink sends it) or in an
 * `Authorization: Bearer` header on the upgrade (as a script would), once its first call is answered.
 */
export async function openTrpc(base: string, token: string, via: "params" | "header") {
  const s =
    via === "params"
      ? track(new WebSocket(`${wsBase(base)}/trpc?connectionParams=1`))
      : track(new WebSocket(`${wsBase(base)}/trpc`, { headers: { authorization: `Bearer ${token}` } }));
  await opened(s.ws);
  if (via === "params") s.ws.send(JSON.stringify({ method: "connectionParams", data: { token } }));
  let next = 1;
  const call = async (procedure: string): Promise<Msg> => {
    const id = next++;
    s.ws.send(JSON.stringify({ id, method: "query", params: { path: procedure, input: { json: null } } }));
    await waitUntil(() => s.messages.some((m) => m.id === id) || s.isClosed(), {
      message: `an answer to ${procedure}`,
    });
    return s.messages.find((m) => m.id === id) ?? { closed: true };
  };
  const me = await call("auth.me");
  expect(me.result?.data.json.email, JSON.stringify(me)).toMatch(/@example\.com$/);
  return { ...s, call };
}

export async function signedIn(base: string) {
  const client = new TestClient(base);
  const user = await registerUser(client);
  return { client, user };
}

export async function makeToken(client: TestClient, name: string) {
  const res = await client.post("/api/tokens", { name, scope: "write", expires_in_days: 30 });
  expect(res.status).toBe(201);
  return res.json as { id: string; token: string };
}

export const sessionEnded = {
  code: REALTIME_CLOSE.sessionEnded.code,
  reason: REALTIME_CLOSE.sessionEnded.reason,
};
