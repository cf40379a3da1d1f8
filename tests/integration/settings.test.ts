import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeJira, startFakeJira } from "../fakes/jira";
import { registerUser, TestClient } from "../support/http-client";
import { startTestServer, type TestServer } from "../support/server";
import { trpcHttp } from "../support/trpc-client";

let jira: FakeJira;
let server: TestServer;
beforeAll(async () => {
  jira = await startFakeJira();
  jira.addUser({
    email: "lead@example.com",
    apiToken: "atl-secret-token",
    accountId: "5b10ac8d82e05b22cc7d4ef5",
  });
  // The fake site is on loopback, which a typed JIRA URL reaches only where the operator allows.
  server = await startTestServer({
    JIRA_ALLOWED_ORIGINS: "http://127.0.0.1:*",
    OUTBOUND_ALLOW: new URL(jira.url).host,
  });
});
afterAll(async () => {
  await server?.stop();
  await jira?.close();
});

describe("settings on the server", () => {
  it("keeps general settings per user, so they follow the user to another browser", async () => {
    const tab = new TestClient(server.url);
    const { email, password } = await registerUser(tab);
    expect((await tab.get("/api/settings")).json).toEqual({
      darkMode: false,
      notifications: true,
      reviewReading: true,
    });
    const updated = await tab.request("PATCH", "/api/settings", { darkMode: true });
    expect(updated.json).toEqual({ darkMode: true, notifications: true, reviewReading: true });
    const other = new TestClient(server.url);
    await other.post("/api/auth/login", { email, password });
    expect(await trpcHttp(other).settings.get.query()).toEqual({
      darkMode: true,
      notifications: true,
      reviewReading: true,
    });
    expect((await tab.request("PATCH", "/api/settings", { theme: "pink" })).status).toBe(422);
    // Whether to check the reading before planning (issue 38) is kept the same way.
    const noReview = await tab.request("PATCH", "/api/settings", { reviewReading: false });
    expect(noReview.json).toEqual({ darkMode: true, notifications: true, reviewReading: false });
    expect((await other.get("/api/settings")).json.reviewReading).toBe(false);
  });

  it("checks JIRA credentials against the site, stores them encrypted and shows only non-secret parts", async () => {
    const tab = new TestClient(server.url);
    await registerUser(tab);
    const body = {
      jira_url: jira.url,
      user_email: "lead@example.com",
      api_token: "atl-secret-token",
      account_id: "5b10ac8d82e05b22cc7d4ef5",
    };
    const wrong = await tab.post("/api/jira/credentials", { ...body, api_token: "nope" });
    expect(wrong.status).toBe(400);
    expect(wrong.json.detail).toBe(
      "JIRA rejected the email or API token. Create a token at id.atlassian.com and try again.",
    );
    expect(
      (await tab.post("/api/jira/credentials", { ...body, user_email: "not-an-email" })).json.detail,
    ).toBe("Invalid email format");
    expect((await tab.post("/api/jira/credentials", { ...body, account_id: "" })).json.detail).toBe(
      "Account ID is required",
    );
    const ok = await tab.post("/api/jira/credentials", body);
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({ connected: true, jira_url: jira.url, user_email: "lead@example.com" });
    const status = await tab.get("/api/integrations");
    expect(JSON.stringify(status.json)).not.toContain("atl-secret-token");
  });

  it("never calls a JIRA URL outside the allowed origins", async () => {
    const strict = await startTestServer(); // default: https://*.atlassian.net only
    try {
      const tab = new TestClient(strict.url);
      await registerUser(tab);
      const before = jira.requests.length;
      const res = await tab.post("/api/jira/credentials", {
        jira_url: jira.url,
        user_email: "lead@example.com",
        api_token: "atl-secret-token",
        account_id: "5b10ac8d82e05b22cc7d4ef5",
      });
      expect(res.status).toBe(422);
      expect(res.json.detail).toBe("The JIRA URL must start with https://");
      expect(jira.requests.length).toBe(before);
    } finally {
      await strict.stop();
    }
  });
});
