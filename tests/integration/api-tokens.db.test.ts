import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { apiTokens } from "../../src/server/db/schema/index";
import { registerUser, TestClient } from "../support/http-client";
import { startTestServer, type TestServer } from "../support/server";
import { trpcError, trpcHttp } from "../support/trpc-client";

/**
 * Personal access tokens (issue 14): shown once and kept as a hash, used as Bearer, read tokens refused
 * on writes, token management only from a signed-in session, revocation, expiry, last use, a rate
 * limit per token, and a cap on active tokens per user (issue 27).
 */

const FULL = "You have 20 active API tokens, the most allowed. Revoke one you no longer use first.";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    REGISTRATIONS_PER_IP_PER_HOUR: "1000",
    API_TOKEN_REQUESTS_PER_MINUTE: "8",
  });
});
afterAll(() => server?.stop());

async function signedIn() {
  const client = new TestClient(server.url);
  const reg = await registerUser(client);
  return { client, user: reg.user as { id: string } };
}

function withToken(token: string) {
  const c = new TestClient(server.url);
  c.origin = null;
  c.bearer = token;
  return c;
}

describe("personal access tokens", () => {
  it("are shown once, kept only as a hash, listed with their last use, and revocable", async () => {
    const { client, user } = await signedIn();
    const made = await client.post("/api/tokens", { name: "laptop", scope: "write", expires_in_days: 30 });
    expect(made.status).toBe(201);
    expect(made.json).toMatchObject({
      name: "laptop",
      scope: "write",
      token: expect.stringMatching(/^atz_[\w-]{43}$/),
    });
    expect(new Date(made.json.expires_at).getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    const [row] = await server.deps.db.select().from(apiTokens).where(eq(apiTokens.userId, user.id));
    expect(JSON.stringify(row)).not.toContain(made.json.token);
    const listed = (await client.get("/api/tokens")).json.tokens;
    expect(listed).toEqual([
      expect.objectContaining({ id: made.json.id, name: "laptop", scope: "write", last_used_at: null }),
    ]);
    expect(JSON.stringify(listed)).not.toContain(made.json.token);

    const api = withToken(made.json.token);
    expect((await api.get("/api/tasks")).status).toBe(200);
    const created = await api.post("/api/tasks", { description: "Made by a script" });
    expect(created.status).toBe(201);
    expect((await client.get("/api/tokens")).json.tokens[0].last_used_at).not.toBeNull();

    expect((await client.request("DELETE", `/api/tokens/${made.json.id}`)).status).toBe(204);
    expect((await api.get("/api/tasks")).status).toBe(401);
    expect((await client.request("DELETE", `/api/tokens/${made.json.id}`)).status).toBe(404);
  });

  it("read tokens may only read; no token may manage tokens", async () => {
    const { client } = await signedIn();
    const read = (await client.post("/api/tokens", { name: "ci", scope: "read", expires_in_days: null }))
      .json;
    expect(read.expires_at).toBeNull();
    const api = withToken(read.token);
    expect((await api.get("/api/tasks")).status).toBe(200);
    const write = await api.post("/api/tasks", { description: "Not allowed" });
    expect(write.status).toBe(403);
    expect(write.json.detail).toBe("This API token is read-only: make a write token to change anything.");
    const trpc = await trpcError(trpcHttp(api).tasks.create.mutate({ description: "Not allowed either" }));
    expect(trpc.data.code).toBe("FORBIDDEN");
    for (const [method, path] of [
      ["GET", "/api/tokens"],
      ["POST", "/api/tokens"],
      ["DELETE", `/api/tokens/${read.id}`],
    ] as const) {
      const res = await api.request(
        method,
        path,
        method === "POST" ? { name: "x", scope: "write" } : undefined,
      );
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.json.detail).toBe("This needs a signed-in session, not an API token.");
    }
    const writer = withToken((await client.post("/api/tokens", { name: "w", scope: "write" })).json.token);
    expect((await writer.get("/api/tokens")).status).toBe(403);
  });

  it("stop working when they expire, and refuse bad input and other people's tokens", async () => {
    const { client } = await signedIn();
    const made = (await client.post("/api/tokens", { name: "short", scope: "read", expires_in_days: 30 }))
      .json;
    await server.deps.db
      .update(apiTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiTokens.id, made.id));
    expect((await withToken(made.token).get("/api/tasks")).status).toBe(401);
    expect((await withToken("atz_not-a-real-token").get("/api/tasks")).status).toBe(401);

    expect((await client.post("/api/tokens", { name: "x", scope: "read", expires_in_days: 7 })).status).toBe(
      422,
    );
    expect((await client.post("/api/tokens", { name: "x", scope: "admin" })).status).toBe(422);
    expect((await client.post("/api/tokens", { name: " ", scope: "read" })).status).toBe(422);
    const other = await signedIn();
    expect((await other.client.request("DELETE", `/api/tokens/${made.id}`)).status).toBe(404);
    expect((await other.client.get("/api/tokens")).json.tokens).toEqual([]);
  });

  it("are capped at 20 active ones per user: revoked and expired ones don't count", async () => {
    const { client } = await signedIn();
    const make = (name: string) => client.post("/api/tokens", { name, scope: "read", expires_in_days: 30 });
    const made: string[] = [];
    for (let i = 0; i < 19; i++) {
      const res = await make(`t${i}`);
      expect(res.status).toBe(201);
      made.push(res.json.id);
    }
    // Two at once at 19: the lock on the user's row lets exactly one of them through.
    const race = await Promise.all([make("a"), make("b")]);
    expect(race.map((r) => r.status).sort()).toEqual([201, 422]);
    const refused = await make("one too many");
    expect(refused.status).toBe(422);
    expect(refused.json.detail).toBe(FULL);
    // tRPC answers the same refusal (the Settings page shows its detail).
    const trpc = await trpcError(
      trpcHttp(client).tokens.create.mutate({ name: "via trpc", scope: "read", expires_in_days: 30 }),
    );
    expect(trpc.data).toMatchObject({ code: "UNPROCESSABLE_CONTENT", detail: FULL });

    expect((await client.request("DELETE", `/api/tokens/${made[0]}`)).status).toBe(204);
    expect((await make("after a revocation")).status).toBe(201);
    expect((await make("one too many again")).status).toBe(422);

    await server.deps.db
      .update(apiTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiTokens.id, made[1]!));
    expect((await make("after an expiry")).status).toBe(201);
    expect((await make("one too many once more")).status).toBe(422);
    // Another user has a cap of their own.
    expect((await (await signedIn()).client.post("/api/tokens", { name: "x", scope: "read" })).status).toBe(
      201,
    );
  });

  it("take their cap from API_TOKENS_PER_USER", async () => {
    const small = await startTestServer({ API_TOKENS_PER_USER: "2" });
    onTestFinished(() => small.stop());
    const client = new TestClient(small.url);
    await registerUser(client);
    for (const name of ["one", "two"]) {
      expect((await client.post("/api/tokens", { name, scope: "read" })).status).toBe(201);
    }
    const refused = await client.post("/api/tokens", { name: "three", scope: "read" });
    expect(refused.status).toBe(422);
    expect(refused.json.detail).toBe(
      "You have 2 active API tokens, the most allowed. Revoke one you no longer use first.",
    );
  });

  it("are rate limited per token", async () => {
    const { client } = await signedIn();
    const a = withToken((await client.post("/api/tokens", { name: "a", scope: "read" })).json.token);
    const b = withToken((await client.post("/api/tokens", { name: "b", scope: "read" })).json.token);
    const statuses: number[] = [];
    for (let i = 0; i < 9; i++) statuses.push((await a.get("/api/tasks")).status);
    expect(statuses.slice(0, 8)).toEqual(Array(8).fill(200));
    expect(statuses[8]).toBe(429);
    // The MCP server shares the token's budget.
    const mcp = await fetch(new URL("/mcp", server.url), {
      method: "POST",
      headers: { authorization: `Bearer ${a.bearer}`, "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
    });
    expect(mcp.status).toBe(429);
    // Another token of the same user has its own budget.
    expect((await b.get("/api/tasks")).status).toBe(200);
  });
});
