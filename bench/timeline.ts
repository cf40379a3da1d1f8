/**
 * Where the engine's overhead goes: decomposes the engine bench's plan (bench/decomposition.ts) and prints
 * when each model call reached the fake model, in milliseconds after the task was created, with its kind
 * (c complexity, dN a split at depth N, p and e the composer's two calls). A gap between a call's answer
 * (its start + 200 ms) and the next call it leads to is the engine's work in between.
 *
 *   node --import tsx bench/timeline.ts [concurrency] [postgres://... (default: PGlite)]
 */
import { decompose, PLAN_SHAPE, startEngineServer } from "./decomposition";

const concurrency = Number(process.argv[2] ?? 4);
const databaseUrl = process.argv[3] ?? null;

const { llm, server, client } = await startEngineServer(concurrency, databaseUrl);
try {
  await llm.setPlanShape(PLAN_SHAPE);
  await decompose(client, server.deps.events, {
    description: "Warm-up: a marketplace with listings",
    max_depth: 3,
    max_subtasks: 5,
  });
  for (let run = 1; run <= 3; run++) {
    await llm.reset();
    await llm.setPlanShape(PLAN_SHAPE);
    const { started, wall } = await decompose(client, server.deps.events, {
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
