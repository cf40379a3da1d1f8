/**
 * Decomposition throughput: the fake model answers every call in 200 ms; a project is decomposed to
 * depth 3 with 5 children per node (levels 1-2 split, level 3 atomic: 1 + 5 + 25 + 125 = 156 nodes).
 *
 * Lower bound of the call graph at concurrency c (latency L per call):
 *   complexity (1 call) -> root split (1) -> 30 node splits (5 at level 1, each then 5 at level 2)
 *   -> composer (2 calls in parallel).
 *   The 30 splits need at least max(2 rounds (a level-1 split before its level-2 children), ceil(30/c))
 *   rounds, so LB = L x (1 + 1 + max(2, ceil(30/c)) + ceil(2/c)). At c = 4: 11 x 200 ms = 2.2 s.
 */
import { performance } from "node:perf_hooks";
import { type FakeOpenAI, startFakeOpenAI } from "../tests/fakes/openai";
import { registerUser, TestClient } from "../tests/support/http-client";
import { startTestServer } from "../tests/support/server";

const LATENCY_MS = 200;
const CHILDREN = 5;
const DEPTH = 3;

export async function benchDecomposition(databaseUrl: string | null, concurrency = 4) {
  const llm: FakeOpenAI = await startFakeOpenAI({ latencyMs: LATENCY_MS });
  llm.setPlanShape({ subtasks: CHILDREN, complexity: (depth) => (depth <= 1 ? 9 : 3) });
  const server = await startTestServer(
    {
      OPENAI_API_KEY: llm.apiKey,
      OPENAI_BASE_URL: llm.url,
      LLM_MODEL: "fake-gpt",
      LLM_CONCURRENCY: String(concurrency),
      LOG_LEVEL: "silent",
    },
    { databaseUrl },
  );
  try {
    const client = new TestClient(server.url);
    await registerUser(client);
    let completedAt = 0;
    const finished = new Promise<void>((resolve) =>
      server.deps.events.subscribe((e) => {
        if (e.type === "decomposition.completed") {
          completedAt = performance.now();
          resolve();
        }
      }),
    );
    const started = performance.now();
    const created = await client.post("/api/tasks", {
      description: "Benchmark: a marketplace with listings, search, payments and messaging",
      max_depth: DEPTH,
      max_subtasks: CHILDREN,
    });
    await finished;
    const wallMs = completedAt - started;
    const tree = (await client.get(`/api/tasks/${created.json.id}`)).json;
    const nodes = tree.total_subtasks + 1;
    const splits = CHILDREN + CHILDREN ** 2;
    const rounds = 1 + 1 + Math.max(2, Math.ceil(splits / concurrency)) + Math.ceil(2 / concurrency);
    const lowerBoundMs = rounds * LATENCY_MS;
    return {
      database: server.deps.database.driver,
      concurrency,
      nodes,
      "model calls": llm.usage.requests,
      "calls / node": (llm.usage.requests / nodes).toFixed(3),
      "tokens / node": ((llm.usage.promptTokens + llm.usage.completionTokens) / nodes).toFixed(0),
      "max in flight": llm.maxInFlight,
      "wall ms": wallMs.toFixed(0),
      "lower bound ms": lowerBoundMs,
      ratio: (wallMs / lowerBoundMs).toFixed(2),
    };
  } finally {
    await server.stop();
    await llm.close();
  }
}
