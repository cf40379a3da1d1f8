import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { apiTokens, sessions } from "../../src/server/db/schema/index";
import { startTestServer, type TestServer } from "../support/server";
import {
  answersHeartbeat,
  makeToken,
  openChannel,
  openTrpc,
  sessionEnded,
  signedIn,
} from "../support/token-sockets";
import { trpcWs } from "../support/trpc-client";
import { waitUntil } from "../support/wait";

/**
 * Personal access tokens over WebSockets (issue 27): a token's tRPC socket and raw channels stay open
 * past the periodic session check and its calls keep working; revoking the token closes them at once,
 * in every process, with the code a logout uses; expiry closes them within the check interval.
 */

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
