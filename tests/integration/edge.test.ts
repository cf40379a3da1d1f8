import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessions } from "../../src/server/db/schema/index";
import { registerUser, TestClient, uniqueEmail } from "../support/http-client";
import { startTestServer, type TestServer } from "../support/server";

/** What every /api and /trpc answer shares: caching, cross-site writes, the client's address. */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ TRUST_PROXY: "true" });
});
afterAll(async () => {
  await server?.stop();
});

describe("caching", () => {
  it("answers with Cache-Control: no-store, signed in or not, REST and tRPC", async () => {
    const client = new TestClient(server.url);
    await registerUser(client);
    for (const path of ["/api/auth/me", "/api/tasks", "/trpc/auth.me", "/api/blog/posts", "/api/nothing"]) {
      const res = await client.get(path);
      expect(res.headers.get("cache-control"), path).toBe("no-store");
    }
  });
});

describe("cross-site writes (login CSRF and friends)", () => {
  const evil = { origin: "https://evil.example", "content-type": "text/plain" };

  it("refuses a forged login form, and a cross-site registration creates nothing", async () => {
    const owner = new TestClient(server.url);
    const { email, password } = await registerUser(owner);
    const page = new TestClient(server.url);
    page.origin = null;
    const login = await page.request("POST", "/api/auth/login", JSON.stringify({ email, password }), evil);
    expect(login.status).toBe(403);
    expect(login.json.detail).toBe("Cross-site request blocked");
    expect(login.headers.getSetCookie()).toHaveLength(0);

    const newcomer = uniqueEmail("csrf");
    const reg = await page.request(
      "POST",
      "/api/auth/register",
      JSON.stringify({ email: newcomer, password: "a long enough passphrase" }),
      { "sec-fetch-site": "cross-site", "content-type": "application/json" },
    );
    expect(reg.status).toBe(403);
    const api = new TestClient(server.url);
    api.origin = null;
    expect(
      (await api.post("/api/auth/login", { email: newcomer, password: "a long enough passphrase" })).status,
    ).toBe(401);
  });

  it("refuses a cross-site tRPC mutation as well", async () => {
    const page = new TestClient(server.url);
    page.origin = null;
    const res = await page.request(
      "POST",
      "/trpc/auth.login",
      JSON.stringify({ json: { email: "x@example.com", password: "whatever123" } }),
      { origin: "https://evil.example", "content-type": "application/json" },
    );
    expect(res.status).toBe(403);
  });

  it("lets our own pages and API clients (no Origin) through", async () => {
    const owner = new TestClient(server.url);
    const { email, password } = await registerUser(owner);
    const page = new TestClient(server.url); // sends our own Origin, like the SPA
    expect((await page.post("/api/auth/login", { email, password })).status).toBe(200);
    const api = new TestClient(server.url);
    api.origin = null;
    expect((await api.post("/api/auth/login", { email, password })).status).toBe(200);
  });
});

describe("behind a proxy (TRUST_PROXY)", () => {
  it("takes the right-most X-Forwarded-For entry, the one the proxy added", async () => {
    const owner = new TestClient(server.url);
    const { email, password } = await registerUser(owner);
    const api = new TestClient(server.url);
    api.origin = null;
    const res = await api.post(
      "/api/auth/login",
      { email, password },
      { "x-forwarded-for": "6.6.6.6, 198.51.100.7" }, // the client wrote 6.6.6.6 itself
    );
    expect(res.status).toBe(200);
    const sessionId = (res.json.access_token as string).split(".")[0]!;
    const [row] = await server.deps.db.select().from(sessions).where(eq(sessions.id, sessionId));
    expect(row?.ip).toBe("198.51.100.7");
  });
});

describe("GitHub repository names", () => {
  it.each(["octo/..", "../octo", "octo/repo/../../user", "-octo/repo"])(
    "refuses %s as an export target",
    async (repository) => {
      const client = new TestClient(server.url);
      await registerUser(client);
      const created = await client.post("/api/tasks", { description: "A notes app with sign-in." });
      const res = await client.post("/api/github/start-export", {
        task_id: created.json.id,
        config: { repository },
      });
      expect(res.status).toBe(422);
      expect(res.json.detail).toBe("Repository must look like owner/name");
    },
  );
});
