import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { operationGroups } from "../../src/server/operations/all";
import { authRouteDocs } from "../../src/server/rest/auth";
import { blogRouteDocs } from "../../src/server/rest/blog";
import { webhookRouteDocs } from "../../src/server/rest/webhooks";
import { type FakeOpenAI, startFakeOpenAI } from "../fakes/openai";
import { waitForStatus } from "../support/decomposition";
import { registerUser, TestClient } from "../support/http-client";
import { startTestServer, type TestServer } from "../support/server";
import { trpcError, trpcHttp } from "../support/trpc-client";

/**
 * Issue 27: the server calls no address a person chose unless the outbound guard allows it, tells the
 * person only a short status of what answered, sends a saved key only to the address it was saved with,
 * and keeps secrets and privileges to signed-in sessions. Every server here is on 127.0.0.1; the other
 * addresses below are refused before any connection is attempted (that is what is being tested).
 */

const ADMIN = "guard.admin@example.com";
const KEY = "sk-guard-key-0123456789abcdefwxyz";
const SECRET = "internal-secret-7f3a9c";

type Loopback = { server: Server; port: number; url: string; connections: number; requests: string[] };

/** An "internal service" on loopback: counts connections, answers what `reply` says. */
async function internalService(
  reply: (path: string) => { status: number; type: string; body: string },
): Promise<Loopback> {
  const s: Loopback = { server: createServer(), port: 0, url: "", connections: 0, requests: [] };
  s.server.on("connection", () => {
    s.connections += 1;
  });
  s.server.on("request", (req, res) => {
    req.resume();
    s.requests.push(req.url ?? "");
    const out = reply(req.url ?? "");
    res.writeHead(out.status, { "content-type": out.type });
    res.end(out.body);
  });
  await new Promise<void>((r) => s.server.listen(0, "127.0.0.1", r));
  s.port = (s.server.address() as AddressInfo).port;
  s.url = `http://127.0.0.1:${s.port}`;
  return s;
}

let llm: FakeOpenAI;
let other: FakeOpenAI;
/** Not opened by OUTBOUND_ALLOW: a user's settings must never reach it. */
let internal: Loopback;
/** Opened by OUTBOUND_ALLOW, as a self-hosting admin might: answers errors with secrets in their bodies. */
let refusing: Loopback;
/** An opened port where nothing listens. */
let deadUrl: string;
let server: TestServer;

async function signedIn(s: TestServer = server) {
  const client = new TestClient(s.url);
  const { user } = await registerUser(client);
  return { client, trpc: trpcHttp(client), userId: user.id as string };
}

let adminClient: Promise<TestClient> | undefined;
/** The one admin (registered once, signed in as a browser tab). */
function registerAdmin() {
  adminClient ??= (async () => {
    const client = new TestClient(server.url);
    await registerUser(client, { email: ADMIN });
    await server.deps.database.rows(
      sql`update users set role = 'admin', email_verified_at = now() where lower(email) = ${ADMIN}`,
    );
    return client;
  })();
  return adminClient;
}

function withToken(token: string) {
  const c = new TestClient(server.url);
  c.origin = null;
  c.bearer = token;
  return c;
}

async function token(client: TestClient, scope: "read" | "write") {
  const made = await client.post("/api/tokens", { name: `t-${scope}`, scope });
  expect(made.status).toBe(201);
  return withToken(made.json.token);
}

beforeAll(async () => {
  llm = await startFakeOpenAI({ apiKey: KEY });
  other = await startFakeOpenAI({ apiKey: KEY });
  internal = await internalService(() => ({ status: 200, type: "text/plain", body: SECRET }));
  refusing = await internalService((path) =>
    path.startsWith("/openai-shape")
      ? {
          status: 401,
          type: "application/json",
          body: JSON.stringify({
            error: { message: "Incorrect API key provided.", type: "invalid_request_error" },
          }),
        }
      : path.startsWith("/json")
        ? { status: 500, type: "application/json", body: JSON.stringify({ detail: SECRET, error: SECRET }) }
        : { status: 404, type: "text/html", body: `<html><body>${SECRET}</body></html>` },
  );
  const closed = await startFakeOpenAI();
  deadUrl = closed.url;
  await closed.close();
  server = await startTestServer({
    ADMIN_EMAILS: ADMIN,
    LLM_MAX_RETRIES: "0",
    OUTBOUND_ALLOW: [llm.url, other.url, refusing.url, deadUrl].map((u) => new URL(u).host).join(","),
  });
});
afterAll(async () => {
  await server?.stop();
  await llm?.close();
  await other?.close();
  await new Promise((r) => internal?.server.close(r));
  await new Promise((r) => refusing?.server.close(r));
});
beforeEach(() => {
  llm.reset();
  other.reset();
});

describe("the outbound guard on a user's own model provider", () => {
  const forms = (port: number) => [
    `http://127.0.0.1:${port}/v1`,
    `http://localhost:${port}/v1`,
    `http://LOCALHOST.:${port}/v1`,
    `http://2130706433:${port}/v1`,
    `http://127.1:${port}/v1`,
    `http://0x7f.0.0.1:${port}/v1`,
    `http://[::ffff:127.0.0.1]:${port}/v1`,
    `http://[::1]:${port}/v1`,
    `http://0.0.0.0:${port}/v1`,
    // Private, link-local and the other kinds are judged by the same pure function before any connection
    // (literalRefusal, src/server/lib/outbound/fetch.test.ts): a test never sends to them, even if the
    // guard broke.
  ];

  it("refuses every spelling of loopback, private, link-local and the rest, before connecting", async () => {
    const { client } = await signedIn();
    for (const base_url of forms(internal.port)) {
      for (const [method, path] of [
        ["POST", "/api/model-provider/test"],
        ["PUT", "/api/model-provider"],
      ] as const) {
        const res = await client.request(method, path, { base_url, model: "m", api_key: KEY });
        expect(res.status, `${method} ${base_url}`).toBe(422);
        expect(res.json.detail, base_url).toMatch(
          /which Atomize does not connect to for your settings\..*OUTBOUND_ALLOW/,
        );
        expect(res.json.errors).toEqual([{ field: "base_url", message: res.json.detail }]);
        expect(res.text).not.toContain(SECRET);
      }
    }
    expect(internal.connections).toBe(0);
    expect((await client.get("/api/model-provider")).json.configured).toBe(false);
  });

  it("refuses a base URL whose # or ? would pick another path", async () => {
    const { client } = await signedIn();
    for (const base_url of [`${llm.url}#`, `${refusing.url}/any/path#`, `${llm.url}?x=1`]) {
      const res = await client.post("/api/model-provider/test", { base_url, model: "m", api_key: KEY });
      expect(res.status, base_url).toBe(422);
      expect(res.json.errors).toEqual([{ field: "base_url", message: "The base URL cannot contain ? or #" }]);
    }
    expect(refusing.requests).toHaveLength(0);
  });

  it("shows a short status of what answered, never its body", async () => {
    const { client } = await signedIn();
    const test = (path: string) =>
      client.post("/api/model-provider/test", {
        base_url: `${refusing.url}${path}`,
        model: "m",
        api_key: KEY,
      });
    const text = await test("/v1");
    expect(text.json).toMatchObject({
      ok: false,
      status: 404,
      message: "The provider answered HTTP 404 without an error message.",
    });
    const json = await test("/json/v1");
    expect(json.json).toMatchObject({
      ok: false,
      status: 500,
      message: "The provider answered HTTP 500 without an error message.",
    });
    // The one exception: the message of an answer in OpenAI's error shape.
    const openai = await test("/openai-shape/v1");
    expect(openai.json).toMatchObject({ ok: false, status: 401, message: "Incorrect API key provided." });
    for (const res of [text, json, openai]) expect(res.text).not.toContain(SECRET);
  });

  it("says the same of a closed port as of a refused address, so neither can be told apart", async () => {
    const { client } = await signedIn();
    const closed = await client.post("/api/model-provider/test", { base_url: deadUrl, model: "m" });
    expect(closed.json).toEqual({
      ok: false,
      status: null,
      message: "Could not connect to the provider.",
      ms: closed.json.ms,
    });
  });

  it("fails a decomposition, and answers a re-plan, with the status and never the body", async () => {
    const { client, trpc } = await signedIn();
    // A plan made by the outline first, so there is something to re-plan.
    const made = await client.post("/api/tasks", {
      description: "A notes app: write notes, tag them, search them.",
    });
    expect(made.status).toBe(201);
    const planned = await waitForStatus(client, made.json.id, ["completed"]);
    await trpc.modelProviders.saveMine.mutate({ base_url: `${refusing.url}/v1`, model: "m", api_key: KEY });

    const replan = await client.post(`/api/tasks/${planned.id}/replan`, {});
    expect(replan.status).toBe(502);
    expect(replan.json.detail).toMatch(
      /^The AI provider refused the request \(HTTP 404, during .*\)\. Check the model name/,
    );
    expect(replan.text).not.toContain(SECRET);

    const failing = await client.post("/api/tasks", { description: "A todo app with reminders." });
    const failed = await waitForStatus(client, failing.json.id, ["failed"]);
    expect(failed.failure_reason).toMatch(/HTTP 404/);
    expect(JSON.stringify(failed)).not.toContain(SECRET);

    await trpc.modelProviders.saveMine.mutate({ base_url: deadUrl, model: "m", remove_api_key: true });
    const unreachable = await client.post(`/api/tasks/${planned.id}/replan`, {});
    expect(unreachable.status).toBe(502);
    expect(unreachable.json.detail).toMatch(/^The AI provider could not be reached during /);
  });
});

describe("a saved key stays bound to its address", () => {
  it("is not sent to a new base URL by a test or a save; typing it again, or removing it, is needed", async () => {
    const { client } = await signedIn();
    expect(
      (await client.request("PUT", "/api/model-provider", { base_url: llm.url, model: "m", api_key: KEY }))
        .status,
    ).toBe(200);
    // The same address keeps working with the saved key.
    expect(
      (await client.post("/api/model-provider/test", { base_url: `${llm.url}/`, model: "m" })).json.ok,
    ).toBe(true);

    const moved = { base_url: other.url, model: "m" };
    for (const [method, path] of [
      ["POST", "/api/model-provider/test"],
      ["PUT", "/api/model-provider"],
    ] as const) {
      const res = await client.request(method, path, moved);
      expect(res.status, path).toBe(422);
      expect(res.json.errors[0]).toMatchObject({ field: "api_key" });
      expect(res.json.detail).toMatch(/^Enter the API key again to use another base URL/);
    }
    expect(other.requests).toHaveLength(0);
    expect((await client.get("/api/model-provider")).json.base_url).toBe(llm.url);

    // With the key typed again it goes there; without a key, only once the saved one is removed.
    expect((await client.post("/api/model-provider/test", { ...moved, api_key: KEY })).json.ok).toBe(true);
    expect(other.requests).toHaveLength(1);
    const removed = await client.request("PUT", "/api/model-provider", { ...moved, remove_api_key: true });
    expect(removed.json).toMatchObject({ base_url: other.url, api_key_saved: false });
  });

  it("binds the instance's key the same way on the admin routes", async () => {
    const admin = await registerAdmin();
    expect(
      (
        await admin.request("PUT", "/api/admin/model-provider", {
          base_url: llm.url,
          model: "m",
          api_key: KEY,
        })
      ).status,
    ).toBe(200);
    const moved = { base_url: other.url, model: "m" };
    expect((await admin.post("/api/admin/model-provider/test", moved)).status).toBe(422);
    expect((await admin.request("PUT", "/api/admin/model-provider", moved)).status).toBe(422);
    expect(other.requests).toHaveLength(0);
    // The instance's model, an admin's choice, may be on this machine: its test reaches loopback.
    const local = await admin.post("/api/admin/model-provider/test", {
      base_url: `${internal.url}/v1`,
      model: "m",
      api_key: "k",
    });
    expect(local.json).toMatchObject({
      ok: false,
      status: 200,
      message: "The provider answered, but not with a chat completion: check the base URL.",
    });
    expect(internal.requests.length).toBeGreaterThan(0);
    expect(local.text).not.toContain(SECRET);
    await admin.request("DELETE", "/api/admin/model-provider");
  });
});

describe("secrets and privileges need a signed-in session", () => {
  it("refuses a write token saving, testing or removing a provider, and an admin's token granting a role", async () => {
    const admin = await registerAdmin();
    const writer = await token(admin, "write");
    for (const [method, path] of [
      ["PUT", "/api/model-provider"],
      ["POST", "/api/model-provider/test"],
      ["DELETE", "/api/model-provider"],
      ["PUT", "/api/admin/model-provider"],
      ["POST", "/api/admin/model-provider/test"],
      ["DELETE", "/api/admin/model-provider"],
    ] as const) {
      const res = await writer.request(method, path, { base_url: llm.url, model: "m" });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.json.detail).toBe("This needs a signed-in session, not an API token.");
    }
    expect(llm.requests).toHaveLength(0);
    const { client } = await signedIn();
    const target = (await client.get("/api/auth/me")).json.email as string;
    const refused = await trpcError(
      trpcHttp(writer).admin.setUserRole.mutate({ email: target, role: "admin" }),
    );
    expect(refused.data.code).toBe("FORBIDDEN");
    expect(refused.message).toBe("This needs a signed-in session, not an API token.");
    const rows = await server.deps.database.rows<{ role: string }>(
      sql`select role from users where lower(email) = ${target}`,
    );
    expect(rows[0]!.role).toBe("user");
  });

  it("refuses an admin's read token on every route that changes something, hand-written ones included", async () => {
    const admin = await registerAdmin();
    const reader = await token(admin, "read");
    const routes = [
      ...operationGroups.flatMap((g) =>
        Object.values(g.operations).flatMap((op) =>
          op.access === "public" ? [] : (op.rest ?? []).map((r) => ({ method: r.method, path: r.path })),
        ),
      ),
      ...[...authRouteDocs, ...blogRouteDocs, ...webhookRouteDocs].filter(
        (d) => d.access && d.access !== "public",
      ),
    ].filter((r) => r.method !== "get");
    expect(routes.length).toBeGreaterThan(40);
    expect(routes).toContainEqual(expect.objectContaining({ method: "post", path: "/uploads/blog-image" }));
    const id = "00000000-0000-4000-8000-000000000000";
    for (const route of routes) {
      const path = `/api${route.path.replace(/\{(\w+)\}/g, id)}`;
      const res = await reader.request(route.method.toUpperCase(), path, {});
      expect(res.status, `${route.method} ${route.path}`).toBe(403);
      expect(res.json.detail, route.path).toMatch(/^This (API token is read-only|needs a signed-in session)/);
    }
    // The upload, with a real image, writes nothing either.
    const form = new FormData();
    form.append("file", new Blob([Buffer.from("89504e470d0a1a0a", "hex")], { type: "image/png" }), "a.png");
    const upload = await fetch(`${server.url}/api/uploads/blog-image`, {
      method: "POST",
      headers: { authorization: `Bearer ${reader.bearer}` },
      body: form,
    });
    expect(upload.status).toBe(403);
  });
});
