import type { TRPCClientError } from "@trpc/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { registerUser, TestClient, uniqueEmail } from "../support/http-client";
import { startTestServer, type TestServer } from "../support/server";
import { trpcError, trpcHttp, trpcWs } from "../support/trpc-client";
import { verifyEmailThroughOutbox } from "../support/verify-email";
import { waitUntil } from "../support/wait";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ ADMIN_EMAILS: "admin.trpc@example.com" });
});
afterAll(() => server?.stop());

describe("tRPC over HTTP batching (superjson)", () => {
  it("registers, reads the session and logs out through the same services as /api", async () => {
    const tab = new TestClient(server.url);
    const trpc = trpcHttp(tab);
    const email = uniqueEmail("trpc");
    const res = await trpc.auth.register.mutate({ email, password: "trpc password", full_name: "" });
    expect(res.user.email).toBe(email);
    expect(tab.cookies.has("atomize_session")).toBe(true);
    // Batched: two queries in one HTTP request.
    const [me, providers] = await Promise.all([trpc.auth.me.query(), trpc.auth.providers.query()]);
    expect(me.email).toBe(email);
    expect(providers).toEqual({ google: false, devBypass: false });
    // The same account is visible through the REST facade.
    expect((await tab.get("/api/auth/me")).json.id).toBe(me.id);
    await trpc.auth.logout.mutate();
    const err = await trpcError(trpc.auth.me.query());
    expect(err.data.code).toBe("UNAUTHORIZED");
    expect(err.data.httpStatus).toBe(401);
  });

  it("maps service errors to codes with a detail and field errors, without stack traces", async () => {
    const trpc = trpcHttp(new TestClient(server.url));
    const { email } = await registerUser(new TestClient(server.url));
    const dup = await trpcError(trpc.auth.register.mutate({ email, password: "a quiet harbour 7" }));
    expect(dup.data.code).toBe("CONFLICT");
    expect(dup.message).toBe("Email already registered");
    expect(dup.data.stack).toBeUndefined();
    const bad = await trpcError(trpc.auth.login.mutate({ email: "nope", password: "" }));
    expect(bad.data.code).toBe("BAD_REQUEST");
    expect(bad.data.errors).toEqual(
      expect.arrayContaining([{ field: "email", message: "Please enter a valid email address" }]),
    );
  });

  it("guards admin procedures: signed out 401, a user 403, an admin succeeds", async () => {
    const target = await registerUser(new TestClient(server.url));
    const anon = trpcHttp(new TestClient(server.url));
    expect(
      (await trpcError(anon.admin.setUserRole.mutate({ email: target.email, role: "admin" }))).data.code,
    ).toBe("UNAUTHORIZED");
    const userTab = new TestClient(server.url);
    await registerUser(userTab);
    const asUser = trpcHttp(userTab);
    expect(
      (await trpcError(asUser.admin.setUserRole.mutate({ email: target.email, role: "admin" }))).data.code,
    ).toBe("FORBIDDEN");
    const adminTab = new TestClient(server.url);
    await registerUser(adminTab, { email: "admin.trpc@example.com" });
    await verifyEmailThroughOutbox(server, "admin.trpc@example.com"); // ADMIN_EMAILS needs a verified address
    const promoted = await trpcHttp(adminTab).admin.setUserRole.mutate({
      email: target.email,
      role: "admin",
    });
    expect(promoted.role).toBe("admin");
  });

  it("applies the CSRF check to cookie-authenticated tRPC mutations", async () => {
    const tab = new TestClient(server.url);
    await registerUser(tab);
    tab.origin = "https://evil.example";
    const trpc = trpcHttp(tab);
    const err = await trpcError(trpc.auth.logout.mutate());
    expect((err.meta as { response?: Response } | undefined)?.response?.status).toBe(403);
    tab.origin = server.url;
    expect((await trpc.auth.me.query()).email).toBeTruthy(); // the forged logout changed nothing
  });
});

describe("tRPC subscriptions over WebSocket on the same port", () => {
  it("streams heartbeats to an authenticated client", async () => {
    const { access_token } = await registerUser(new TestClient(server.url));
    const ws = trpcWs(server.url, { token: access_token });
    try {
      const beats: number[] = [];
      await new Promise<void>((resolve, reject) => {
        const sub = ws.client.system.heartbeat.subscribe(
          { intervalMs: 1000 },
          {
            onData: (d) => {
              beats.push(d.seq);
              if (beats.length === 2) {
                sub.unsubscribe();
                resolve();
              }
            },
            onError: reject,
          },
        );
      });
      expect(beats).toEqual([0, 1]);
    } finally {
      ws.close();
    }
  });

  it("refuses a protected subscription without a session", async () => {
    const ws = trpcWs(server.url);
    try {
      const err = await new Promise<TRPCClientError<never>>((resolve) => {
        ws.client.system.heartbeat.subscribe(undefined, {
          onData: () => {},
          onError: (e) => resolve(e as TRPCClientError<never>),
        });
      });
      expect((err.data as unknown as { code: string }).code).toBe("UNAUTHORIZED");
    } finally {
      ws.close();
    }
  });

  it("rejects a cookie-carrying upgrade from a foreign origin (cross-site WebSocket hijacking)", async () => {
    const tab = new TestClient(server.url);
    await registerUser(tab);
    const status = await new Promise<number>((resolve) => {
      const sock = new WebSocket(`${server.url.replace("http", "ws")}/trpc`, {
        headers: { cookie: tab.cookieHeader(), origin: "https://evil.example" },
      });
      sock.on("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
      sock.on("open", () => {
        sock.close();
        resolve(101);
      });
      sock.on("error", () => {});
    });
    expect(status).toBe(403);
  });

  it("a message without `input` runs a procedure that takes none, and names the input one needs", async () => {
    const { access_token } = await registerUser(new TestClient(server.url));
    const sock = new WebSocket(`${server.url.replace("http", "ws")}/trpc?connectionParams=1`);
    const answers: Array<Record<string, any>> = [];
    sock.on("message", (m) => answers.push(JSON.parse(String(m))));
    await new Promise<void>((resolve, reject) => {
      sock.once("open", () => resolve());
      sock.once("error", reject);
    });
    try {
      sock.send(JSON.stringify({ method: "connectionParams", data: { token: access_token } }));
      // A message that cannot be parsed is answered with id null: wait for either.
      const answerTo = (id: number) =>
        waitUntil(() => answers.find((a) => a.id === id || a.id === null), {
          timeoutMs: 5_000,
          message: () => `an answer to ${id}; got ${JSON.stringify(answers)}`,
        });
      sock.send(JSON.stringify({ id: 1, method: "query", params: { path: "tasks.list" } }));
      expect(await answerTo(1)).toMatchObject({ id: 1, result: { data: { json: { total: 0 } } } });
      sock.send(JSON.stringify({ id: 2, method: "query", params: { path: "tasks.get" } }));
      expect(await answerTo(2)).toMatchObject({
        id: 2,
        error: {
          json: {
            message: "tasks.get needs an input; none was sent.",
            data: { code: "BAD_REQUEST", errors: [{ field: "input" }] },
          },
        },
      });
      sock.send(JSON.stringify({ id: 3, method: "mutation", params: { path: "tasks.create", input: null } }));
      expect((await answerTo(3)).error.json.message).toBe("tasks.create needs an input; none was sent.");
      // The same answer over HTTP.
      const http = new TestClient(server.url);
      http.bearer = access_token;
      const res = await http.get("/trpc/tasks.get");
      expect(res.status).toBe(400);
      expect(res.json.error.json.message).toBe("tasks.get needs an input; none was sent.");
    } finally {
      sock.close();
    }
  });

  it("answers an unknown WebSocket path with 404", async () => {
    const status = await new Promise<number>((resolve) => {
      const sock = new WebSocket(`${server.url.replace("http", "ws")}/nope`);
      sock.on("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
      sock.on("error", () => {});
    });
    expect(status).toBe(404);
  });
});
