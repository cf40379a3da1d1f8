/**
 * Events between processes: what another process announces on the channel is checked against the
 * schema every event is declared by (shared/schemas/realtime.ts) before anyone here hears it. On
 * PostgreSQL the announcement crosses connections (LISTEN/NOTIFY); on PGlite it stays in the process.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { EVENT_CHANNEL } from "../../src/server/events/event-bus";
import { startTestServer, type TestServer } from "../support/server";
import { waitUntil } from "../support/wait";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.stop());

const announced = (id: number, data: Record<string, unknown>) => ({
  id,
  type: "task.ready",
  user_id: "someone",
  task_id: "t1",
  root_task_id: "r1",
  timestamp: new Date().toISOString(),
  data,
});

it("hears an event from another process only when it is what its type declares", async () => {
  const heard: number[] = [];
  const stop = server.deps.events.subscribe((e) => heard.push(e.id));
  try {
    const { database } = server.deps;
    await database.notify(EVENT_CHANNEL, JSON.stringify(announced(1, { ready: "t2" })));
    await database.notify(EVENT_CHANNEL, JSON.stringify(announced(2, {})));
    await database.notify(
      EVENT_CHANNEL,
      JSON.stringify({ ...announced(3, { ready: ["t2"], ready_count: 1 }), type: "task.renamed" }),
    );
    await database.notify(EVENT_CHANNEL, "{not json");
    await database.notify(EVENT_CHANNEL, JSON.stringify(announced(4, { ready: ["t2"], ready_count: 1 })));
    // Notifications arrive in the order they were sent: once the last is heard, the others were judged.
    await waitUntil(() => heard.includes(4), { message: () => `heard ${JSON.stringify(heard)}` });
    expect(heard).toEqual([4]);
  } finally {
    stop();
  }
});
