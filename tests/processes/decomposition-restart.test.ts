import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type FakeOpenAI, startFakeOpenAI } from "../fakes/openai";
import type { TreeNode } from "../support/decomposition";
import { waitForStatus } from "../support/decomposition";
import { registerUser, TestClient } from "../support/http-client";
import { PROCESS_CEILING_MS, spawnApp, waitForReady } from "../support/process";
import { freePort } from "../support/server";
import { expectCleanTree } from "../support/tree-checks";
import { waitUntil } from "../support/wait";

let llm: FakeOpenAI;
const dataDir = mkdtempSync(path.join(tmpdir(), "atomize-restart-"));
beforeAll(async () => {
  llm = await startFakeOpenAI({ latencyMs: 150 });
});
afterAll(async () => {
  await llm?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

it("a process killed mid-decomposition resumes on the next start, with no duplicate nodes (PGlite)", async () => {
  // Level 1 and 2 are split (9), level 3 is atomic (3): 1 + 3 + 9 + 27 = 40 nodes.
  llm.setPlanShape({ subtasks: 3, complexity: (depth) => (depth <= 1 ? 9 : 3) });
  const port = await freePort();
  const env = {
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    OPENAI_API_KEY: llm.apiKey,
    OPENAI_BASE_URL: llm.url,
    LLM_MODEL: "fake-gpt",
    LLM_CONCURRENCY: "2",
    JOB_LEASE_MS: "1500",
  };
  const first = spawnApp(env);
  await waitForReady(first);
  const client = new TestClient(first.url);
  await registerUser(client, { email: "restart@example.com", password: "restart password" });
  const created = await client.post("/api/tasks", {
    description: "Survive a crash",
    max_depth: 3,
    max_subtasks: 3,
  });
  // Kill it hard once part of the tree exists.
  await waitUntil(async () => (await client.get(`/api/tasks/${created.json.id}`)).json.total_subtasks >= 6, {
    timeoutMs: PROCESS_CEILING_MS,
    message: "six subtasks before the kill",
  });
  first.child.kill("SIGKILL");
  await first.exited;

  const second = spawnApp(env);
  await waitForReady(second);
  const again = new TestClient(second.url);
  await again.post("/api/auth/login", { email: "restart@example.com", password: "restart password" });
  const done = await waitForStatus(again, created.json.id, ["completed", "failed"], PROCESS_CEILING_MS);
  expect(done.status).toBe("completed");
  const tree = (await again.get(`/api/tasks/${created.json.id}/tree`)).json as TreeNode;
  const nodes = expectCleanTree(tree, { maxSubtasks: 3, maxDepth: 3 });
  expect(nodes).toHaveLength(40);
  second.child.kill("SIGTERM");
  await second.exited;
  // Two process start-ups and a 40-node plan, with waits of their own up to 60 s: more than the suite's
  // 30 s default when both cores are busy.
});
