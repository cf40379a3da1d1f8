import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { LoggedRequest } from "../fakes/kit";
import { type FakeTrello, startFakeTrello } from "../fakes/trello";
import { waitForExport } from "../support/exports";
import { registerUser, TestClient } from "../support/http-client";
import { seedTree } from "../support/seed";
import { startTestServer, type TestServer } from "../support/server";

/**
 * The Trello export on Trello's own terms (tests/fakes/trello.ts cites the OpenAPI description and guides
 * the fake follows): the credentials check and the export present the key and token the same way, the
 * parameters go where Trello documents them, and a create whose answer was lost is neither lost nor made
 * twice.
 */

const KEY = "0123456789abcdef0123456789abcdef";
const TOKEN = "ATTAsite0000000000000000000000000000000000000000000000000000000000";
const HEADER = `OAuth oauth_consumer_key="${KEY}", oauth_token="${TOKEN}"`;
/** What Trello documents only as query parameters (OpenAPI post-boards, post-lists, post-labels, post-checklists, post-checklists-id-checkitems). */
const QUERY_ONLY = [
  /^\/1\/boards$/,
  /^\/1\/lists$/,
  /^\/1\/labels$/,
  /^\/1\/checklists$/,
  /^\/1\/checklists\/[0-9a-f]{24}\/checkItems$/,
];

let trello: FakeTrello;
let server: TestServer;

beforeAll(async () => {
  trello = await startFakeTrello();
  trello.addCredentials({ key: KEY, token: TOKEN, username: "ada" });
  server = await startTestServer({
    TRELLO_API_URL: trello.url,
    EXPORT_HTTP_RETRIES: "2",
    // Trello's real 100 requests / 10 s would slow these exports down; both sides allow more here.
    TRELLO_REQUESTS_PER_10S: "5000",
  });
  trello.setRateLimits({ perToken: 5000, perKey: 5000, windowMs: 10_000 });
});
afterAll(async () => {
  await server?.stop();
  await trello?.close();
});
afterEach(() => {
  trello.server.faults.clear();
});

/** A user with stored Trello credentials and a seeded tree: `fanout` children per node, `depth` levels. */
async function ownerWithTree(fanout: number, depth: number) {
  const client = new TestClient(server.url);
  const { user } = await registerUser(client);
  const { rootId, count } = await seedTree(server.deps.database, user.id, {
    fanout,
    depth,
    description: "Site",
  });
  const saved = await client.post("/api/trello/credentials", { api_key: KEY, token: TOKEN });
  expect(saved.status).toBe(200);
  return { client, rootId, cards: count - 1 };
}

async function exportBoard(client: TestClient, rootId: string, boardName: string) {
  const started = await client.post("/api/trello/start-export", {
    config: { board_name: boardName },
    task_id: rootId,
  });
  expect(started.status).toBe(202);
  return waitForExport(client, started.json.export_id);
}

/** The fake's log since `from`, with how each request presented its credentials. */
function logSince(from: number): Array<LoggedRequest & { auth: string }> {
  const auth = trello.requests;
  return trello.server.log.slice(from).map((entry, i) => ({ ...entry, auth: auth[from + i]!.auth }));
}

/** The task id each card's closing `atomize:<task id>` line names. */
const taskIdsOf = (cards: Array<{ desc: string }>) =>
  cards.map((c) => /(?:^|\n)atomize:([0-9a-f-]{36})$/.exec(c.desc)?.[1]);

describe("Trello export on Trello's terms", () => {
  it("checks the credentials and exports with the same mechanism: the OAuth header, never the query string", async () => {
    const from = trello.server.log.length;
    const { client, rootId } = await ownerWithTree(2, 2);
    const check = logSince(from);
    expect(check.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /1/members/me"]);

    const before = trello.server.log.length;
    const done = await exportBoard(client, rootId, "Same auth");
    expect(done.status).toBe("completed");
    const exported = logSince(before);
    expect(exported.length).toBeGreaterThan(10);
    // The export checks the credentials again before it writes, exactly as Settings did.
    expect(exported[0]).toMatchObject({ method: "GET", path: "/1/members/me" });
    for (const r of [...check, ...exported]) {
      expect(r.auth).toBe("header");
      expect(r.headers.authorization).toBe(HEADER);
      const query = new URLSearchParams(r.search);
      expect(query.has("key") || query.has("token")).toBe(false);
      expect(r.search).not.toContain(TOKEN);
    }
  });

  it("sends boards, lists, labels, checklists and check items as query parameters, and cards as JSON", async () => {
    const { client, rootId } = await ownerWithTree(2, 2); // 6 cards, 2 "Subtasks" checklists of 2 items
    const before = trello.server.log.length;
    const done = await exportBoard(client, rootId, "Query params");
    expect(done.status).toBe("completed");
    expect(done.result).toMatchObject({ cards_created: 6, board_name: "Query params" });
    const posts = logSince(before).filter((r) => r.method === "POST");
    const queryOnly = posts.filter((r) => QUERY_ONLY.some((p) => p.test(r.path)));
    const counts: Record<string, number> = {};
    for (const r of queryOnly) {
      const shape = r.path.replace(/[0-9a-f]{24}/, "{id}");
      counts[shape] = (counts[shape] ?? 0) + 1;
    }
    expect(counts).toEqual({
      "/1/boards": 1,
      "/1/lists": 3,
      "/1/labels": 3,
      "/1/checklists": 2,
      "/1/checklists/{id}/checkItems": 4,
    });
    for (const r of queryOnly) {
      expect(r.body).toBeUndefined();
      expect(r.headers["content-type"]).toBeUndefined();
      expect(new URLSearchParams(r.search).get("name")).toBeTruthy();
    }
    const board = new URLSearchParams(queryOnly[0]!.search);
    expect(Object.fromEntries(board)).toMatchObject({
      name: "Query params",
      defaultLists: "false",
      defaultLabels: "false",
    });
    const cards = posts.filter((r) => r.path === "/1/cards");
    expect(cards).toHaveLength(6);
    for (const r of cards) {
      expect(r.headers["content-type"]).toBe("application/json");
      expect(r.body).toMatchObject({ idList: expect.any(String), name: expect.any(String) });
    }
    const made = trello.boards().find((b) => b.name === "Query params")!;
    expect(made.lists.map((l) => l.name)).toEqual(["To Do", "In Progress", "Done"]);
    expect(made.cards.filter((c) => c.checklists.length)).toHaveLength(2);

    // Sent the way the export used to send it, a board's name would not reach Trello at all.
    const refused = await fetch(`${trello.url}/1/boards`, {
      method: "POST",
      headers: { authorization: HEADER, "content-type": "application/json" },
      body: JSON.stringify({ name: "Body only", defaultLists: false }),
    });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toBe("invalid value for name");
    expect(trello.boards().some((b) => b.name === "Body only")).toBe(false);
  });

  it("creates one board and one card per task when the answers to a board and two cards are lost", async () => {
    const { client, rootId, cards } = await ownerWithTree(3, 2); // 12 cards
    trello.server.faults.loseAnswer({ method: "POST", path: "/1/boards", times: 1 });
    trello.server.faults.loseAnswer({ method: "POST", path: "/1/cards", times: 2 });
    const before = trello.server.log.length;
    const done = await exportBoard(client, rootId, "Lost answers");
    expect(done.status).toBe("completed");
    expect(done.result).toMatchObject({ cards_created: cards, board_name: "Lost answers" });
    const boards = trello.boards().filter((b) => b.name === "Lost answers");
    expect(boards).toHaveLength(1);
    const board = boards[0]!;
    expect(done.result.board_url).toBe(board.url);
    expect(board.lists.map((l) => l.name)).toEqual(["To Do", "In Progress", "Done"]);
    expect(board.labels).toHaveLength(3);
    expect(board.cards).toHaveLength(cards);
    const ids = taskIdsOf(board.cards);
    expect(ids.every(Boolean)).toBe(true);
    expect(new Set(ids).size).toBe(cards);
    // The answers really were lost, and the export looked for what they made instead of sending again.
    const log = logSince(before);
    const sent = (path: string) => log.filter((r) => r.method === "POST" && r.path === path);
    expect(sent("/1/boards")).toHaveLength(1);
    expect(sent("/1/boards")[0]!.status).toBe(0);
    expect(sent("/1/cards").filter((r) => r.status === 0)).toHaveLength(2);
    expect(sent("/1/cards")).toHaveLength(cards);
    expect(log.some((r) => r.method === "GET" && r.path === "/1/members/me/boards")).toBe(true);
    expect(log.some((r) => r.method === "GET" && r.path === `/1/boards/${board.id}/cards`)).toBe(true);
  });

  it("creates nothing twice when the answers to a list, a label, a checklist and a check item are lost", async () => {
    const { client, rootId, cards } = await ownerWithTree(2, 2);
    trello.server.faults.loseAnswer({ method: "POST", path: "/1/lists", times: 1 });
    trello.server.faults.loseAnswer({ method: "POST", path: "/1/labels", times: 1 });
    trello.server.faults.loseAnswer({ method: "POST", path: "/1/checklists", times: 1 });
    trello.server.faults.loseAnswer({ method: "POST", path: "/1/checklists/:id/checkItems", times: 1 });
    const before = trello.server.log.length;
    const done = await exportBoard(client, rootId, "Lost pieces");
    expect(done.status).toBe("completed");
    const board = trello.boards().find((b) => b.name === "Lost pieces")!;
    expect(board.lists.map((l) => l.name)).toEqual(["To Do", "In Progress", "Done"]);
    expect(board.labels.map((l) => l.name).sort()).toEqual([
      "Complexity: High",
      "Complexity: Low",
      "Complexity: Medium",
    ]);
    expect(board.cards).toHaveLength(cards);
    const withChecklists = board.cards.filter((c) => c.checklists.length > 0);
    expect(withChecklists).toHaveLength(2);
    for (const c of withChecklists) {
      expect(c.checklists).toHaveLength(1);
      expect(c.checklists[0]!.name).toBe("Subtasks");
      expect(c.checklists[0]!.items).toHaveLength(2);
      expect(new Set(c.checklists[0]!.items).size).toBe(2);
    }
    // Four answers were lost, each after its write was made.
    expect(logSince(before).filter((r) => r.method === "POST" && r.status === 0)).toHaveLength(4);
  });
});
