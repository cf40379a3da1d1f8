import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import WebSocket from "ws";
import { sessions } from "../../src/server/db/schema/index";
import { REALTIME_CLOSE } from "../../src/shared/schemas/realtime";
import { registerUser, TestClient } from "../support/http-client";
import { startTestServer, type TestServer } from "../support/server";
import { trpcWs } from "../support/trpc-client";

/**
 * A session that ends (logout, revocation after refresh-token reuse, expiry) ends everywhere: its raw
 * channel sockets and tRPC sockets are closed with 4401, and nothing more runs over a socket whose
 * session is gone, even before the close reaches it.
 */
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ WS_SESSION_CHECK_MS: "200", REFRESH_GRACE_SECONDS: "0" });
});
afterAll(async () => {
  await server?.stop();
});

const wsUrl = (p: string) => `${server.url.replace(/^http/, "ws")}${p}`;

function closed(ws: WebSocket): Promise<{ code: number; reason: string }> {
  return new Promise((resolve) =>
    ws.once("close", (code, reason) => resolve({ code, reason: String(reason) })),
  );
}

async function openRaw(path: string): Promise<WebSocket> {
  const ws = new WebSocket(wsUrl(path));
  await new Promise<void>((resolve, reject) => {
    ws.on("message", (m) => {
      if (String(m).includes('"event_history"')) resolve();
    });
    ws.once("error", reject);
  });
  return ws;
}

/** A tRPC socket authenticated by the session cookie, as the SPA opens it. */
async function openTrpcWithCookie(client: TestClient): Promise<WebSocket> {
  const ws = new WebSocket(wsUrl("/trpc"), {
    headers: { cookie: client.cookieHeader(), origin: server.url },
  });
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
  });
  // The context (and so the session's registration) is made on the first message.
  ws.send(JSON.stringify({ id: 1, method: "query", params: { path: "auth.me", input: { json: null } } }));
  await new Promise<void>((resolve) => ws.once("message", () => resolve()));
  return ws;
}

async function signedIn() {
  const client = new TestClient(server.url);
  const user = await registerUser(client);
  const taskRes = await client.post("/api/tasks", { description: "A notes app with sign-in and sharing." });
  expect(taskRes.status).toBe(201);
  return { client, user, taskId: taskRes.json.id as string };
}

describe("sockets of an ended session", () => {
  it("logout closes the raw channels and the tRPC socket with 4401", async () => {
    const { client, user, taskId } = await signedIn();
    const global = await openRaw(`/ws/global?token=${user.access_token}`);
    const task = await openRaw(`/ws/tasks/${taskId}?token=${user.access_token}`);
    const trpc = await openTrpcWithCookie(client);
    const all = [closed(global), closed(task), closed(trpc)];
    const out = await client.post("/api/auth/logout");
    expect(out.status).toBe(200);
    for (const c of await Promise.all(all)) {
      expect(c).toEqual({ code: 4401, reason: REALTIME_CLOSE.sessionEnded.reason });
    }
  });

  it("another user's logout leaves my sockets open", async () => {
    const me = await signedIn();
    const other = await signedIn();
    const mine = await openRaw(`/ws/global?token=${me.user.access_token}`);
    const theirs = await openRaw(`/ws/global?token=${other.user.access_token}`);
    let closedEarly = false;
    mine.once("close", () => {
      closedEarly = true;
    });
    await other.client.post("/api/auth/logout");
    // Their socket closing shows the logout has reached the sockets; mine then still answers a heartbeat.
    expect((await closed(theirs)).code).toBe(4401);
    // My own task events may arrive first: the answer is the first heartbeat message.
    const answer = new Promise<Record<string, unknown>>((resolve) => {
      const onMessage = (m: unknown) => {
        const parsed = JSON.parse(String(m)) as Record<string, unknown>;
        if (parsed.type !== "heartbeat") return;
        mine.off("message", onMessage);
        resolve(parsed);
      };
      mine.on("message", onMessage);
    });
    mine.send(JSON.stringify({ type: "heartbeat" }));
    expect(await answer).toMatchObject({ type: "heartbeat" });
    expect(closedEarly).toBe(false);
    mine.close();
  });

  it("revocation after refresh-token reuse closes the session's sockets", async () => {
    const { client, user } = await signedIn();
    const raw = await openRaw(`/ws/global?token=${user.access_token}`);
    const wait = closed(raw);
    const api = new TestClient(server.url);
    api.origin = null;
    const first = await api.post("/api/auth/refresh-token", { refresh_token: user.refresh_token });
    expect(first.status).toBe(200);
    api.cookies.clear(); // an API client replaying the spent token, not a browser
    const reuse = await api.post("/api/auth/refresh-token", { refresh_token: user.refresh_token });
    expect(reuse.status).toBe(401);
    expect((await wait).code).toBe(4401);
    client.cookies.clear();
  });

  it("expiry closes the socket within the check interval", async () => {
    const { user } = await signedIn();
    const raw = await openRaw(`/ws/global?token=${user.access_token}`);
    const wait = closed(raw);
    const sessionId = user.access_token.split(".")[0]!;
    await server.deps.db
      .update(sessions)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(sessions.id, sessionId));
    const started = Date.now();
    expect((await wait).code).toBe(4401);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("refuses queries and mutations over a socket whose session is gone, before any close arrives", async () => {
    // Its own server whose periodic check never runs during the test, so no close can arrive first.
    const quiet = await startTestServer({ WS_SESSION_CHECK_MS: "3600000" });
    onTestFinished(() => quiet.stop());
    const client = new TestClient(quiet.url);
    const user = await registerUser(client);
    const taskId = (await client.post("/api/tasks", { description: "A notes app with sign-in." })).json.id;
    const ws = trpcWs(quiet.url, { token: user.access_token });
    expect((await ws.client.auth.me.query()).email).toBe(user.email);
    // Removed behind the server's back: no announcement, so only the per-call check can notice.
    await quiet.deps.db.delete(sessions).where(eq(sessions.id, user.access_token.split(".")[0]!));
    await expect(ws.client.auth.me.query()).rejects.toMatchObject({
      message: "Your session has ended. Please sign in again.",
      data: { code: "UNAUTHORIZED" },
    });
    await expect(
      ws.client.tasks.addTask.mutate({ id: taskId, description: "Sneaked in", position: "child" } as never),
    ).rejects.toMatchObject({ data: { code: "UNAUTHORIZED" } });
    ws.close();
  });
});
