import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { EVENT_MODEL_KEPT_WARNING } from "../../src/server/engine/compose";
import type { FakeOpenAI } from "../fakes/openai";
import { startModelBackedServer, waitForStatus } from "../support/decomposition";
import { registerUser, TestClient } from "../support/http-client";
import type { TestServer } from "../support/server";
import { trpcHttp } from "../support/trpc-client";
import { waitUntil } from "../support/wait";

// A person's edit of the event model saved while the decomposition runs must survive the composer.
let llm: FakeOpenAI;
let server: TestServer;
let stop: () => Promise<void>;

beforeAll(async () => {
  ({ llm, server, stop } = await startModelBackedServer({ LLM_TIMEOUT_MS: "10000" }));
});
afterAll(() => stop?.());
beforeEach(() => {
  llm.reset();
  // Two levels: the root's three children are atomic, so the run is the root stages plus the composer.
  llm.setPlanShape({ subtasks: 3, complexity: () => 3 });
});

async function signedIn() {
  const client = new TestClient(server.url);
  await registerUser(client);
  return client;
}

const body = { description: "A booking system for a small climbing gym", max_depth: 2, max_subtasks: 3 };

async function storedModel(rootId: string) {
  const [row] = await server.deps.database.rows<{ markdown: string; user_edited_at: Date | null }>(
    sql`select markdown, user_edited_at from event_models where root_task_id = ${rootId}`,
  );
  return row;
}

describe("an event model edited during the decomposition", () => {
  it("is applied as generated when nobody edits it", async () => {
    llm.setLatency(50);
    const client = await signedIn();
    const created = await client.post("/api/tasks", body);
    const done = await waitForStatus(client, created.json.id, ["completed", "failed"]);
    expect(done.status).toBe("completed");
    expect(done.metadata.event_model_markdown).toBeTruthy();
    expect(done.warnings).not.toContain(EVENT_MODEL_KEPT_WARNING);
    expect((await storedModel(created.json.id))!.user_edited_at).toBeNull();
  });

  it("keeps an edit saved early in the run (REST), and says the generated model was not applied", async () => {
    llm.setLatency(300);
    const client = await signedIn();
    const created = await client.post("/api/tasks", body);
    const id = created.json.id as string;
    await waitForStatus(client, id, ["processing"]);
    const edited = "## My own model\n- BookingRequested\n- BookingConfirmed";
    const saved = await client.request("PATCH", `/api/tasks/${id}/event-model`, {
      event_model_markdown: edited,
    });
    expect(saved.status).toBe(200);
    const done = await waitForStatus(client, id, ["completed", "failed"]);
    expect(done.status).toBe("completed");
    // The composer did run (its event-model call was made), but the person's model stands.
    expect(llm.requests.map((r) => r.schemaName)).toContain("event_model");
    expect(done.metadata.event_model_markdown).toBe(edited);
    expect(done.warnings).toContain(EVENT_MODEL_KEPT_WARNING);
    expect((await storedModel(id))!.user_edited_at).toBeTruthy();
    // The rest of the composer's work is applied: epics and user stories.
    expect(done.context.epics.length).toBeGreaterThan(0);
  });

  it("keeps an edit saved while the composer's own model call is in flight (tRPC)", async () => {
    const client = await signedIn();
    const trpc = trpcHttp(client);
    // Slow answers only from the moment the composer asks for its context and event model (set before the
    // task exists: at no latency the composer can start before the create call has returned).
    llm.setLatency(0);
    let composing = false;
    llm.setResponder((req) => {
      if (req.schemaName === "event_model" || req.schemaName === "project_context") {
        composing = true;
        llm.setLatency(1500);
      }
      return undefined;
    });
    const created = await trpc.tasks.create.mutate(body);
    await waitUntil(() => composing, { timeoutMs: 20_000, intervalMs: 10, message: "the composer started" });
    const edited = "## Edited while the composer ran";
    await trpc.tasks.updateEventModel.mutate({ id: created.id, event_model_markdown: edited });
    const done = await waitForStatus(client, created.id, ["completed", "failed"]);
    expect(done.status).toBe("completed");
    expect(done.metadata.event_model_markdown).toBe(edited);
    expect(done.warnings).toContain(EVENT_MODEL_KEPT_WARNING);
  });

  it("keeps an edit made while the plan waited for review, and restarting gives the model back to the planner", async () => {
    llm.setLatency(0);
    const client = await signedIn();
    const created = await client.post("/api/tasks", { ...body, requires_approval: true });
    const id = created.json.id as string;
    await waitForStatus(client, id, ["submitted"]);
    const edited = "## Reviewed and edited";
    await client.request("PATCH", `/api/tasks/${id}/event-model`, { event_model_markdown: edited });
    expect((await client.post(`/api/tasks/${id}/approve`)).status).toBe(200);
    const done = await waitForStatus(client, id, ["completed", "failed"]);
    expect(done.metadata.event_model_markdown).toBe(edited);

    // A restart is the person asking for a new plan: the next model is generated and applied.
    expect((await client.post(`/api/tasks/${id}/restart-decomposition`)).status).toBe(200);
    await waitForStatus(client, id, ["submitted"]);
    expect((await client.post(`/api/tasks/${id}/approve`)).status).toBe(200);
    const again = await waitForStatus(client, id, ["completed", "failed"]);
    expect(again.status).toBe("completed");
    expect(again.metadata.event_model_markdown).not.toBe(edited);
    expect(again.warnings).not.toContain(EVENT_MODEL_KEPT_WARNING);
    expect((await storedModel(id))!.user_edited_at).toBeNull();
  });
});
