/**
 * A local fake of Ollama's model list (node:http only), for the detection Settings offers.
 *
 * It answers `GET /api/tags` as Ollama's API reference documents the "List models" endpoint
 * (https://docs.ollama.com/api/tags, the OpenAPI description Ollama publishes; earlier
 * https://github.com/ollama/ollama/blob/main/docs/api.md#list-local-models): 200 with
 * `{ "models": [{ "name": "gemma3", "model": "gemma3", "modified_at": "2025-10-03T23:34:03.409490317-07:00",
 * "size": 3338801804, "digest": "a2af6cc3...", "details": { "parent_model": "", "format": "gguf",
 * "family": "gemma", "families": ["gemma"], "parameter_size": "4.3B", "quantization_level": "Q4_K_M" } }] }`,
 * and `GET /` with "Ollama is running" as the real server does. Nothing needs a key (a local Ollama takes
 * none). Everything else is 404 `{"error": "..."}`, Ollama's error shape.
 *
 * Failure modes (`setMode`) are what a detector may meet on that port instead of Ollama: another program
 * answering HTML, JSON of another shape, entries of the wrong types, a server that never answers, a
 * 500, a redirect elsewhere, and an endless body.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { cancellableDelays, listenOnLoopback } from "./loopback";

export type FakeOllamaMode =
  | "ok"
  | "not_json" // 200 with an HTML page
  | "wrong_shape" // 200 with JSON that is not a list of models
  | "bad_entries" // 200 with the models list mixed with entries of the wrong types
  | "hang" // never answers (until close)
  | "server_error" // 500 {"error": ...}
  | "redirect" // 302 to another address
  | "huge"; // 200 with a body of several megabytes

export type FakeOllamaModel = { name: string; size?: number; parameterSize?: string; family?: string };

export type FakeOllama = {
  /** e.g. http://127.0.0.1:PORT (what OLLAMA_URL is set to). */
  url: string;
  setModels(models: FakeOllamaModel[]): void;
  setMode(mode: FakeOllamaMode): void;
  /** Every request received, in order. */
  requests: { method: string; path: string }[];
  close(): Promise<void>;
};

const DEFAULT_MODELS: FakeOllamaModel[] = [
  { name: "llama3.2:latest", size: 2019393189, parameterSize: "3.2B", family: "llama" },
  { name: "qwen2.5-coder:7b", size: 4683087332, parameterSize: "7.6B", family: "qwen2" },
];

function entry(m: FakeOllamaModel) {
  return {
    name: m.name,
    model: m.name,
    modified_at: "2026-11-20T10:12:13.123456789+01:00",
    size: m.size ?? 1_000_000_000,
    digest: "a2af6cc3eb7fa8be8504abaf9b04e88f17a119ec3f04a3addf55f92841195f5a",
    details: {
      parent_model: "",
      format: "gguf",
      family: m.family ?? "llama",
      families: [m.family ?? "llama"],
      parameter_size: m.parameterSize ?? "3B",
      quantization_level: "Q4_K_M",
    },
  };
}

export async function startFakeOllama(opts: { port?: number; host?: string } = {}): Promise<FakeOllama> {
  let models = [...DEFAULT_MODELS];
  let mode: FakeOllamaMode = "ok";
  const requests: FakeOllama["requests"] = [];
  const sockets = new Set<Socket>();
  const delays = cancellableDelays();
  let closed = false;

  const json = (res: ServerResponse, status: number, body: unknown) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
    res.end(text);
  };

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const path = new URL(req.url ?? "/", "http://fake").pathname;
    requests.push({ method: req.method ?? "GET", path });
    req.resume();
    if (req.method === "GET" && path === "/") {
      res.writeHead(200, { "content-type": "text/plain; charset=utf-8" });
      res.end("Ollama is running");
      return;
    }
    if (!(req.method === "GET" && path === "/api/tags"))
      return json(res, 404, { error: "404 page not found" });
    switch (mode) {
      case "ok":
        return json(res, 200, { models: models.map(entry) });
      case "not_json":
        res.writeHead(200, { "content-type": "text/html" });
        res.end("<!doctype html><title>Router admin</title><p>Welcome</p>");
        return;
      case "wrong_shape":
        return json(res, 200, { object: "list", data: [{ id: "gpt-4o-mini" }] });
      case "bad_entries":
        return json(res, 200, {
          models: [
            entry({ name: "mistral:7b", parameterSize: "7.2B" }),
            { name: 42 },
            { model: "no-name" },
            null,
            "llama3",
            { name: "bad name with spaces" },
            { name: "<script>alert(1)</script>" },
            { ...entry({ name: "phi3:mini" }), size: "big", details: "none" },
          ],
        });
      case "hang":
        await delays.delay(60_000);
        if (!res.headersSent && !closed) json(res, 200, { models: [] });
        return;
      case "server_error":
        return json(res, 500, { error: "something went wrong loading the model list" });
      case "redirect":
        res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" });
        res.end();
        return;
      case "huge": {
        res.writeHead(200, { "content-type": "application/json" });
        res.write('{"models":[');
        const chunk = `${JSON.stringify(entry({ name: "x" }))},`.repeat(1000);
        for (let i = 0; i < 20 && !closed; i++) {
          if (!res.write(chunk)) await new Promise((r) => res.once("drain", r));
        }
        res.end(`${JSON.stringify(entry({ name: "y" }))}]}`);
        return;
      }
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) json(res, 500, { error: "fake failure" });
    });
  });
  const { origin } = await listenOnLoopback(server, {
    host: opts.host ?? "127.0.0.1",
    port: opts.port,
    sockets,
    refuse: () => closed,
  });
  return {
    url: origin,
    setModels(next) {
      models = [...next];
    },
    setMode(next) {
      mode = next;
    },
    requests,
    async close() {
      if (closed) return;
      closed = true;
      delays.cancelAll();
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
