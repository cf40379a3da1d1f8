import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerUser, TestClient } from "../support/http-client";
import { startTestServer, type TestServer } from "../support/server";

// Client addresses come from X-Forwarded-For (TRUST_PROXY): one address per request.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    TRUST_PROXY: "true",
    REGISTRATIONS_PER_IP_PER_HOUR: "1000",
    LOGIN_MAX_FAILURES_PER_ACCOUNT: "5",
    LOGIN_MAX_FAILURES_PER_IP: "1000",
    LOGIN_LOCK_MINUTES: "15",
    LOGIN_ACCOUNT_BACKOFF_AFTER: "10",
    LOGIN_ACCOUNT_BACKOFF_MAX_SECONDS: "2",
  });
});
afterAll(() => server?.stop());

const LOCKED = /^Too many failed login attempts\. Please try again in \d+ minutes?\.$/;
let lastOctet = 0;
/** A fresh client address for each call. */
const nextIp = () => {
  lastOctet += 1;
  return `198.51.${Math.floor(lastOctet / 250)}.${(lastOctet % 250) + 1}`;
};
const login = (email: string, password: string, ip: string) =>
  new TestClient(server.url).post("/api/auth/login", { email, password }, { "x-forwarded-for": ip });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("failures of one account from one address", () => {
  it("evaluates exactly LOGIN_MAX_FAILURES_PER_ACCOUNT of 25 parallel wrong passwords; the rest get 429 + Retry-After", async () => {
    const victim = await registerUser(new TestClient(server.url));
    const attacker = nextIp();
    const results = await Promise.all(
      Array.from({ length: 25 }, (_, i) => login(victim.email, `wrong password ${i}`, attacker)),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20);
    for (const r of results.filter((x) => x.status === 429)) {
      expect(r.json.detail).toMatch(LOCKED);
      expect(Number(r.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    // The pair is locked for LOGIN_LOCK_MINUTES, the right password included.
    const locked = await login(victim.email, victim.password, attacker);
    expect(locked.status).toBe(429);
    expect(locked.json.detail).toBe("Too many failed login attempts. Please try again in 15 minutes.");
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(14 * 60);
    expect(Number(locked.headers.get("retry-after"))).toBeLessThanOrEqual(15 * 60);
  });

  it("locks the attacker's address out of the account while the owner signs in from another address", async () => {
    const victim = await registerUser(new TestClient(server.url));
    const attacker = nextIp();
    for (let i = 0; i < 5; i++) {
      expect((await login(victim.email, `guess number ${i}`, attacker)).status).toBe(401);
    }
    expect((await login(victim.email, victim.password, attacker)).status).toBe(429);
    const owner = await login(victim.email, victim.password, nextIp());
    expect(owner.status).toBe(200);
    expect(owner.json.user.email).toBe(victim.email);
    // Still locked for the attacker after the owner's success.
    expect((await login(victim.email, "one more guess", attacker)).status).toBe(429);
  });

  it("starts the pair afresh after a successful sign-in", async () => {
    const user = await registerUser(new TestClient(server.url));
    const ip = nextIp();
    for (let i = 0; i < 4; i++) expect((await login(user.email, `typo ${i}`, ip)).status).toBe(401);
    expect((await login(user.email, user.password, ip)).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await login(user.email, `typo again ${i}`, ip)).status).toBe(401);
    expect((await login(user.email, "typo again 5", ip)).status).toBe(429);
  });

  it("limits unknown addresses the same way, so the answers tell nothing about which accounts exist", async () => {
    const ip = nextIp();
    const nobody = `nobody.${Date.now()}@example.com`;
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => login(nobody, `guess ${i}`, ip)));
    expect(results.filter((r) => r.status === 401)).toHaveLength(5);
    expect(results.filter((r) => r.status === 429)).toHaveLength(7);
  });
});

describe("failures of one account from many addresses", () => {
  it("slows every try past LOGIN_ACCOUNT_BACKOFF_AFTER failures, one evaluation per delay, and lets the owner in after at most the cap", async () => {
    const victim = await registerUser(new TestClient(server.url));
    // Ten failures from two addresses (five each, the pair limit) reach the backoff threshold.
    for (let i = 0; i < 10; i++) {
      expect((await login(victim.email, `spray ${i}`, i < 5 ? "203.0.113.1" : "203.0.113.2")).status).toBe(
        401,
      );
    }
    const waiting = await login(victim.email, "spray 10", nextIp());
    expect(waiting.status).toBe(429);
    expect(waiting.json.detail).toBe("Too many failed login attempts. Please try again in 1 minute.");
    const retryAfter = Number(waiting.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(2); // LOGIN_ACCOUNT_BACKOFF_MAX_SECONDS

    // Once the delay has passed, a parallel burst from ten addresses gets one evaluation.
    await sleep(retryAfter * 1000 + 100);
    const burst = await Promise.all(
      Array.from({ length: 10 }, (_, i) => login(victim.email, `burst ${i}`, nextIp())),
    );
    expect(burst.filter((r) => r.status === 401)).toHaveLength(1);
    expect(burst.filter((r) => r.status === 429)).toHaveLength(9);

    // The owner waits at most the cap, then signs in with the right password.
    const early = await login(victim.email, victim.password, nextIp());
    expect(early.status).toBe(429);
    const wait = Number(early.headers.get("retry-after"));
    expect(wait).toBeLessThanOrEqual(2);
    await sleep(wait * 1000 + 100);
    const owner = await login(victim.email, victim.password, nextIp());
    expect(owner.status).toBe(200);
    // The owner's success gives the slot back: another sign-in right away works too.
    expect((await login(victim.email, victim.password, nextIp())).status).toBe(200);
  });

  it("keeps the counters in the database (one row per counter, no password data)", async () => {
    const user = await registerUser(new TestClient(server.url));
    await login(user.email, "not it at all", "192.0.2.77");
    const rows = await server.deps.database.rows<{ key: string; failures: number }>(
      sql`select key, failures from auth_throttle where key like ${`%${user.email}%`} or key = 'ip:192.0.2.77' order by key`,
    );
    expect(rows).toEqual([
      { key: `acct-ip:${user.email}|192.0.2.77`, failures: 1 },
      { key: `acct:${user.email}`, failures: 1 },
      { key: "ip:192.0.2.77", failures: 1 },
    ]);
  });
});
