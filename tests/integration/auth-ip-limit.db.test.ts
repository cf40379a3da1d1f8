import { afterAll, beforeAll, expect, it } from "vitest";
import { registerUser, TestClient, uniqueEmail } from "../support/http-client";
import { startTestServer, type TestServer } from "../support/server";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ LOGIN_MAX_FAILURES_PER_IP: "3", LOGIN_MAX_FAILURES_PER_ACCOUNT: "100" });
});
afterAll(() => server?.stop());

it("locks an IP that fails on many accounts, including for an account it never tried", async () => {
  const victim = await registerUser(new TestClient(server.url));
  for (let i = 0; i < 3; i++) {
    const res = await new TestClient(server.url).post("/api/auth/login", {
      email: uniqueEmail("spray"),
      password: "guess-1234",
    });
    expect(res.status).toBe(401);
  }
  const blocked = await new TestClient(server.url).post("/api/auth/login", {
    email: victim.email,
    password: victim.password,
  });
  expect(blocked.status).toBe(429);
  expect(blocked.headers.get("retry-after")).toMatch(/^\d+$/);
  // The account itself is not locked for its owner elsewhere: its counter never moved.
  const rows = await server.deps.database.rows<{ key: string }>(
    (await import("drizzle-orm")).sql`select key from auth_throttle where key like 'acct:%'`,
  );
  expect(rows.map((r) => r.key)).not.toContain(`acct:${victim.email}`);
});
