/**
 * A local fake of Ollama's model list (on the fake-server kit, kit.ts), for the detection Settings offers.
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
import { type FakeServer, jsonReply, type Reply, Router, startFakeServer, textReply } from "./kit";

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
  readonly requests: { method: string; path: string }[];
  /** The kit underneath: its full request log and failure modes. */
  server: FakeServer;
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

  async function tags(): Promise<Reply | undefined> {
    switch (mode) {
      case "ok":
        return jsonReply(200, { models: models.map(entry) });
      case "not_json":
        return {
          status: 200,
          headers: { "content-type": "text/html" },
          body: "<!doctype html><title>Router admin</title><p>Welcome</p>",
        };
      case "wrong_shape":
        return jsonReply(200, { object: "list", data: [{ id: "gpt-4o-mini" }] });
      case "bad_entries":
        return jsonReply(200, {
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
        // close() cuts the wait short; the kit then has no connection left to answer on.
        await server.delay(60_000);
        return jsonReply(200, { models: [] });
      case "server_error":
        return jsonReply(500, { error: "something went wrong loading the model list" });
      case "redirect":
        // Somewhere the guard refuses (loopback on a port no one allowed), kept on this machine even if followed.
        return { status: 302, headers: { location: "http://127.0.0.1:9/latest/meta-data/" } };
      case "huge": {
        const chunk = `${JSON.stringify(entry({ name: "x" }))},`.repeat(1000);
        return {
          status: 200,
          headers: { "content-type": "application/json" },
          body: `{"models":[${chunk.repeat(20)}${JSON.stringify(entry({ name: "y" }))}]}`,
        };
      }
    }
  }

  const routes = new Router().get("/", () => textReply(200, "Ollama is running")).get("/api/tags", tags);
  const server: FakeServer = await startFakeServer({
    host: opts.host,
    port: opts.port,
    routes,
    notFound: () => jsonReply(404, { error: "404 page not found" }),
    onError: () => jsonReply(500, { error: "fake failure" }),
  });
  return {
    url: server.url,
    setModels(next) {
      models = [...next];
    },
    setMode(next) {
      mode = next;
    },
    get requests() {
      return server.log.map(({ method, path }) => ({ method, path }));
    },
    server,
    close: server.close,
  };
}
