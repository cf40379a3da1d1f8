import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NUL_MESSAGE, TOO_DEEP_MESSAGE } from "../../src/server/lib/forbidden-text";
import { registerUser, TestClient } from "../support/http-client";
import { startTestServer, type TestServer } from "../support/server";
import { verifyEmailThroughOutbox } from "../support/verify-email";

// Every /api route, with a placeholder for ids. Garbage must get a 4xx with a detail, never a 500.
const ROUTES: Array<[string, string]> = [
  ["POST", "/api/auth/register"],
  ["POST", "/api/auth/login"],
  ["POST", "/api/auth/refresh-token"],
  ["POST", "/api/auth/google/exchange"],
  ["POST", "/api/exchange-auth-code"],
  ["GET", "/api/auth/google/authorize?redirect_uri=%00"],
  ["GET", "/api/tasks?page=-1&page_size=abc&top_level_only=x"],
  ["GET", "/api/tasks/stats?top_level_only=%zz"],
  ["POST", "/api/tasks"],
  ["GET", "/api/tasks/:id"],
  ["GET", "/api/tasks/:id/tree"],
  ["GET", "/api/tasks/:id/requirements"],
  ["GET", "/api/tasks/:id/reading"],
  ["PUT", "/api/tasks/:id/reading"],
  ["POST", "/api/tasks/:id/plan"],
  ["GET", "/api/tasks/:id/tree/compact"],
  ["GET", "/api/tasks/:id/actuals"],
  ["GET", "/api/tasks/:id/scope-changes?since=%00"],
  ["GET", "/api/tasks/:id/schedule?team_size=%zz&calibrate=%00"],
  ["PATCH", "/api/tasks/:id"],
  ["DELETE", "/api/tasks/:id"],
  ["DELETE", "/api/tasks/:id/subtask"],
  ["POST", "/api/tasks/:id/restart-decomposition"],
  ["POST", "/api/tasks/:id/complete"],
  ["PATCH", "/api/tasks/:id/event-model"],
  ["POST", "/api/tasks/:id/add-task"],
  ["POST", "/api/tasks/:id/approve"],
  ["POST", "/api/tasks/:id/reject"],
  ["POST", "/api/tasks/:id/resubmit"],
  // Claims and an agent's planning (issues 40 and 41).
  ["POST", "/api/tasks/:id/claim"],
  ["DELETE", "/api/tasks/:id/claim"],
  ["GET", "/api/tasks/:id/claims"],
  ["POST", "/api/projects/:id/claim-next"],
  ["GET", "/api/projects/:id/planning"],
  ["POST", "/api/projects/:id/planning/stop"],
  ["POST", "/api/projects/:id/planning/cancel"],
  ["POST", "/api/tasks/:id/comments"],
  ["PATCH", "/api/tasks/:id/comments/:id"],
  ["DELETE", "/api/tasks/:id/comments/:id"],
  ["GET", "/api/tasks/:id/reviews"],
  ["GET", "/api/tasks/:id/activity?limit=:id&before=:id"],
  ["POST", "/api/tasks/:id/reviews"],
  // Teams (issue 41).
  ["POST", "/api/teams"],
  ["PATCH", "/api/teams/:id"],
  ["GET", "/api/teams/:id/members"],
  ["PATCH", "/api/teams/:id/members/:id"],
  ["DELETE", "/api/teams/:id/members/:id"],
  ["POST", "/api/teams/:id/invitations"],
  ["GET", "/api/teams/:id/invitations"],
  ["DELETE", "/api/teams/:id/invitations/:id"],
  ["POST", "/api/invitations/:id/accept"],
  ["PATCH", "/api/settings"],
  ["POST", "/api/trello/credentials"],
  ["POST", "/api/jira/credentials"],
  ["POST", "/api/github/connect"],
  ["POST", "/api/jira/start-export"],
  ["POST", "/api/trello/start-export"],
  ["POST", "/api/github/start-export"],
  ["GET", "/api/exports/:id"],
  ["POST", "/api/exports/:id/retry"],
  ["GET", "/api/blog/posts?page=0&page_size=9999&search=%27%22%3B--"],
  ["GET", "/api/blog/posts/:id"],
  ["POST", "/api/blog/subscribe"],
  ["GET", "/api/blog/unsubscribe?token=:id"],
  ["POST", "/api/admin/blog/posts"],
  ["GET", "/api/admin/blog/posts/:id"],
  ["PATCH", "/api/admin/blog/posts/:id"],
  ["DELETE", "/api/admin/blog/posts/:id"],
  ["DELETE", "/api/admin/blog/subscriptions/:id"],
  ["POST", "/api/uploads/blog-image"],
  // Outside /api, paths that carry user input.
  ["GET", "/blog/:id"],
  ["GET", "/uploads/:id"],
  ["GET", "/blog/rss.xml?page=:id"],
];

const IDS = [
  "not-a-uuid",
  "00000000-0000-0000-0000-000000000000",
  "%00",
  "..%2F..%2Fetc%2Fpasswd",
  "x".repeat(300),
];
const BODIES = [
  "{not json",
  "[1,2,3]",
  "null",
  '"a string"',
  JSON.stringify({
    description: ["x"],
    email: 5,
    password: {},
    config: "nope",
    updates: [],
    task: 1,
    title: null,
  }),
  JSON.stringify({ unexpected: true, __proto__: { polluted: 1 }, constructor: { prototype: { x: 1 } } }),
  JSON.stringify({
    description: "\u0000\ud800",
    email: "a@b.co",
    password: "x".repeat(5000),
    reason: "",
    content: "<script>",
  }),
];

let server: TestServer;
let admin: TestClient;
let anon: TestClient;
beforeAll(async () => {
  // A built SPA to fall back to, so /blog/{slug} goes through the crawler-metadata path.
  const clientDir = mkdtempSync(path.join(tmpdir(), "atomize-fuzz-client-"));
  writeFileSync(
    path.join(clientDir, "index.html"),
    "<!doctype html><html><head><title>Atomize</title></head><body></body></html>",
  );
  server = await startTestServer(
    { ADMIN_EMAILS: "fuzz.admin@example.com", JOBS_ENABLED: "false" },
    { clientDir },
  );
  admin = new TestClient(server.url);
  await registerUser(admin, { email: "fuzz.admin@example.com" });
  await verifyEmailThroughOutbox(server, "fuzz.admin@example.com"); // admin only once verified
  anon = new TestClient(server.url);
});
afterAll(() => server?.stop());

describe("bad input never produces a 500", () => {
  it("answers every route's garbage with a 4xx and a detail, signed in as an admin or not at all", async () => {
    const failures: string[] = [];
    for (const client of [admin, anon]) {
      for (const [method, template] of ROUTES) {
        for (const id of IDS) {
          const path = template.replaceAll(":id", id);
          const bodies = method === "GET" || method === "DELETE" ? [undefined] : BODIES;
          for (const body of bodies) {
            const res = await client.request(method, path, body);
            const explained =
              typeof res.json?.detail === "string" ||
              /^\s*</.test(res.text) ||
              (!path.startsWith("/api") && res.status < 500);
            if (res.status >= 500 || !explained) {
              failures.push(
                `${client === admin ? "admin" : "anon"} ${method} ${path} ${String(body).slice(0, 40)} -> ${res.status} ${res.text.slice(0, 120)}`,
              );
            }
          }
          if (!template.includes(":id")) break;
        }
      }
    }
    expect(failures).toEqual([]);
    expect(Object.prototype).not.toHaveProperty("polluted");
  }, 120_000);
});

describe("JSON nested too deeply", () => {
  const nested = (levels: number) => `${"[".repeat(levels)}${"]".repeat(levels)}`;

  it("is refused as too deep (not as holding a NUL) with a 422, on /api and tRPC", async () => {
    const rest = await admin.request("POST", "/api/tasks", `{"description":${nested(100)}}`);
    expect(rest.status).toBe(422);
    expect(rest.json).toEqual({
      detail: TOO_DEEP_MESSAGE,
      errors: [{ field: "body", message: TOO_DEEP_MESSAGE }],
    });
    // Within the limit, the route's own validation answers.
    const shallow = await admin.request("POST", "/api/tasks", `{"description":${nested(60)}}`);
    expect(shallow.status).toBe(422);
    expect([TOO_DEEP_MESSAGE, NUL_MESSAGE]).not.toContain(shallow.json.detail);

    // A tRPC query's input comes in the URL, past the body check: the procedure's own edge check.
    const input = encodeURIComponent(`{"json":{"id":${nested(100)}}}`);
    const query = await admin.get(`/trpc/tasks.get?input=${input}`);
    expect(query.status).toBe(422);
    expect(query.json.error.json.message).toBe(TOO_DEEP_MESSAGE);
    const mutation = await admin.request(
      "POST",
      "/trpc/tasks.create",
      `{"json":{"description":${nested(100)}}}`,
    );
    expect(mutation.status).toBe(422);
    expect(mutation.json.detail).toBe(TOO_DEEP_MESSAGE);
  });
});
