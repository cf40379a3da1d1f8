/**
 * The fake model on its own thread, for the engine bench (bench/decomposition.ts): a model provider is
 * another machine, so its answers must not wait for the server's event loop, nor the server's work for
 * the fake's. With the fake in the server's own thread, a request the server had sent sat unread while
 * the server worked (up to 100 ms on PGlite, whose queries run on the main thread), and that wait was
 * counted as engine overhead although a real provider would have received the request at once.
 *
 * `startModelWorker()` runs `tests/fakes/openai.ts` in a worker thread and drives it by messages; the
 * worker side is this same file, loaded with `workerData`.
 */
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";

/** A plan shape a message can carry: children per node, and complexity by depth (the last repeats). */
export type WorkerPlanShape = { subtasks: number; complexityByDepth: number[] };
/**
 * One chat request as the bench needs it: its schema, the depth its prompt names, and when it arrived
 * (`performance.timeOrigin + performance.now()`, comparable across threads; bench/timeline.ts).
 */
export type WorkerRequest = { schemaName: string | null; depth: number | null; at: number };
export type WorkerStats = { requests: WorkerRequest[]; answered: number; maxInFlight: number };

type Command =
  | { id: number; op: "shape"; shape: WorkerPlanShape }
  | { id: number; op: "reset" }
  | { id: number; op: "stats" }
  | { id: number; op: "close" };

/** A command without its id (Omit on each member of the union). */
type Request = Command extends infer C ? (C extends Command ? Omit<C, "id"> : never) : never;

export type ModelWorker = {
  url: string;
  apiKey: string;
  reset(): Promise<void>;
  setPlanShape(shape: WorkerPlanShape): Promise<void>;
  stats(): Promise<WorkerStats>;
  close(): Promise<void>;
};

export async function startModelWorker(latencyMs: number): Promise<ModelWorker> {
  // A worker does not inherit tsx's loader on Node 20: it registers it, then loads this file.
  const entry = `import("tsx/esm/api").then((tsx) => { tsx.register(); return import(${JSON.stringify(import.meta.url)}); })`;
  const worker = new Worker(entry, { eval: true, workerData: { latencyMs } });
  const pending = new Map<number, (value: unknown) => void>();
  let nextId = 1;
  const ready = new Promise<{ url: string; apiKey: string }>((resolve, reject) => {
    worker.once("error", reject);
    worker.once("message", resolve);
  });
  const { url, apiKey } = await ready;
  worker.on("message", (m: { id: number; value: unknown }) => pending.get(m.id)?.(m.value));
  const send = <T>(c: Request) =>
    new Promise<T>((resolve) => {
      const id = nextId++;
      pending.set(id, (v) => {
        pending.delete(id);
        resolve(v as T);
      });
      worker.postMessage({ ...c, id });
    });
  return {
    url,
    apiKey,
    reset: () => send({ op: "reset" }),
    setPlanShape: (shape) => send({ op: "shape", shape }),
    stats: () => send({ op: "stats" }),
    close: async () => {
      await send({ op: "close" });
      await worker.terminate();
    },
  };
}

if (!isMainThread && workerData && parentPort) {
  const port = parentPort;
  const { startFakeOpenAI } = await import("../tests/fakes/openai");
  const llm = await startFakeOpenAI({ latencyMs: (workerData as { latencyMs: number }).latencyMs });
  // When each request arrived, on the clock every thread shares (epoch milliseconds, fractional).
  const arrived: number[] = [];
  const push = llm.requests.push.bind(llm.requests);
  llm.requests.push = (...r) => {
    arrived.push(performance.timeOrigin + performance.now());
    return push(...r);
  };
  port.postMessage({ url: llm.url, apiKey: llm.apiKey });
  port.on("message", async (c: Command) => {
    let value: unknown = null;
    if (c.op === "shape") {
      const table = c.shape.complexityByDepth;
      llm.setPlanShape({
        subtasks: c.shape.subtasks,
        complexity: (depth) => table[Math.min(depth, table.length - 1)] ?? 5,
      });
    } else if (c.op === "reset") {
      llm.reset();
      arrived.length = 0;
    } else if (c.op === "stats") {
      value = {
        requests: llm.requests.map((r, i) => {
          const depth = Number(r.messages.at(-1)?.content.match(/Depth: (\d+) of at most/)?.[1]);
          return { schemaName: r.schemaName, depth: Number.isInteger(depth) ? depth : null, at: arrived[i]! };
        }),
        answered: llm.usage.requests,
        maxInFlight: llm.maxInFlight,
      } satisfies WorkerStats;
    } else if (c.op === "close") await llm.close();
    port.postMessage({ id: c.id, value });
  });
}
