import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { exports } from "../../src/server/db/schema/index";
import { registerUser, TestClient } from "../support/http-client";
import { seedTree } from "../support/seed";
import { startTestServer, type TestServer } from "../support/server";

/**
 * One liveness mechanism per transport: every raw /ws socket (task channels and export channels alike)
 * gets protocol pings, and one that stops answering is dropped; clients need no timers of their own.
 */
// Client and server share one process here: an interval short enough to be missed while a busy machine
// does not schedule the process drops a live socket. 500 ms leaves that room and keeps the suite short.
const PING_MS = 500;
let server: TestServer;
let token: string;
let exportId: string;

beforeAll(async () => {
  server = await startTestServer({ WS_PING_MS: String(PING_MS), JOBS_ENABLED: "false" });
  const client = new TestClient(server.url);
  const { user, access_token } = await registerUser(client);
  token = access_token;
  const { rootId } = await seedTree(server.deps.database, user.id, { fanout: 1, depth: 1 });
  // A queued export nobody runs (jobs are off): its channel stays open, waiting for progress.
  const [row] = await server.deps.db
    .insert(exports)
    .values({ userId: user.id, taskId: rootId, kind: "github", status: "queued", config: {}, state: {} })
    .returning({ id: exports.id });
  exportId = row!.id;
});
afterAll(() => server?.stop());

function open(path: string, opts: { autoPong?: boolean } = {}) {
  const ws = new WebSocket(`${server.url.replace("http", "ws")}${path}?token=${token}`, opts);
  let pings = 0;
  ws.on("ping", () => {
    pings += 1;
  });
  ws.on("error", () => {});
  const closed = new Promise<number>((resolve) => ws.on("close", (code) => resolve(code)));
  const opened = new Promise<void>((resolve) => ws.once("open", () => resolve()));
  return { ws, closed, opened, pings: () => pings };
}

const within = <T>(p: Promise<T>, ms: number) =>
  Promise.race([p, new Promise<"timeout">((resolve) => setTimeout(() => resolve("timeout"), ms))]);

describe.each([
  ["a task channel", () => "/ws/global"],
  ["an export channel", () => `/ws/github-export/${exportId}`],
])("liveness of %s", (_name, path) => {
  it("pings an open socket, which answers by itself and stays open", async () => {
    const live = open(path());
    await live.opened;
    expect(await within(live.closed, PING_MS * 6)).toBe("timeout");
    expect(live.pings()).toBeGreaterThanOrEqual(3);
    live.ws.close();
  });

  it("drops a socket that does not answer its pings", async () => {
    const silent = open(path(), { autoPong: false });
    await silent.opened;
    expect(await within(silent.closed, PING_MS * 10)).toBe(1006);
    expect(silent.pings()).toBeGreaterThanOrEqual(1);
  });
});
