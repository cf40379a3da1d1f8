import { createServer } from "node:http";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/server/config";
import { writeProvider } from "../../src/server/engine/planners/provider-store";
import { outboundFetch } from "../../src/server/lib/outbound/fetch";
import { probeOllama } from "../../src/server/services/model-providers/ollama";
import { type FakeOllama, startFakeOllama } from "../fakes/ollama";
import { type FakeOpenAI, startFakeOpenAI } from "../fakes/openai";
import { startModelBackedServer, waitForStatus } from "../support/decomposition";
import { registerUser, TestClient } from "../support/http-client";
import { startTestServer, type TestServer } from "../support/server";
import { trpcError, trpcHttp } from "../support/trpc-client";

const ADMIN = "models.admin@example.com";
/** A key long enough to show its last four characters; the fake accepts only this one. */
const KEY = "sk-fake-settings-key-0123456789wxyz";

let llm: FakeOpenAI;
let ollama: FakeOllama;
let server: TestServer;
let admin: TestClient;

async function signedIn(s: TestServer = server) {
  const client = new TestClient(s.url);
  const { user } = await registerUser(client);
  return { client, trpc: trpcHttp(client), userId: user.id };
}

/** The role (and a verified address) is set in the database, as the blog suites do. */
async function registerAdmin(s: TestServer, email = ADMIN) {
  const client = new TestClient(s.url);
  await registerUser(client, { email });
  await s.deps.database.rows(
    sql`update users set role = 'admin', email_verified_at = now() where lower(email) = ${email}`,
  );
  return client;
}

async function providerRows(s: TestServer) {
  return s.deps.database.rows<{ user_id: string | null; model: string; secret_ciphertext: string | null }>(
    sql`select user_id, model, secret_ciphertext from model_providers order by created_at`,
  );
}

beforeAll(async () => {
  llm = await startFakeOpenAI({ apiKey: KEY });
  ollama = await startFakeOllama();
  server = await startTestServer({
    ADMIN_EMAILS: ADMIN,
    OLLAMA_URL: ollama.url,
    // The fake provider is on loopback, which a user's own settings reach only where the operator allows.
    OUTBOUND_ALLOW: new URL(llm.url).host,
    LLM_MAX_RETRIES: "0",
    // The fake answers at once; the default 1.5 s leaves no room on a loaded machine (the slow case has its own).
    OLLAMA_DETECT_TIMEOUT_MS: "10000",
  });
  admin = await registerAdmin(server);
});
afterAll(async () => {
  await server?.stop();
  await llm?.close();
  await ollama?.close();
});
beforeEach(() => llm.reset());

describe("a user's own model provider", () => {
  it("stores the key sealed, never sends it back, keeps it on an empty field and removes it on request", async () => {
    const { client, trpc, userId } = await signedIn();
    expect(await trpc.modelProviders.mine.query()).toMatchObject({ configured: false, api_key_saved: false });

    const saved = await client.request("PUT", "/api/model-provider", {
      base_url: `${llm.url}/`,
      model: "fake-gpt",
      api_key: KEY,
    });
    expect(saved.status).toBe(200);
    expect(saved.json).toMatchObject({
      configured: true,
      base_url: llm.url, // the trailing slash is dropped
      model: "fake-gpt",
      api_key_saved: true,
      api_key_hint: "••••wxyz",
      api_key_unreadable: false,
    });
    expect(saved.text).not.toContain(KEY);

    // At rest: sealed with the vault, the plaintext nowhere in the row.
    const [row] = (await providerRows(server)).filter((r) => r.user_id === userId);
    expect(row!.secret_ciphertext).toMatch(/^v1\./);
    expect(JSON.stringify(row)).not.toContain(KEY);
    expect(JSON.stringify(row)).not.toContain(KEY.slice(3, 20));
    expect(server.deps.vault.decrypt(row!.secret_ciphertext!)).toBe(KEY);

    // Every read, over REST and tRPC, shows only that a key is saved.
    for (const text of [
      (await client.get("/api/model-provider")).text,
      JSON.stringify(await trpc.modelProviders.mine.query()),
      JSON.stringify(await trpc.modelProviders.plannerForMe.query()),
      (await client.get("/api/planner")).text,
    ])
      expect(text).not.toContain(KEY);

    // An empty key field keeps the saved key; other fields change.
    const renamed = await trpc.modelProviders.saveMine.mutate({
      base_url: llm.url,
      model: "fake-gpt-2",
      api_key: "",
    });
    expect(renamed).toMatchObject({ model: "fake-gpt-2", api_key_saved: true, api_key_hint: "••••wxyz" });
    const [kept] = (await providerRows(server)).filter((r) => r.user_id === userId);
    expect(server.deps.vault.decrypt(kept!.secret_ciphertext!)).toBe(KEY);

    // A short key shows no characters at all.
    expect(
      await trpc.modelProviders.saveMine.mutate({ base_url: llm.url, model: "m", api_key: "short-key" }),
    ).toMatchObject({ api_key_saved: true, api_key_hint: null });

    // "Remove key" clears it (a local server needs none); Remove deletes the whole provider.
    expect(
      await trpc.modelProviders.saveMine.mutate({ base_url: llm.url, model: "m", remove_api_key: true }),
    ).toMatchObject({ configured: true, api_key_saved: false, api_key_hint: null });
    const [cleared] = (await providerRows(server)).filter((r) => r.user_id === userId);
    expect(cleared!.secret_ciphertext).toBeNull();
    const removed = await client.request("DELETE", "/api/model-provider");
    expect(removed.json).toMatchObject({ configured: false });
    expect((await providerRows(server)).filter((r) => r.user_id === userId)).toHaveLength(0);
  });

  it("validates what is saved: http(s) URLs without credentials, a model name, bounded key and concurrency", async () => {
    const { client, userId } = await signedIn();
    const ok = { base_url: llm.url, model: "fake-gpt" };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...ok, base_url: "ftp://models.example.com/v1" }, "Base URL must be an http:// or https:// address"],
      [{ ...ok, base_url: "file:///etc/passwd" }, "Base URL must be an http:// or https:// address"],
      [{ ...ok, base_url: "not a url" }, "Base URL must be an http:// or https:// address"],
      [{ ...ok, base_url: "" }, "Base URL is required"],
      [
        { ...ok, base_url: "https://user:sk-secret@models.example.com/v1" },
        "Put the API key in its own field, not in the URL",
      ],
      [{ ...ok, model: "   " }, "Model name is required"],
      [{ ...ok, model: "m".repeat(201) }, "Model name must be at most 200 characters"],
      [{ ...ok, api_key: "k".repeat(501) }, "API key must be at most 500 characters"],
      [{ ...ok, concurrency: 0 }, "Concurrency must be between 1 and 16"],
      [{ ...ok, concurrency: 17 }, "Concurrency must be between 1 and 16"],
      [
        { ...ok, api_key: "sk-new", remove_api_key: true },
        "Enter a new API key or remove the saved one, not both",
      ],
      [{ ...ok, extra: 1 }, "Unknown field: extra"],
    ];
    for (const [body, detail] of cases) {
      const res = await client.request("PUT", "/api/model-provider", body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.json.detail).toBe(detail);
    }
    expect((await providerRows(server)).filter((r) => r.user_id === userId)).toHaveLength(0);
    expect(
      (await client.request("PUT", "/api/model-provider", { ...ok, model: "m".repeat(200) })).status,
    ).toBe(200);
    expect((await new TestClient(server.url).get("/api/model-provider")).status).toBe(401);
  });
});

describe("the instance's model provider", () => {
  it("is for admins only: a user can neither read nor set it, over tRPC or REST", async () => {
    const { client, trpc } = await signedIn();
    const body = { base_url: llm.url, model: "instance-model", api_key: KEY };
    expect((await trpcError(trpc.modelProviders.instance.query())).data.code).toBe("FORBIDDEN");
    expect((await trpcError(trpc.modelProviders.saveInstance.mutate(body))).data.code).toBe("FORBIDDEN");
    expect((await trpcError(trpc.modelProviders.removeInstance.mutate())).data.code).toBe("FORBIDDEN");
    expect((await trpcError(trpc.modelProviders.testInstance.mutate(body))).data.code).toBe("FORBIDDEN");
    expect((await client.request("PUT", "/api/admin/model-provider", body)).status).toBe(403);
    expect((await client.get("/api/admin/model-provider")).status).toBe(403);
    expect((await client.request("DELETE", "/api/admin/model-provider")).status).toBe(403);
    expect((await providerRows(server)).filter((r) => r.user_id === null)).toHaveLength(0);
    expect(llm.requests).toHaveLength(0);

    const adminTrpc = trpcHttp(admin);
    const saved = await adminTrpc.modelProviders.saveInstance.mutate({ ...body, concurrency: 2 });
    expect(saved).toMatchObject({
      configured: true,
      model: "instance-model",
      concurrency: 2,
      environment: null,
    });
    expect(JSON.stringify(saved)).not.toContain(KEY);
    const rows = (await providerRows(server)).filter((r) => r.user_id === null);
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(KEY);
    // Saved again: still the one instance row.
    await adminTrpc.modelProviders.saveInstance.mutate({ ...body, model: "instance-model-2" });
    expect((await providerRows(server)).filter((r) => r.user_id === null)).toHaveLength(1);
    const read = await admin.get("/api/admin/model-provider");
    expect(read.json).toMatchObject({ model: "instance-model-2", concurrency: 2, api_key_saved: true });
    expect(read.text).not.toContain(KEY);
    await adminTrpc.modelProviders.removeInstance.mutate();
  });
});

describe("which planner runs", () => {
  it("the user's own provider over the instance's, the instance's over none", async () => {
    const adminTrpc = trpcHttp(admin);
    const { trpc } = await signedIn();
    expect(await trpc.modelProviders.plannerForMe.query()).toEqual({
      name: "offline",
      model: null,
      source: "none",
      problem: null,
    });
    await adminTrpc.modelProviders.saveInstance.mutate({ base_url: llm.url, model: "instance-model" });
    expect(await trpc.modelProviders.plannerForMe.query()).toMatchObject({
      name: "langchain",
      model: "instance-model",
      source: "instance settings",
    });
    await trpc.modelProviders.saveMine.mutate({ base_url: llm.url, model: "own-model", api_key: KEY });
    expect(await trpc.modelProviders.plannerForMe.query()).toMatchObject({
      name: "langchain",
      model: "own-model",
      source: "your settings",
    });
    await trpc.modelProviders.removeMine.mutate();
    expect((await trpc.modelProviders.plannerForMe.query()).source).toBe("instance settings");
    await adminTrpc.modelProviders.removeInstance.mutate();
    expect((await trpc.modelProviders.plannerForMe.query()).source).toBe("none");
  });

  it("environment variables over the instance's settings (read-only then), a user's own over both", async () => {
    const env = await startModelBackedServer({ ADMIN_EMAILS: ADMIN, OUTBOUND_ALLOW: new URL(llm.url).host });
    try {
      const envAdmin = trpcHttp(await registerAdmin(env.server));
      const instance = await envAdmin.modelProviders.instance.query();
      expect(instance.environment).toMatchObject({
        base_url: env.llm.url,
        model: "fake-gpt",
        api_key_saved: true,
      });
      expect(JSON.stringify(instance)).not.toContain(env.llm.apiKey);
      const refused = await trpcError(
        envAdmin.modelProviders.saveInstance.mutate({ base_url: llm.url, model: "instance-model" }),
      );
      expect(refused.data.code).toBe("CONFLICT");
      expect(refused.message).toMatch(/^Environment variables \(OPENAI_BASE_URL \/ OPENAI_API_KEY\) set/);
      expect((await trpcError(envAdmin.modelProviders.removeInstance.mutate())).data.code).toBe("CONFLICT");
      // A row saved before the variables were set (written here directly) stays unused while they are.
      await writeProvider(
        env.server.deps,
        { instance: true },
        { baseUrl: llm.url, model: "instance-model", concurrency: 4, apiKey: null },
        (await envAdmin.auth.me.query()).id,
      );
      const { trpc } = await signedIn(env.server);
      expect(await trpc.modelProviders.plannerForMe.query()).toMatchObject({
        name: "langchain",
        model: "fake-gpt",
        source: "environment",
      });
      await trpc.modelProviders.saveMine.mutate({ base_url: llm.url, model: "own-model", api_key: KEY });
      expect(await trpc.modelProviders.plannerForMe.query()).toMatchObject({
        model: "own-model",
        source: "your settings",
      });
    } finally {
      await env.stop();
    }
  });

  it("plans a user's task with that user's provider: its model on the task, the calls at its endpoint", async () => {
    llm.setPlanShape({ subtasks: 2, complexity: (depth) => (depth === 0 ? 8 : 3) });
    const owner = await signedIn();
    await owner.trpc.modelProviders.saveMine.mutate({
      base_url: llm.url,
      model: "own-fake-model",
      api_key: KEY,
      concurrency: 1,
    });
    const created = await owner.client.post("/api/tasks", {
      description: "A booking site for a climbing gym",
      max_depth: 2,
      max_subtasks: 2,
    });
    expect(created.status).toBe(201);
    const task = await waitForStatus(owner.client, created.json.id, ["completed", "failed"]);
    expect(task).toMatchObject({ status: "completed", planner: "langchain", model: "own-fake-model" });
    expect(task.predictions.llm_calls).toBeGreaterThan(0);
    expect(llm.requests.length).toBeGreaterThanOrEqual(4);
    expect(new Set(llm.requests.map((r) => r.model))).toEqual(new Set(["own-fake-model"]));
    // The provider's concurrency (1) holds across parallel splits and the composer's two calls.
    expect(llm.maxInFlight).toBe(1);

    // Another user, with no provider anywhere, still gets the outline, and the model is not called.
    const before = llm.requests.length;
    const other = await signedIn();
    const theirs = await other.client.post("/api/tasks", { description: "A recipe site", max_depth: 1 });
    expect(await waitForStatus(other.client, theirs.json.id, ["completed", "failed"])).toMatchObject({
      status: "completed",
      planner: "offline",
      model: null,
    });
    expect(llm.requests.length).toBe(before);
  });

  it("fails a decomposition with a clear reason when the saved key can no longer be read", async () => {
    const { client, trpc, userId } = await signedIn();
    await trpc.modelProviders.saveMine.mutate({ base_url: llm.url, model: "own-model", api_key: KEY });
    await server.deps.database.rows(
      sql`update model_providers set secret_ciphertext = 'v1.AAAA.BBBB.CCCC' where user_id = ${userId}`,
    );
    expect(await trpc.modelProviders.mine.query()).toMatchObject({
      api_key_saved: true,
      api_key_unreadable: true,
    });
    const choice = await trpc.modelProviders.plannerForMe.query();
    expect(choice).toMatchObject({ name: "langchain", model: "own-model", source: "your settings" });
    expect(choice.problem).toMatch(/can no longer be read/);
    const created = await client.post("/api/tasks", { description: "Unreadable key", max_depth: 1 });
    const task = await waitForStatus(client, created.json.id, ["completed", "failed"]);
    expect(task.status).toBe("failed");
    expect(task.failure_reason).toMatch(/^The API key saved in your AI model settings can no longer be read/);
    expect(llm.requests).toHaveLength(0);
  });
});

describe("testing a connection", () => {
  it("makes one tiny call and returns the provider's answer, or its 401 in its own words, never the key", async () => {
    const { trpc } = await signedIn();
    const ok = await trpc.modelProviders.testMine.mutate({
      base_url: llm.url,
      model: "fake-gpt",
      api_key: KEY,
    });
    expect(ok).toMatchObject({ ok: true, model: "fake-gpt" });
    if (!ok.ok) throw new Error("expected ok");
    expect(ok.answer).toMatch(/^Fake answer to: /);
    expect(llm.requests).toHaveLength(1);
    expect(llm.requests[0]!.maxTokens).toBeLessThanOrEqual(5);
    expect(llm.requests[0]!.model).toBe("fake-gpt");

    const wrongKey = "sk-wrong-key-for-settings-9876";
    const refused = await trpc.modelProviders.testMine.mutate({
      base_url: llm.url,
      model: "fake-gpt",
      api_key: wrongKey,
    });
    expect(refused).toMatchObject({ ok: false, status: 401 });
    if (refused.ok) throw new Error("expected a refusal");
    // The fake's own words, as OpenAI words them (with its masked echo of the key).
    expect(refused.message).toMatch(
      /^Incorrect API key provided: sk-\*+9876\. You can find your API key at /,
    );
    expect(JSON.stringify(refused)).not.toContain(wrongKey);
    expect(llm.requests).toHaveLength(2); // no retries

    // An empty key field tests with the saved key; nothing is saved by a test.
    await trpc.modelProviders.saveMine.mutate({ base_url: llm.url, model: "fake-gpt", api_key: KEY });
    expect(await trpc.modelProviders.testMine.mutate({ base_url: llm.url, model: "fake-gpt" })).toMatchObject(
      {
        ok: true,
      },
    );
    expect(
      await trpc.modelProviders.testMine.mutate({
        base_url: llm.url,
        model: "fake-gpt",
        remove_api_key: true,
      }),
    ).toMatchObject({ ok: false, status: 401 });
    expect((await trpc.modelProviders.mine.query()).model).toBe("fake-gpt");

    llm.setMode("model_not_found", { times: 1 });
    const missing = await trpc.modelProviders.testMine.mutate({ base_url: llm.url, model: "nope" });
    expect(missing).toMatchObject({
      ok: false,
      status: 404,
      message: "The model `nope` does not exist or you do not have access to it.",
    });
  });

  it("reports an endpoint that is down, and follows no redirect", async () => {
    const closed = await startFakeOpenAI();
    const deadUrl = closed.url;
    await closed.close();
    // A provider that redirects (here towards the fake model) is not followed there.
    const redirecting = createServer((req, res) => {
      req.resume();
      res.writeHead(307, { location: `${llm.url}/chat/completions` });
      res.end();
    });
    await new Promise<void>((r) => redirecting.listen(0, "127.0.0.1", () => r()));
    const port = (redirecting.address() as { port: number }).port;
    // Both loopback ports are opened for this server only: a user's settings reach nothing local otherwise.
    const open = await startTestServer({
      OUTBOUND_ALLOW: [new URL(deadUrl).host, `127.0.0.1:${port}`, new URL(llm.url).host].join(","),
    });
    try {
      const { client } = await signedIn(open);
      const down = await client.post("/api/model-provider/test", { base_url: deadUrl, model: "m" });
      expect(down.status).toBe(200);
      expect(down.json).toMatchObject({
        ok: false,
        status: null,
        message: "Could not connect to the provider.",
      });

      const res = await client.post("/api/model-provider/test", {
        base_url: `http://127.0.0.1:${port}/v1`,
        model: "fake-gpt",
        api_key: KEY,
      });
      expect(res.json).toMatchObject({ ok: false, status: 307 });
      expect(res.json.message).toMatch(/redirect \(HTTP 307\), which Atomize does not follow/);
      expect(llm.requests).toHaveLength(0);
    } finally {
      redirecting.close();
      await open.stop();
    }
  });

  it("limits how often one user can start tests", async () => {
    const { client } = await signedIn();
    const body = { base_url: llm.url, model: "fake-gpt", api_key: KEY };
    for (let i = 0; i < 10; i++)
      expect((await client.post("/api/model-provider/test", body)).status).toBe(200);
    const limited = await client.post("/api/model-provider/test", body);
    expect(limited.status).toBe(429);
    expect(limited.json.detail).toBe("Too many connection tests. Please wait a few minutes and try again.");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(llm.requests).toHaveLength(10);
    // Another user has their own allowance.
    const other = await signedIn();
    expect((await other.client.post("/api/model-provider/test", body)).status).toBe(200);
  });
});

describe("finding a local Ollama", () => {
  it("offers the models found at start, and finds new ones when asked to look again", async () => {
    const { client, trpc } = await signedIn();
    const found = await trpc.modelProviders.ollama.query();
    expect(found).toMatchObject({
      status: "found",
      url: ollama.url,
      base_url: `${ollama.url}/v1`,
      message: null,
      models: [
        { name: "llama3.2:latest", size: 2019393189, parameter_size: "3.2B" },
        { name: "qwen2.5-coder:7b", size: 4683087332, parameter_size: "7.6B" },
      ],
    });
    expect(ollama.requests.filter((r) => r.path === "/api/tags").length).toBeGreaterThanOrEqual(1);
    // Never enabled by itself.
    expect((await trpc.modelProviders.plannerForMe.query()).source).toBe("none");

    ollama.setModels([{ name: "mistral:7b", parameterSize: "7.2B" }]);
    await new Promise((r) => setTimeout(r, 2_100)); // a probe is shared for two seconds
    const again = await client.post("/api/ollama/detect");
    expect(again.json).toMatchObject({ status: "found", models: [{ name: "mistral:7b" }] });
    expect((await client.get("/api/ollama/models")).json.models).toEqual([
      { name: "mistral:7b", size: 1_000_000_000, parameter_size: "7.2B" },
    ]);
    expect((await new TestClient(server.url).get("/api/ollama/models")).status).toBe(401);
  });

  it("ignores garbage, and gives up on a server that does not answer in time", async () => {
    const fake = await startFakeOllama();
    // The probe's own address is the operator's OLLAMA_URL, which the outbound guard allows.
    const through = outboundFetch(loadConfig({ OLLAMA_URL: fake.url }), "user");
    try {
      fake.setMode("bad_entries");
      const mixed = await probeOllama(fake.url, 1000, through);
      expect(mixed.status).toBe("found");
      expect(mixed.models.map((m) => m.name)).toEqual(["mistral:7b", "phi3:mini"]);
      expect(mixed.models[1]).toEqual({ name: "phi3:mini", size: null, parameter_size: null });

      for (const [mode, status, message] of [
        ["not_json", "invalid", /did not answer with JSON/],
        ["wrong_shape", "invalid", /not with Ollama's list of models/],
        ["server_error", "not_found", /answered HTTP 500/],
        ["redirect", "not_found", /answered HTTP 302/],
        ["huge", "invalid", /more than we read/],
      ] as const) {
        fake.setMode(mode);
        const r = await probeOllama(fake.url, 2000, through);
        expect(r, mode).toMatchObject({ status, models: [] });
        expect(r.message, mode).toMatch(message);
      }

      fake.setMode("hang");
      const started = Date.now();
      const slow = await probeOllama(fake.url, 300, through);
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(slow).toMatchObject({ status: "not_found", models: [] });
      expect(slow.message).toBe(`Nothing answered at ${fake.url} within 300 ms.`);

      fake.setMode("ok");
      fake.setModels([]);
      expect(await probeOllama(fake.url, 1000, through)).toMatchObject({
        status: "found",
        models: [],
        message: "Ollama is running but has no models yet: pull one (ollama pull llama3.2).",
      });
    } finally {
      await fake.close();
    }
    const gone = await probeOllama(fake.url, 1000, through);
    expect(gone).toMatchObject({ status: "not_found", message: `No Ollama is running at ${fake.url}.` });
  });

  it("is not looked for when OLLAMA_URL is empty", async () => {
    const off = await startTestServer(); // the test servers set OLLAMA_URL empty
    try {
      const { trpc } = await signedIn(off);
      expect(await trpc.modelProviders.ollama.query()).toMatchObject({
        status: "disabled",
        models: [],
        url: null,
      });
      expect(await trpc.modelProviders.detectOllama.mutate()).toMatchObject({ status: "disabled" });
    } finally {
      await off.stop();
    }
  });
});
