import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import WebSocket from "ws";
import { apiTokens, sessions } from "../../src/server/db/schema/index";
import { REALTIME_CLOSE } from "../../src/shared/schemas/realtime";
import { registerUser, TestClient } from "../support/http-client";
import { spawnApp, waitForReady } from "../support/process";
import { databaseKind, freePort, startTestServer, type TestServer } from "../support/server";
import { trpcWs } from "../support/trpc-client";
import { waitUntil } from "../support/wait";

/**
 * Personal access tokens over WebSockets (issue 27): a token's tRPC socket and raw channels stay open
 * past the periodic session check and its calls keep working; revoking the token closes them at once,
 * in every process, with the code a logout uses; expiry closes them within the check interval.
 */

type Msg = Record<string, any>;
type Closed = { code: number; reason: string };
type Socket = { ws: WebSocket; messages: Msg[]; closed: Promise<Closed>; isClosed: () => boolean };

const wsBase = (url: string) => url.replace(/^http/, "ws");

function track(ws: WebSocket): Socket {
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

const opened = (ws: WebSocket) =>
  new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
  });

/** A raw channel (`/ws/global`, `/ws/tasks/{id}`), once it has sent its history. */
async function openChannel(base: string, target: string, headers: Record<string, string> = {}) {
  const s = track(new WebSocket(`${wsBase(base)}${target}`, { headers }));
  await waitUntil(() => s.messages.some((m) => m.type === "event_history") || s.isClosed(), {
    message: `history on ${target}`,
  });
  return s;
}

/** The raw channel answers a heartbeat: it is open and still serving. */
async function answersHeartbeat(s: Socket): Promise<boolean> {
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
async function openTrpc(base: string, token: string, via: "params" | "header") {
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

async function signedIn(base: string) {
  const client = new TestClient(base);
  const user = await registerUser(client);
  return { client, user };
}

async function makeToken(client: TestClient, name: string) {
  const res = await client.post("/api/tokens", { name, scope: "write", expires_in_days: 30 });
  expect(res.status).toBe(201);
  return res.json as { id: string; token: string };
}

const sessionEnded = { code: REALTIME_CLOSE.sessionEnded.code, reason: REALTIME_CLOSE.sessionEnded.reason };

describe("a token's sockets under the periodic check", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ WS_SESSION_CHECK_MS: "200" });
  });
  afterAll(() => server?.stop());

  /**
   * Waits for `periods` runs of the periodic check: each time a socket of a session expired behind the
   * server's back (nothing announces it) is closed, a check has run over every open socket.
   */
  async function periodicChecks(periods: number) {
    for (let i = 0; i < periods; i++) {
      const { user } = await signedIn(server.url);
      const canary = await openChannel(server.url, `/ws/global?token=${user.access_token}`);
      await server.deps.db
        .update(sessions)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(sessions.id, user.access_token.split(".")[0]!));
      expect(await canary.closed).toEqual(sessionEnded);
    }
  }

  it("stay open past several checks, and calls over them keep working", async () => {
    const { client } = await signedIn(server.url);
    const task = await client.post("/api/tasks", { description: "A notes app with sign-in and sharing." });
    expect(task.status).toBe(201);
    const { token } = await makeToken(client, "script");
    const trpcByParams = await openTrpc(server.url, token, "params");
    const trpcByHeader = await openTrpc(server.url, token, "header");
    const global = await openChannel(server.url, `/ws/global?token=${token}`);
    const taskChannel = await openChannel(server.url, `/ws/tasks/${task.json.id}`, {
      authorization: `Bearer ${token}`,
    });
    const typed = trpcWs(server.url, { token });
    onTestFinished(() => typed.close());
    expect((await typed.client.auth.me.query()).email).toMatch(/@example\.com$/);

    await periodicChecks(3);

    for (const s of [trpcByParams, trpcByHeader, global, taskChannel]) expect(s.isClosed()).toBe(false);
    expect(await answersHeartbeat(global)).toBe(true);
    expect(await answersHeartbeat(taskChannel)).toBe(true);
    for (const s of [trpcByParams, trpcByHeader]) {
      const me = await s.call("auth.me");
      expect(me.result?.data.json.email, JSON.stringify(me)).toMatch(/@example\.com$/);
    }
    const listed = await typed.client.tasks.list.query({});
    expect(listed.tasks.map((t) => t.id)).toContain(task.json.id);
    for (const s of [trpcByParams, trpcByHeader, global, taskChannel]) s.ws.close();
  });

  it("expiry closes them within the check interval", async () => {
    const { client } = await signedIn(server.url);
    const made = await makeToken(client, "short-lived");
    const trpc = await openTrpc(server.url, made.token, "header");
    const global = await openChannel(server.url, `/ws/global?token=${made.token}`);
    await server.deps.db
      .update(apiTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiTokens.id, made.id));
    expect(await trpc.closed).toEqual(sessionEnded);
    expect(await global.closed).toEqual(sessionEnded);
  });
});

describe("revoking a token", () => {
  // No periodic check during these tests: only the revocation's announcement can close a socket.
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ WS_SESSION_CHECK_MS: "3600000" });
  });
  afterAll(() => server?.stop());

  it("closes its sockets at once with the logout's code, and leaves the user's other sockets open", async () => {
    const { client, user } = await signedIn(server.url);
    const task = await client.post("/api/tasks", { description: "A notes app with sign-in and sharing." });
    const revoked = await makeToken(client, "revoked");
    const kept = await makeToken(client, "kept");
    const doomed = [
      await openTrpc(server.url, revoked.token, "params"),
      await openTrpc(server.url, revoked.token, "header"),
      await openChannel(server.url, `/ws/global?token=${revoked.token}`),
      await openChannel(server.url, `/ws/tasks/${task.json.id}`, {
        authorization: `Bearer ${revoked.token}`,
      }),
    ];
    const otherToken = await openChannel(server.url, `/ws/global?token=${kept.token}`);
    const session = await openChannel(server.url, `/ws/global?token=${user.access_token}`);

    expect((await client.request("DELETE", `/api/tokens/${revoked.id}`)).status).toBe(204);
    await waitUntil(() => doomed.every((s) => s.isClosed()), {
      timeoutMs: 5_000,
      message: () => `all ${doomed.length} sockets closed; ${doomed.filter((s) => s.isClosed()).length} are`,
    });
    for (const s of doomed) expect(await s.closed).toEqual(sessionEnded);
    expect(await answersHeartbeat(otherToken)).toBe(true);
    expect(await answersHeartbeat(session)).toBe(true);
    otherToken.ws.close();
    session.ws.close();
  });

  it("refuses calls over its socket before any close arrives", async () => {
    const { client } = await signedIn(server.url);
    const made = await makeToken(client, "removed");
    const ws = trpcWs(server.url, { token: made.token });
    onTestFinished(() => ws.close());
    expect((await ws.client.auth.me.query()).email).toMatch(/@example\.com$/);
    // Removed behind the server's back: no announcement, so only the per-call check can notice.
    await server.deps.db.delete(apiTokens).where(eq(apiTokens.id, made.id));
    await expect(ws.client.auth.me.query()).rejects.toMatchObject({
      message: "This API token was revoked or has expired.",
      data: { code: "UNAUTHORIZED" },
    });
  });
});

// Two processes on one PostgreSQL: a revocation in one closes the token's sockets in the other
// (LISTEN/NOTIFY). PGlite has a single process, so the PostgreSQL pass alone runs it.
describe.skipIf(databaseKind !== "postgres")("revoking a token in another process", () => {
  let server: TestServer;
  let other: ReturnType<typeof spawnApp> | undefined;
  const dataDir = mkdtempSync(path.join(tmpdir(), "atomize-token-sockets-"));
  // Every process sharing a database must share its credentials key.
  const CREDENTIALS_KEY = Buffer.alloc(32, 7).toString("base64");
  beforeAll(async () => {
    server = await startTestServer({ WS_SESSION_CHECK_MS: "3600000", CREDENTIALS_KEY });
  });
  afterAll(async () => {
    if (other && other.child.exitCode === null) {
      other.child.kill("SIGTERM");
      await other.exited;
    }
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("closes the token's sockets there at once", async () => {
    other = spawnApp({
      HOST: "127.0.0.1",
      PORT: String(await freePort()),
      DATABASE_URL: server.deps.config.DATABASE_URL!,
      DATA_DIR: dataDir,
      WS_SESSION_CHECK_MS: "3600000",
      JOBS_ENABLED: "false",
      OLLAMA_URL: "",
      CREDENTIALS_KEY,
    });
    await waitForReady(other);
    const { client } = await signedIn(server.url);
    const made = await makeToken(client, "elsewhere");
    const sockets = [
      await openTrpc(other.url, made.token, "header"),
      await openChannel(other.url, `/ws/global?token=${made.token}`),
    ];
    expect((await client.request("DELETE", `/api/tokens/${made.id}`)).status).toBe(204);
    await waitUntil(() => sockets.every((s) => s.isClosed()), {
      timeoutMs: 5_000,
      message: "the other process closed the token's sockets",
    });
    for (const s of sockets) expect(await s.closed).toEqual(sessionEnded);
  });
});
