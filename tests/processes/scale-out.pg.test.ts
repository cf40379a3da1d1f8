import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { type FakeOpenAI, startFakeOpenAI } from "../fakes/openai";
import { type TreeNode, waitForStatus } from "../support/decomposition";
import { registerUser, TestClient } from "../support/http-client";
import { type Nginx, startNginx } from "../support/nginx";
import { type AppProcess, PROCESS_CEILING_MS, spawnApp, waitForReady } from "../support/process";
import { createScratchDatabase, freePort, testDatabaseUrl } from "../support/server";
import { expectCleanTree } from "../support/tree-checks";
import { waitUntil } from "../support/wait";

/**
 * Several processes on one PostgreSQL behind a proxy (issue 45; compose.yaml): three app processes of
 * this build share one database and one data folder, with nginx in front running deploy/nginx.conf.
 * Runs in the PostgreSQL pass only (*.pg.test.ts): PGlite is one process's database.
 */
let llm: FakeOpenAI;
let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
let sql: postgres.Sql;
let proxy: Nginx;
const apps: AppProcess[] = [];
const dataDir = mkdtempSync(path.join(tmpdir(), "atomize-scale-out-"));

beforeAll(async () => {
  if (!testDatabaseUrl) throw new Error("TEST_DATABASE_URL must point at PostgreSQL for this suite");
  llm = await startFakeOpenAI();
  // Empty: the three processes start at once on a database none of them has migrated (as compose.yaml
  // starts them on a new volume), and must not trip over each other's migration.
  scratch = await createScratchDatabase(testDatabaseUrl, { empty: true });
  sql = postgres(scratch.url, { max: 1, onnotice: () => {} });
  const common = {
    HOST: "127.0.0.1",
    DATABASE_URL: scratch.url,
    DATA_DIR: dataDir,
    OPENAI_API_KEY: llm.apiKey,
    OPENAI_BASE_URL: llm.url,
    LLM_MODEL: "fake-gpt",
    LLM_CONCURRENCY: "2",
    JOB_LEASE_MS: "1500",
    TRUST_PROXY: "true",
    CREDENTIALS_KEY: Buffer.alloc(32, 5).toString("base64"),
    // This suite's clients reach the processes directly too; on a loaded machine a process's idle timer
    // could close a kept-alive socket just as a client reuses it (ECONNRESET), as tests/support/server.ts says.
    HTTP_KEEP_ALIVE_TIMEOUT_MS: "60000",
  };
  for (let i = 0; i < 3; i++) apps.push(spawnApp({ ...common, PORT: String(await freePort()) }));
  await Promise.all(apps.map((a) => waitForReady(a)));
  proxy = await startNginx(apps.map((a) => Number(new URL(a.url).port)));
});

afterAll(async () => {
  // A failed assertion must not leave the processes running against a dropped database.
  for (const app of apps) if (app.child.exitCode === null) app.child.kill("SIGKILL");
  await Promise.all(apps.map((a) => a.exited));
  await proxy?.stop();
  await sql?.end();
  await llm?.close();
  await scratch?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A client of one process, signed in with `token`. */
function on(url: string, token: string): TestClient {
  const client = new TestClient(url);
  client.bearer = token;
  return client;
}

/** A socket on one task's channel, collecting the types of live events (not the history replay). */
async function watch(base: string, taskId: string, token: string) {
  const seen: string[] = [];
  const ws = new WebSocket(`${base.replace("http", "ws")}/ws/tasks/${taskId}?token=${token}`);
  ws.on("message", (d) => {
    const m = JSON.parse(d.toString()) as { type: string };
    if (m.type !== "event_history" && m.type !== "connection_established") seen.push(m.type);
  });
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
  });
  return { seen, close: () => ws.close() };
}

async function plannedProject(client: TestClient, description: string) {
  const created = await client.post("/api/tasks", { description, max_depth: 2, max_subtasks: 3 });
  expect(created.status, created.text).toBe(201);
  const done = await waitForStatus(client, created.json.id, ["completed", "failed"], PROCESS_CEILING_MS);
  expect(done.status).toBe("completed");
  return created.json.id as string;
}

describe("three processes on one PostgreSQL behind nginx", () => {
  it("serves one plan from every process: made through one, edited through another, read through the third and the proxy", async () => {
    llm.setPlanShape({ subtasks: 3, complexity: (depth) => (depth <= 1 ? 9 : 3) });
    const viaProxy = new TestClient(proxy.url);
    const { access_token } = await registerUser(viaProxy);
    const [a, b, c] = apps.map((app) => on(app.url, access_token)) as [TestClient, TestClient, TestClient];

    const id = await plannedProject(a, "A plan served by three processes");
    const tree = (await b.get(`/api/tasks/${id}/tree`)).json as TreeNode;
    const leaf = expectCleanTree(tree, { maxSubtasks: 3, maxDepth: 2 }).find((n) => n.children.length === 0)!;
    const edited = await b.request("PATCH", `/api/tasks/${leaf.id}`, { story_points: 8 });
    expect(edited.status, edited.text).toBe(200);

    expect((await c.get(`/api/tasks/${leaf.id}`)).json.story_points).toBe(8);
    // Round-robin: six reads through the proxy reach each process twice; every one sees the edit.
    const reads = await Promise.all(
      Array.from({ length: 6 }, () => on(proxy.url, access_token).get(`/api/tasks/${leaf.id}`)),
    );
    expect(reads.map((r) => [r.status, r.json.story_points])).toEqual(Array(6).fill([200, 8]));
  });

  it("sends live events to sockets on every process and through the proxy, whichever process made the change", async () => {
    const viaProxy = new TestClient(proxy.url);
    const { access_token } = await registerUser(viaProxy);
    const id = await plannedProject(on(apps[1]!.url, access_token), "Live events across processes");
    const sockets = await Promise.all([
      ...apps.map((app) => watch(app.url, id, access_token)),
      watch(proxy.url, id, access_token),
    ]);
    try {
      const changed = await on(apps[2]!.url, access_token).request("PATCH", `/api/tasks/${id}`, {
        implementation_details: "Changed through the third process",
      });
      expect(changed.status, changed.text).toBe(200);
      await waitUntil(() => sockets.every((s) => s.seen.includes("task.updated")), {
        timeoutMs: PROCESS_CEILING_MS,
        message: () => `task.updated on every socket; seen ${JSON.stringify(sockets.map((s) => s.seen))}`,
      });
    } finally {
      for (const s of sockets) s.close();
    }
  });

  it("honours sessions, refresh tokens, API tokens and sign-out on every process", async () => {
    const [a, b, c] = apps.map((app) => new TestClient(app.url)) as [TestClient, TestClient, TestClient];
    const user = await registerUser(a);
    const me = (client: TestClient, token: string) => on(client.baseUrl, token).get("/api/auth/me");
    expect((await me(b, user.access_token)).status).toBe(200);
    expect((await me(c, user.access_token)).status).toBe(200);

    // A browser's cookie session made on one process is good on the others.
    const tab = new TestClient(c.baseUrl);
    expect((await tab.post("/api/auth/login", { email: user.email, password: user.password })).status).toBe(
      200,
    );
    const cookies = [...tab.cookies];
    const elsewhere = new TestClient(a.baseUrl);
    for (const [k, v] of cookies) elsewhere.cookies.set(k, v);
    expect((await elsewhere.get("/api/auth/me")).json.email).toBe(user.email);

    const refreshed = await b.post("/api/auth/refresh-token", { refresh_token: user.refresh_token });
    expect(refreshed.status, refreshed.text).toBe(200);
    const token = await on(c.baseUrl, refreshed.json.access_token).post("/api/tokens", {
      name: "scale-out",
      scope: "read",
      expires_in_days: 30,
    });
    expect(token.status, token.text).toBe(201);
    expect((await me(a, token.json.token)).status).toBe(200);

    // Signing out through one process ends the session on all of them.
    expect((await on(a.baseUrl, refreshed.json.access_token).post("/api/auth/logout")).status).toBe(200);
    expect((await me(b, refreshed.json.access_token)).status).toBe(401);
    expect((await me(c, refreshed.json.access_token)).status).toBe(401);
    // The API token is not a session: it stays good until it is revoked, on any process.
    const again = await b.post("/api/auth/login", { email: user.email, password: user.password });
    expect((await me(c, token.json.token)).status).toBe(200);
    const revoked = await on(a.baseUrl, again.json.access_token).request(
      "DELETE",
      `/api/tokens/${token.json.id}`,
    );
    expect(revoked.status, revoked.text).toBe(204);
    expect((await me(c, token.json.token)).status).toBe(401);
  });

  it("finishes, through the others, the planning a killed process had taken", async () => {
    // Slow answers keep every process holding jobs when one of them is killed.
    llm.setLatency(600);
    llm.setPlanShape({ subtasks: 3, complexity: (depth) => (depth <= 1 ? 9 : 3) });
    const viaProxy = new TestClient(proxy.url);
    const { access_token } = await registerUser(viaProxy);
    const created = await on(proxy.url, access_token).post("/api/tasks", {
      description: "Planned while a process dies",
      max_depth: 3,
      max_subtasks: 3,
    });
    expect(created.status, created.text).toBe(201);
    const id = created.json.id as string;
    const holders = async () =>
      (
        await sql<{ n: number }[]>`select count(distinct locked_by)::int as n from jobs
          where status = 'running' and group_key = ${id}`
      )[0]!.n;
    await waitUntil(async () => (await holders()) === 3, {
      timeoutMs: PROCESS_CEILING_MS,
      intervalMs: 25,
      message: "every process holding one of the plan's jobs",
    });
    const [victim] = apps.splice(2, 1);
    victim!.child.kill("SIGKILL");
    await victim!.exited;

    // Through the proxy, which skips the dead process, the plan completes whole.
    const client = on(proxy.url, access_token);
    const done = await waitForStatus(client, id, ["completed", "failed"], PROCESS_CEILING_MS);
    expect(done.status).toBe("completed");
    const tree = (await client.get(`/api/tasks/${id}/tree`)).json as TreeNode;
    expect(expectCleanTree(tree, { maxSubtasks: 3, maxDepth: 3 })).toHaveLength(40);
    const retaken = await sql<{ n: number }[]>`select count(*)::int as n from jobs
      where group_key = ${id} and status = 'done' and attempts > 1`;
    expect(retaken[0]!.n).toBeGreaterThan(0);
    apps.push(victim!);
    llm.setLatency(0);
  });
});
