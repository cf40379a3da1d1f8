import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { realtimeEvent } from "../../src/shared/schemas/realtime";
import { waitForStatus } from "../support/decomposition";
import { registerUser, TestClient } from "../support/http-client";
import { startTestServer, type TestServer } from "../support/server";
import { trpcWs } from "../support/trpc-client";
import { waitUntil } from "../support/wait";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.stop());

type Msg = Record<string, any>;

/** Opens a raw channel and collects its messages; resolves with the close code if the server closes it. */
function openChannel(path: string, headers: Record<string, string> = {}) {
  const ws = new WebSocket(`${server.url.replace("http", "ws")}${path}`, { headers });
  const messages: Msg[] = [];
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on("close", (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  ws.on("message", (d) => messages.push(JSON.parse(d.toString())));
  ws.on("error", () => {});
  const waitFor = (pred: (m: Msg) => boolean, timeoutMs = 15_000) =>
    waitUntil(() => messages.find(pred), {
      timeoutMs,
      intervalMs: 25,
      message: () => `no matching message on ${path}; got ${JSON.stringify(messages.map((m) => m.type))}`,
    });
  return { ws, messages, closed, waitFor };
}

describe("raw realtime channels", () => {
  it("streams a decomposition on /ws/tasks/{id}: connection_established, history, stages in order, completion", async () => {
    const client = new TestClient(server.url);
    const { access_token } = await registerUser(client);
    const created = await client.post("/api/tasks", {
      description: "A blog with comments",
      max_depth: 2,
      max_subtasks: 3,
    });
    const ch = openChannel(`/ws/tasks/${created.json.id}?token=${access_token}`);
    await ch.waitFor((m) => m.type === "connection_established");
    await ch.waitFor(
      (m) =>
        m.type === "decomposition.completed" ||
        (m.type === "event_history" && m.events.some((e: Msg) => e.data.type === "decomposition.completed")),
    );
    const events: Msg[] = [
      ...(ch.messages.find((m) => m.type === "event_history")?.events.map((e: Msg) => e.data) ?? []),
      ...ch.messages.filter((m) => m.type !== "event_history" && m.type !== "connection_established"),
    ];
    const stages = events
      .filter((e) => e.type === "service.status" && e.status === "started")
      .map((e) => e.operator_id);
    expect(stages).toEqual([
      "source",
      "context_fetch",
      "complexity_scorer",
      "root_processor",
      "decomposer",
      "composer",
    ]);
    const types = events.map((e) => e.type);
    for (const t of [
      "task.created",
      "decomposition.started",
      "task.decomposed",
      "event_modeling.started",
      "event_modeling.completed",
      "decomposition.completed",
    ]) {
      expect(types).toContain(t);
    }
    expect(types.indexOf("task.decomposed")).toBeLessThan(types.indexOf("decomposition.completed"));
    for (const e of events) expect(e.user_id).toBeUndefined();
    // Each is what its type declares (EVENT_DATA), stored and read back or live, as the client reads it.
    // (The channel's other messages, such as who has the plan open, are not task events.)
    for (const e of events.filter((m) => m.type !== "presence"))
      expect(realtimeEvent.safeParse(e).error, JSON.stringify(e)).toBeUndefined();
    ch.ws.send(JSON.stringify({ type: "heartbeat" }));
    await ch.waitFor((m) => m.type === "heartbeat");
    ch.ws.send("not json");
    await ch.waitFor((m) => m.type === "error");
    ch.ws.close();
  });

  it("replays the history to a late joiner", async () => {
    const client = new TestClient(server.url);
    const { access_token, user } = await registerUser(client);
    const created = await client.post("/api/tasks", { description: "Replay me", max_depth: 1 });
    await waitForStatus(client, created.json.id, ["completed"]);
    // The root is marked completed a moment before the last events are published: join after them.
    await waitUntil(
      async () =>
        (await server.deps.events.history({ userId: user.id, rootTaskId: created.json.id })).some(
          (e) => e.type === "decomposition.completed",
        ),
      { intervalMs: 20, message: "decomposition.completed was published" },
    );
    const ch = openChannel(`/ws/tasks/${created.json.id}?token=${access_token}`);
    const history = await ch.waitFor((m) => m.type === "event_history");
    expect(history.events.map((e: Msg) => e.data.type)).toContain("decomposition.completed");
    expect(history.events[0]).toMatchObject({
      channel: `tasks/${created.json.id}`,
      timestamp: expect.any(String),
    });
    ch.ws.close();
  });

  it("closes with 4401 for a bad token and 4404 for another user's task", async () => {
    const bad = openChannel("/ws/global?token=nope.nope");
    expect(await bad.closed).toEqual({ code: 4401, reason: "Unauthorized: sign in again" });
    const owner = new TestClient(server.url);
    await registerUser(owner);
    const task = await owner.post("/api/tasks", { description: "Mine" });
    const intruder = await registerUser(new TestClient(server.url));
    const foreign = openChannel(`/ws/tasks/${task.json.id}?token=${intruder.access_token}`);
    expect(await foreign.closed).toEqual({ code: 4404, reason: "Task not found" });
    const junk = openChannel(`/ws/tasks/not-a-task?token=${intruder.access_token}`);
    expect((await junk.closed).code).toBe(4404);
  });

  it("only ever delivers a user's own events on /ws/global", async () => {
    const alice = new TestClient(server.url);
    const a = await registerUser(alice);
    const b = await registerUser(new TestClient(server.url));
    const aliceCh = openChannel(`/ws/global?token=${a.access_token}`);
    const bobCh = openChannel(`/ws/global?token=${b.access_token}`);
    await aliceCh.waitFor((m) => m.type === "connection_established");
    await bobCh.waitFor((m) => m.type === "connection_established");
    const created = await alice.post("/api/tasks", { description: "Alice's secret project", max_depth: 1 });
    await aliceCh.waitFor((m) => m.type === "decomposition.completed" && m.task_id === created.json.id);
    expect(bobCh.messages.filter((m) => m.task_id === created.json.id)).toEqual([]);
    expect(JSON.stringify(bobCh.messages)).not.toContain("Alice's secret project");
    aliceCh.ws.close();
    bobCh.ws.close();
  });
});

describe("tRPC realtime subscriptions", () => {
  it("streams task events, resumes after lastEventId, and refuses another user's task", async () => {
    const client = new TestClient(server.url);
    const { access_token } = await registerUser(client);
    const created = await client.post("/api/tasks", { description: "Subscribe to me", max_depth: 1 });
    const ws = trpcWs(server.url, { token: access_token });
    const seen: { id: string; type: string }[] = [];
    await new Promise<void>((resolve, reject) => {
      const sub = ws.client.realtime.taskEvents.subscribe(
        { taskId: created.json.id },
        {
          onData: (d) => {
            seen.push({ id: d.id, type: d.data.type });
            if (d.data.type === "decomposition.completed") {
              sub.unsubscribe();
              resolve();
            }
          },
          onError: reject,
        },
      );
    });
    expect(seen.map((s) => s.type)).toContain("service.status");
    const ids = seen.map((s) => Number(s.id));
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
    const resumeFrom = seen[2]!.id;
    const resumed: string[] = [];
    await new Promise<void>((resolve, reject) => {
      const sub = ws.client.realtime.taskEvents.subscribe(
        { taskId: created.json.id, lastEventId: resumeFrom },
        {
          onData: (d) => {
            resumed.push(d.id);
            if (d.data.type === "decomposition.completed") {
              sub.unsubscribe();
              resolve();
            }
          },
          onError: reject,
        },
      );
    });
    expect(resumed[0]).toBe(seen[3]!.id);

    const other = await registerUser(new TestClient(server.url));
    const ws2 = trpcWs(server.url, { token: other.access_token });
    const code = await new Promise<string>((resolve) => {
      ws2.client.realtime.taskEvents.subscribe(
        { taskId: created.json.id },
        { onData: () => resolve("DATA"), onError: (e) => resolve((e.data as { code: string }).code) },
      );
    });
    expect(code).toBe("NOT_FOUND");
    ws.close();
    ws2.close();
  });
});

describe("task changes are published", () => {
  it("an edit and a completion reach the global channel as task.updated, task.status_changed and task.completed", async () => {
    const client = new TestClient(server.url);
    const { access_token } = await registerUser(client);
    const created = await client.post("/api/tasks", { description: "Watch my edits", max_depth: 1 });
    await waitForStatus(client, created.json.id, ["completed"]);
    const subtask = (await client.get(`/api/tasks/${created.json.id}/tree`)).json.children[0];
    const ch = openChannel(`/ws/global?token=${access_token}`);
    await ch.waitFor((m) => m.type === "connection_established");
    await client.request("PATCH", `/api/tasks/${subtask.id}`, { status: "in_progress" });
    await client.post(`/api/tasks/${subtask.id}/complete`);
    const completed = await ch.waitFor((m) => m.type === "task.completed" && m.task_id === subtask.id);
    expect(completed).toMatchObject({ root_task_id: created.json.id, status: "completed" });
    const mine = ch.messages
      .filter((m) => m.task_id === subtask.id && m.type !== "task.ready")
      .map((m) => `${m.type}:${m.status}`);
    expect(mine).toEqual([
      "task.updated:in_progress",
      "task.status_changed:in_progress",
      "task.updated:completed",
      "task.status_changed:completed",
      "task.completed:completed",
    ]);
    // The first subtask starts the plan, and others wait for it: completing it makes those with nothing
    // else to wait for ready, live.
    const ready = await ch.waitFor((m) => m.type === "task.ready" && m.task_id === subtask.id);
    const waiting = (await client.get(`/api/tasks/${created.json.id}/tree`)).json.children
      .filter((c: { depends_on: string[] }) => c.depends_on.includes(subtask.id))
      .map((c: { id: string }) => c.id);
    expect(ready.data.ready.length).toBeGreaterThan(0);
    for (const id of ready.data.ready) expect(waiting).toContain(id);
    await client.request("DELETE", `/api/tasks/${subtask.id}/subtask`);
    await ch.waitFor((m) => m.type === "task.deleted" && m.task_id === subtask.id);
    ch.ws.close();
  });
});
