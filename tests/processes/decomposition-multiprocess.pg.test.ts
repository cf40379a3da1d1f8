import { afterAll, beforeAll, expect, it } from "vitest";
import WebSocket from "ws";
import { type FakeOpenAI, startFakeOpenAI } from "../fakes/openai";
import { type TreeNode, waitForStatus } from "../support/decomposition";
import { registerUser, TestClient } from "../support/http-client";
import { PROCESS_CEILING_MS, spawnApp, waitForReady } from "../support/process";
import { createScratchDatabase, freePort, testDatabaseUrl } from "../support/server";
import { expectCleanTree } from "../support/tree-checks";
import { waitUntil } from "../support/wait";

// Runs only in the PostgreSQL pass (vitest.config.ts includes *.pg.test.ts when TEST_DATABASE_URL is set).
let llm: FakeOpenAI;
let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
beforeAll(async () => {
  if (!testDatabaseUrl) throw new Error("TEST_DATABASE_URL must point at PostgreSQL for this suite");
  // Slow enough that A is still planning when B has started and subscribed (B starts cold in CI).
  llm = await startFakeOpenAI({ latencyMs: 800 });
  scratch = await createScratchDatabase(testDatabaseUrl);
});
const started: Array<ReturnType<typeof spawnApp>> = [];
afterAll(async () => {
  // A failed assertion must not leave the processes running (and polling a dropped database).
  for (const app of started) if (app.child.exitCode === null) app.child.kill("SIGKILL");
  await llm?.close();
  await scratch?.drop();
});

it("two processes share one PostgreSQL: B streams A's progress, and finishes A's work when A is killed", async () => {
  llm.setPlanShape({ subtasks: 3, complexity: (depth) => (depth <= 1 ? 9 : 3) });
  const common = {
    HOST: "127.0.0.1",
    DATABASE_URL: scratch.url,
    OPENAI_API_KEY: llm.apiKey,
    OPENAI_BASE_URL: llm.url,
    LLM_MODEL: "fake-gpt",
    LLM_CONCURRENCY: "2",
    JOB_LEASE_MS: "1500",
    CREDENTIALS_KEY: Buffer.alloc(32, 3).toString("base64"),
  };
  const [portA, portB] = [await freePort(), await freePort()];
  // A starts the decomposition; B joins once A is working. Both take jobs from the shared table; A is
  // then killed while holding claims, and B reclaims them when their leases run out.
  const a = spawnApp({ ...common, PORT: String(portA), DATA_DIR: "/tmp/atomize-a" });
  started.push(a);
  await waitForReady(a);
  const onA = new TestClient(a.url);
  const { access_token } = await registerUser(onA);
  const created = await onA.post("/api/tasks", {
    description: "Shared across processes",
    max_depth: 3,
    max_subtasks: 3,
  });
  await waitForStatus(onA, created.json.id, ["processing"]);

  const b = spawnApp({ ...common, PORT: String(portB), DATA_DIR: "/tmp/atomize-b" });
  started.push(b);
  await waitForReady(b);
  const seen: string[] = [];
  const ws = new WebSocket(`ws://127.0.0.1:${portB}/ws/tasks/${created.json.id}?token=${access_token}`);
  ws.on("message", (d) => {
    const m = JSON.parse(d.toString());
    if (m.type !== "event_history" && m.type !== "connection_established") seen.push(m.type);
  });
  await new Promise<void>((r) => ws.once("open", () => r()));
  // Live events raised by A reach a client connected to B (LISTEN/NOTIFY).
  await waitUntil(() => seen.includes("service.status"), {
    intervalMs: 25,
    message: () => `a live service.status on B; seen ${JSON.stringify(seen)}`,
  });

  a.child.kill("SIGKILL");
  await a.exited;
  const onB = new TestClient(b.url);
  onB.bearer = access_token;
  const done = await waitForStatus(onB, created.json.id, ["completed", "failed"], PROCESS_CEILING_MS);
  expect(done.status).toBe("completed");
  const tree = (await onB.get(`/api/tasks/${created.json.id}/tree`)).json as TreeNode;
  expect(expectCleanTree(tree, { maxSubtasks: 3, maxDepth: 3 })).toHaveLength(40);
  await waitUntil(() => seen.includes("decomposition.completed"), {
    timeoutMs: PROCESS_CEILING_MS,
    intervalMs: 25,
    message: () => `decomposition.completed on B; seen ${JSON.stringify(seen)}`,
  });
  ws.close();
  b.child.kill("SIGTERM");
  await b.exited;
  // Two process start-ups, a lease expiry and a 40-node plan: its own waits (up to 60 s for completion)
  // need more than the suite's 30 s default when the other worker is busy.
});
