import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerUser, TestClient } from "../support/http-client";
import { startTestServer, type TestServer } from "../support/server";
import { trpcHttp } from "../support/trpc-client";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ REFRESH_GRACE_SECONDS: "30", REGISTRATIONS_PER_IP_PER_HOUR: "1000" });
});
afterAll(() => server?.stop());

const bearer = (token: string) => {
  const c = new TestClient(server.url);
  c.bearer = token;
  return c;
};
const me = async (token: string) => (await bearer(token).get("/api/auth/me")).status;
const refresh = (token: string) =>
  new TestClient(server.url).post("/api/auth/refresh-token", { refresh_token: token });
const refreshId = (token: string) => token.split(".")[0]!;

describe("refresh grace window", () => {
  it("lets two tabs refresh with the same token at the same moment: both succeed and the session stays", async () => {
    const first = await registerUser(new TestClient(server.url));
    const [a, b] = await Promise.all([refresh(first.refresh_token), refresh(first.refresh_token)]);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(a.json.access_token).not.toBe(b.json.access_token);
    expect(a.json.refresh_token).not.toBe(b.json.refresh_token);
    // Both tabs keep working: the newest secret, and the one it replaced (for the grace window).
    expect(await me(a.json.access_token)).toBe(200);
    expect(await me(b.json.access_token)).toBe(200);
    // Each tab's new refresh token rotates on as usual.
    const a2 = await refresh(a.json.refresh_token);
    expect(a2.status).toBe(200);
    const b2 = await refresh(b.json.refresh_token);
    expect(b2.status).toBe(200);
    expect(await me(b2.json.access_token)).toBe(200);
  });

  it("works for SPA tabs refreshing from the same cookie over tRPC too", async () => {
    const tab = new TestClient(server.url);
    await registerUser(tab);
    const other = new TestClient(server.url);
    for (const [k, v] of tab.cookies) other.cookies.set(k, v);
    const results = await Promise.allSettled([
      trpcHttp(tab).auth.refresh.mutate({}),
      trpcHttp(other).auth.refresh.mutate({}),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "fulfilled"]);
    expect((await tab.get("/api/auth/me")).status).toBe(200);
    expect((await other.get("/api/auth/me")).status).toBe(200);
  });

  it("keeps the access token a refresh replaced valid for the grace window only", async () => {
    const first = await registerUser(new TestClient(server.url));
    const r = await refresh(first.refresh_token);
    expect(r.status).toBe(200);
    // A request in flight with the old access token still works.
    expect(await me(first.access_token)).toBe(200);
    const sessionId = first.access_token.split(".")[0]!;
    const rows = await server.deps.database.rows<{ previous_secret_hash: string; secret_hash: string }>(
      sql`select previous_secret_hash, secret_hash from sessions where id = ${sessionId}`,
    );
    expect(rows[0]!.previous_secret_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0]!.previous_secret_hash).not.toBe(rows[0]!.secret_hash);
    // When the window has passed, only the new one does.
    await server.deps.database.rows(
      sql`update sessions set previous_secret_expires_at = now() - interval '1 second' where id = ${sessionId}`,
    );
    expect(await me(first.access_token)).toBe(401);
    expect(await me(r.json.access_token)).toBe(200);
    // A forged secret never matches either.
    expect(await me(`${sessionId}.${"a".repeat(32)}`)).toBe(401);
  });

  it("still revokes the whole session when a spent token comes back after the window", async () => {
    const first = await registerUser(new TestClient(server.url));
    const r = await refresh(first.refresh_token);
    expect(r.status).toBe(200);
    await server.deps.database.rows(
      sql`update refresh_tokens set used_at = now() - interval '31 seconds' where id = ${refreshId(first.refresh_token)}`,
    );
    const replay = await refresh(first.refresh_token);
    expect(replay.status).toBe(401);
    expect(replay.json.detail).toBe("Invalid or expired refresh token");
    expect(await me(r.json.access_token)).toBe(401);
    expect((await refresh(r.json.refresh_token)).status).toBe(401);
  });

  it("does not let a spent token outlive a logout", async () => {
    const tab = new TestClient(server.url);
    const first = await registerUser(tab);
    expect((await refresh(first.refresh_token)).status).toBe(200);
    expect((await bearer(first.access_token).post("/api/auth/logout")).status).toBe(200);
    expect((await refresh(first.refresh_token)).status).toBe(401);
  });
});

describe("without a grace window", () => {
  it("revokes on the second of two simultaneous refreshes (REFRESH_GRACE_SECONDS=0)", async () => {
    const strict = await startTestServer({ REFRESH_GRACE_SECONDS: "0" });
    try {
      const first = await registerUser(new TestClient(strict.url));
      const post = (token: string) =>
        new TestClient(strict.url).post("/api/auth/refresh-token", { refresh_token: token });
      const results = await Promise.all([post(first.refresh_token), post(first.refresh_token)]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 401]);
      const winner = results.find((r) => r.status === 200)!;
      const check = new TestClient(strict.url);
      check.bearer = winner.json.access_token;
      expect((await check.get("/api/auth/me")).status).toBe(401);
      check.bearer = first.access_token;
      expect((await check.get("/api/auth/me")).status).toBe(401);
    } finally {
      await strict.stop();
    }
  });
});
