import { mkdtempSync, rmSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiRoutes as mountedApiRoutes } from "../../src/server/rest/api";
import { appRouter } from "../../src/server/trpc/router";
import { registerUser, TestClient } from "../support/http-client";
import { type AppProcess, PROCESS_CEILING_MS, spawnApp, waitForReady } from "../support/process";
import { frame, rawUpgrade } from "../support/raw-ws";
import { createScratchDatabase, freePort, testDatabaseUrl } from "../support/server";
import { trpcWs } from "../support/trpc-client";
import { waitUntil } from "../support/wait";

/**
 * The attacker's view: the real `npm start` process (so a crash is a dead process, not a caught test
 * error) receives malformed WebSocket frames, unparsable upgrade targets, oversized batches, slow
 * bodies, connection floods and NUL bytes on every route and procedure, and must keep answering /healthz.
 */
let app: AppProcess;
let port: number;
let dataDir: string;
let scratch: { url: string; drop(): Promise<void> } | undefined;
let client: TestClient;
let token: string;
let taskId: string;

const LIMITS = {
  HTTP_REQUEST_TIMEOUT_MS: "2000",
  HTTP_HEADERS_TIMEOUT_MS: "2000",
  MAX_CONNECTIONS: "400",
  TRPC_MAX_BATCH_SIZE: "20",
  WS_MAX_SUBSCRIPTIONS_PER_SOCKET: "5",
  WS_MAX_BUFFERED_BYTES: "65536",
  REGISTRATIONS_PER_IP_PER_HOUR: "1000",
  ANONYMOUS_WRITES_PER_IP_PER_HOUR: "100000",
};

/** Retries `check` until it passes: the server frees connections a moment after clients close them. */
async function eventually(check: () => Promise<void>) {
  let last: unknown;
  await waitUntil(
    async () => {
      try {
        await check();
        return true;
      } catch (err) {
        last = err;
        return false;
      }
    },
    { timeoutMs: PROCESS_CEILING_MS, intervalMs: 200, message: () => `still failing: ${String(last)}` },
  );
}

async function alive() {
  expect(app.child.exitCode, app.output()).toBeNull();
  const res = await fetch(`http://127.0.0.1:${port}/healthz`);
  expect(res.status).toBe(200);
}

beforeAll(async () => {
  port = await freePort();
  dataDir = mkdtempSync(path.join(tmpdir(), "atomize-hostile-"));
  scratch = testDatabaseUrl ? await createScratchDatabase(testDatabaseUrl) : undefined;
  app = spawnApp({
    PORT: String(port),
    HOST: "127.0.0.1",
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    LOG_LEVEL: "warn",
    ...(scratch ? { DATABASE_URL: scratch.url } : {}),
    ...LIMITS,
  });
  await waitForReady(app);
  client = new TestClient(`http://127.0.0.1:${port}`);
  client.origin = null;
  const user = await registerUser(client);
  token = user.access_token;
  client.bearer = token;
  const created = await client.post("/api/tasks", {
    description: "A small web app with sign-in and a list of notes.",
  });
  expect(created.status, created.text).toBe(201);
  taskId = created.json.id as string;
});

afterAll(async () => {
  app?.child.kill("SIGTERM");
  await app?.exited;
  await scratch?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

const BAD_FRAMES = (limit: number) => [
  { name: `a text frame over ${limit} bytes`, bytes: () => frame(0x1, "x".repeat(limit + 1)), code: 1009 },
  { name: "invalid UTF-8 (c3 28)", bytes: () => frame(0x1, Buffer.from([0xc3, 0x28])), code: 1007 },
  { name: "a reserved opcode (0x3)", bytes: () => frame(0x3, "x"), code: 1002 },
  { name: "an unmasked client frame", bytes: () => frame(0x1, "hi", { mask: false }), code: 1002 },
];

describe("malformed WebSocket frames", () => {
  for (const bad of BAD_FRAMES(16 * 1024)) {
    it(`${bad.name} on /ws/global and /ws/tasks/{id} closes that socket with ${bad.code}`, async () => {
      for (const target of [`/ws/global?token=${token}`, `/ws/tasks/${taskId}?token=${token}`]) {
        const ws = await rawUpgrade(port, target);
        expect(ws.status).toContain("101");
        await ws.waitForText(/"event_history"/);
        ws.send(bad.bytes());
        expect((await ws.closed).code).toBe(bad.code);
        await alive();
      }
    });
  }

  for (const bad of BAD_FRAMES(4096)) {
    it(`${bad.name} on /ws/jira-export/{id} does not end the process`, async () => {
      const ws = await rawUpgrade(
        port,
        `/ws/jira-export/00000000-0000-0000-0000-000000000000?token=${token}`,
      );
      expect(ws.status).toContain("101");
      ws.send(bad.bytes());
      // Whichever comes first: the protocol error, or the export lookup (not found).
      expect([bad.code, 4404]).toContain((await ws.closed).code);
      await alive();
    });
  }

  it("survives every bad frame sent before sign-in on every channel, tRPC included", async () => {
    for (const target of ["/ws/global", `/ws/tasks/${taskId}`, "/ws/trello-export/x", "/trpc"]) {
      for (const bad of BAD_FRAMES(1024 * 1024)) {
        const ws = await rawUpgrade(port, target);
        expect(ws.status).toContain("101");
        ws.send(bad.bytes());
        const { code } = await ws.closed;
        expect(code).not.toBeNull();
      }
    }
    await alive();
  });
});

describe("upgrade requests", () => {
  it.each([
    ["an unparsable target", "//[", "websocket"],
    ["an absolute target with a bad port", "http://a:99999/", "websocket"],
    ["an h2c upgrade", "/ws/global", "h2c"],
    ["an h2c upgrade with a bad target", "//[", "h2c"],
  ])("%s is answered 400 and the server keeps serving", async (_name, target, upgrade) => {
    const ws = await rawUpgrade(port, target, { Upgrade: upgrade });
    expect(ws.status).toMatch(/^HTTP\/1\.1 400/);
    await alive();
  });

  it("an unknown path is a 404", async () => {
    const ws = await rawUpgrade(port, "/ws/nothing-here");
    expect(ws.status).toMatch(/^HTTP\/1\.1 404/);
    await alive();
  });
});

describe("oversized tRPC batches", () => {
  it("a GET batch over the limit is refused whole with 400", async () => {
    const paths = Array.from({ length: 21 }, () => "system.publicConfig").join(",");
    const res = await client.get(`/trpc/${paths}?batch=1&input={}`);
    expect(res.status).toBe(400);
    expect(res.json.detail).toBe("Too many procedures in one batch (at most 20).");
    const ok = await client.get(`/trpc/${paths.split(",").slice(0, 20).join(",")}?batch=1&input={}`);
    expect(ok.status).toBe(200);
  });

  it("a batch of whole-plan reads is refused by its cost before any runs (issue 39)", async () => {
    const trees = Array.from({ length: 3 }, () => "tasks.tree").join(",");
    const input = encodeURIComponent(
      JSON.stringify({ 0: { json: { id: "x" } }, 1: { json: { id: "x" } }, 2: { json: { id: "x" } } }),
    );
    const res = await client.get(`/trpc/${trees}?batch=1&input=${input}`);
    expect(res.status).toBe(400);
    expect(res.json.detail).toMatch(/a batch may count at most 20 \(it counts 30\)/);
    // Two reads are within it (here they are answered as the ids they name: not found).
    const two = await client.get(
      `/trpc/tasks.tree,tasks.tree?batch=1&input=${encodeURIComponent(JSON.stringify({ 0: { json: { id: "x" } }, 1: { json: { id: "x" } } }))}`,
    );
    expect(two.status).not.toBe(400);
  });

  it("a POST batch of 200 mutations runs none of them", async () => {
    const before = await client.get("/api/tasks");
    const n = 200;
    const input = Object.fromEntries(
      Array.from({ length: n }, (_, i) => [i, { json: { description: `Spam task number ${i}` } }]),
    );
    const res = await client.request(
      "POST",
      `/trpc/${Array.from({ length: n }, () => "tasks.create").join(",")}?batch=1`,
      input,
    );
    expect(res.status).toBe(400);
    const after = await client.get("/api/tasks");
    expect(after.json.total).toBe(before.json.total);
  });

  it("a WebSocket message batch runs at most the limit", async () => {
    const ws = await rawUpgrade(port, "/trpc");
    const batch = Array.from({ length: 25 }, (_, i) => ({
      id: i + 1,
      method: "query",
      params: { path: "system.publicConfig", input: { json: null } },
    }));
    ws.send(frame(0x1, JSON.stringify(batch)));
    // 25 answers, one per procedure: 20 results and 5 refusals.
    await waitUntil(() => ws.frames.filter((f) => f.opcode === 1).length >= 25, {
      timeoutMs: PROCESS_CEILING_MS,
      message: () => `25 answers; got ${ws.frames.filter((f) => f.opcode === 1).length}`,
    });
    const answers = ws.frames.filter((f) => f.opcode === 1).map((f) => JSON.parse(f.payload.toString()));
    expect(answers.filter((a) => a.result)).toHaveLength(20);
    expect(
      answers.filter((a) => a.error?.json?.message === "Too many procedures in one batch (at most 20)."),
    ).toHaveLength(5);
    ws.socket.destroy();
  });
  it("a WebSocket message batch of whole-plan reads runs what one batch may cost, and refuses the rest", async () => {
    const ws = await rawUpgrade(port, "/trpc", { authorization: `Bearer ${token}` });
    const read = (id: number) => ({
      id,
      method: "query",
      params: { path: "tasks.tree", input: { json: { id: taskId } } },
    });
    ws.send(frame(0x1, JSON.stringify(Array.from({ length: 6 }, (_, i) => read(i + 1)))));
    const texts = () => ws.frames.filter((f) => f.opcode === 1);
    await waitUntil(() => texts().length >= 6, {
      timeoutMs: PROCESS_CEILING_MS,
      message: () => `6 answers; got ${texts().length}`,
    });
    const answers = texts().map((f) => JSON.parse(f.payload.toString()));
    expect(answers.filter((a) => a.result?.data?.json?.id === taskId)).toHaveLength(2);
    expect(
      answers.filter((a) =>
        /Too many whole-plan reads at once on one connection \(at most 2\)/.test(a.error?.json?.message),
      ),
    ).toHaveLength(4);
    // Once answered, the next read runs.
    ws.send(frame(0x1, JSON.stringify(read(7))));
    await waitUntil(() => texts().length >= 7, {
      timeoutMs: PROCESS_CEILING_MS,
      message: () => "a 7th answer",
    });
    expect(JSON.parse(texts()[6]!.payload.toString()).result?.data?.json?.id).toBe(taskId);
    ws.socket.destroy();
  });
});

describe("subscriptions and slow consumers", () => {
  it("caps subscriptions per socket; a stopped one frees its place", async () => {
    const ws = trpcWs(`http://127.0.0.1:${port}`, { token });
    const subs: Array<{ unsubscribe(): void }> = [];
    const started: Promise<void>[] = [];
    for (let i = 0; i < 5; i++) {
      started.push(
        new Promise((resolve) => {
          subs.push(ws.client.realtime.userEvents.subscribe(undefined, { onStarted: () => resolve() }));
        }),
      );
    }
    await Promise.all(started);
    const refused = await new Promise<string>((resolve) => {
      ws.client.realtime.userEvents.subscribe(undefined, { onError: (e) => resolve(e.message) });
    });
    expect(refused).toBe("Too many subscriptions on one connection (at most 5).");
    subs[0]!.unsubscribe();
    await sleep(200);
    await new Promise<void>((resolve, reject) => {
      ws.client.realtime.userEvents.subscribe(undefined, { onStarted: () => resolve(), onError: reject });
    });
    ws.close();
    await alive();
  });

  it("disconnects a client that sends but never reads", async () => {
    const ws = await rawUpgrade(port, `/ws/global?token=${token}`);
    await ws.waitForText(/"event_history"/);
    ws.socket.pause(); // never read again: every answer piles up on the server
    const heartbeat = frame(0x1, '{"type":"heartbeat"}');
    const burst = Buffer.concat(Array.from({ length: 2000 }, () => heartbeat));
    let closed = false;
    ws.socket.once("close", () => {
      closed = true;
    });
    for (let i = 0; i < 300 && !closed; i++) {
      ws.socket.write(burst);
      await sleep(10);
    }
    await waitUntil(() => closed, {
      timeoutMs: PROCESS_CEILING_MS,
      intervalMs: 100,
      message: "the server closed the socket",
    });
    await alive();
  });
});

function openRaw(): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect(port, "127.0.0.1", () => resolve(s));
    s.on("error", reject);
  });
}

describe("slow clients and connection floods", () => {
  it("answers trickled bodies and headers with 408 and closes them", async () => {
    const sockets = await Promise.all(Array.from({ length: 150 }, openRaw));
    const answers = sockets.map(
      (s, i) =>
        new Promise<string>((resolve) => {
          let got = "";
          s.on("data", (d) => {
            got += d;
          });
          s.on("close", () => resolve(got));
          s.on("error", () => {});
          if (i % 2 === 0) {
            s.write(
              "POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{",
            );
          } else {
            s.write("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ");
          }
        }),
    );
    await alive(); // still serving while they hang
    const started = Date.now();
    const results = await Promise.all(answers);
    expect(Date.now() - started).toBeLessThan(8000);
    expect(results.filter((r) => r.startsWith("HTTP/1.1 408")).length).toBeGreaterThanOrEqual(140);
    await alive();
  });

  it("refuses connections past MAX_CONNECTIONS and recovers", async () => {
    const sockets: Socket[] = [];
    let dropped = 0;
    for (let i = 0; i < 430; i++) {
      const s = await openRaw().catch(() => null);
      if (!s) {
        dropped++;
        continue;
      }
      s.on("error", () => {});
      s.on("close", () => {
        dropped++;
      });
      sockets.push(s);
    }
    // Under load the process may accept (and so drop) them a little later.
    await waitUntil(() => dropped >= 20, {
      timeoutMs: PROCESS_CEILING_MS,
      intervalMs: 100,
      message: () => `20 connections dropped; ${dropped} so far`,
    });
    for (const s of sockets) s.destroy();
    await eventually(alive);
  });
});

/** Every /api route, taken from the routers themselves so a new route is covered without listing it. */
function apiRoutes(): Array<{ method: string; path: string }> {
  const seen = new Set<string>();
  const out: Array<{ method: string; path: string }> = [];
  for (const r of mountedApiRoutes().routes) {
    const key = `${r.method} ${r.path}`;
    if (r.method === "ALL" || seen.has(key)) continue;
    seen.add(key);
    out.push({ method: r.method, path: `/api${r.path}` });
  }
  return out;
}

describe("NUL bytes", () => {
  it("get a 422 on every /api route, in the path, the query and the body", async () => {
    const routes = apiRoutes();
    expect(routes.length).toBeGreaterThan(40);
    const fill = (p: string, value: string) => p.replace(/:[a-z_]+/gi, value);
    for (const { method, path: p } of routes) {
      const attempts: Array<[string, unknown]> = [[`${fill(p, taskId)}?q=%00`, undefined]];
      if (p.includes(":")) attempts.push([fill(p, "a%00b"), undefined]);
      // (The image upload takes binary bodies, where a 0x00 byte is ordinary.)
      if (method !== "GET" && !p.startsWith("/api/uploads/"))
        attempts.push([fill(p, taskId), { email: "a\u0000@x.io", title: "\u0000", x: ["\u0000"] }]);
      for (const [url, body] of attempts) {
        const res = await client.request(method, url, body);
        expect(res.status, `${method} ${url}`).toBe(422);
        expect(res.json.detail).toBe("Text must not contain NUL characters (\\u0000).");
      }
    }
    await alive();
  });

  it("get a 422 on every tRPC query and mutation", async () => {
    const procedures = Object.entries(
      appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>,
    );
    expect(procedures.length).toBeGreaterThan(40);
    const input = encodeURIComponent(JSON.stringify({ json: { id: "\u0000", title: "\u0000" } }));
    for (const [name, proc] of procedures) {
      const type = proc._def.type;
      if (type === "subscription") continue;
      const res =
        type === "query"
          ? await client.get(`/trpc/${name}?input=${input}`)
          : await client.request("POST", `/trpc/${name}`, { json: { id: "\u0000", title: "\u0000" } });
      expect(res.status, name).toBe(422);
    }
    await alive();
  });

  it("get an error (not a dropped connection) over the tRPC WebSocket", async () => {
    const ws = trpcWs(`http://127.0.0.1:${port}`, { token });
    await expect(ws.client.tasks.get.query({ id: "\u0000" } as never)).rejects.toMatchObject({
      data: { httpStatus: 422 },
    });
    const message = await new Promise<string>((resolve) => {
      ws.client.realtime.taskEvents.subscribe({ taskId: `${taskId}\u0000` } as never, {
        onError: (e) => resolve(e.message),
      });
    });
    expect(message).toBe("Text must not contain NUL characters (\\u0000).");
    ws.close();
    await alive();
  });
});
