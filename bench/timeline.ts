/**
 * Where the engine's overhead goes: decomposes the engine bench's plan (bench/decomposition.ts) and prints
 * when each model call reached the fake model, in milliseconds after the task was created, with its kind
 * (c complexity, dN a split at depth N, p and e the composer's two calls). A gap between a call's answer
 * (its start + 200 ms) and the next call it leads to is the engine's work in between.
 *
 *   node --import tsx bench/timeline.ts [concurrency] [postgres://... (default: PGlite)]
 */
import { performance } from "node:perf_hooks";
import { registerUser, TestClient } from "../tests/support/http-client";
import { startTestServer } from "../tests/support/server";
import { startModelWorker } from "./model-worker";

const concurrency = Number(process.argv[2] ?? 4);
const databaseUrl = process.argv[3] ?? null;
const now = () => performance.timeOrigin + performance.now();

const llm = await startModelWorker(200);
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
  const decompose = async (body: Record<string, unknown>) => {
    let rootId = "";
    let done: () => void = () => {};
    const finished = new Promise<void>((resolve) => {
      done = resolve;
    });
    const stop = server.deps.events.subscribe((e) => {
      if (e.type === "decomposition.completed" && e.root_task_id === rootId) done();
    });
    const started = now();
    rootId = (await client.post("/api/tasks", body)).json.id;
    await finished;
    stop();
    return { started, wall: now() - started };
  };
  await llm.setPlanShape({ subtasks: 5, complexityByDepth: [9, 9, 3] });
  await decompose({ description: "Warm-up: a marketplace with listings", max_depth: 2, max_subtasks: 2 });
  for (let run = 1; run <= 3; run++) {
    await llm.reset();
    await llm.setPlanShape({ subtasks: 5, complexityByDepth: [9, 9, 3] });
    const { started, wall } = await decompose({
      description: `Timeline ${run}: a marketplace with listings, search, payments and messaging`,
      max_depth: 3,
      max_subtasks: 5,
    });
    const calls = (await llm.stats()).requests.map((r) => {
      const kind = r.schemaName === "subtask_plan" ? `d${r.depth}` : (r.schemaName ?? "?").slice(0, 1);
      return `${(r.at - started).toFixed(0)}${kind}`;
    });
    console.info(`run ${run}, wall ${wall.toFixed(0)} ms: ${calls.join(" ")}`);
  }
} finally {
  await server.stop();
  await llm.close();
}
