/**
 * Checks the fake Trello REST API with plain fetch, so other tests can rely on it standing in
 * for api.trello.com.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type FakeTrello, startFakeTrello } from "./trello";

const KEY = "0123456789abcdef0123456789abcdef";
const TOKEN = "ATTAada0000000000000000000000000000000000000000000000000000000000000";
const TOKEN2 = "ATTAada1111111111111111111111111111111111111111111111111111111111111";
const OTHER_KEY = "fedcba9876543210fedcba9876543210";
const GRACE_TOKEN = "ATTAgrace000000000000000000000000000000000000000000000000000000000000";

let trello: FakeTrello;

const json = async (res: Response) => (await res.json()) as any;
const withAuth = (path: string, key = KEY, token = TOKEN) =>
  `${trello.url}${path}${path.includes("?") ? "&" : "?"}key=${key}&token=${token}`;
const get = (path: string, token = TOKEN) => fetch(withAuth(path, KEY, token));
const postQuery = (path: string, params: Record<string, string>, token = TOKEN) =>
  fetch(withAuth(`${path}?${new URLSearchParams(params)}`, KEY, token), { method: "POST" });
const postJson = (path: string, body: unknown, token = TOKEN) =>
  fetch(withAuth(path, KEY, token), {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
const postForm = (path: string, params: Record<string, string>, token = TOKEN) =>
  fetch(withAuth(path, KEY, token), {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(params).toString(),
  });
const newBoard = async (name = "Board", token = TOKEN) =>
  json(await postQuery("/1/boards", { name, defaultLists: "false", defaultLabels: "false" }, token));
const expectText = async (res: Response, status: number, text: string) => {
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
  expect(await res.text()).toBe(text);
};

beforeAll(async () => {
  trello = await startFakeTrello();
  trello.addCredentials({ key: KEY, token: TOKEN, username: "ada", fullName: "Ada Lovelace" });
  trello.addCredentials({ key: KEY, token: TOKEN2, username: "ada" });
  trello.addCredentials({
    key: OTHER_KEY,
    token: GRACE_TOKEN,
    memberId: "5f0000000000000000000001",
    username: "grace",
  });
});

afterAll(async () => {
  await trello.close();
});

beforeEach(() => {
  trello.setMode("ok");
  // The tests below read /1/members/me far more than 100 times in 900 s; its own limit is tested alone.
  trello.setRateLimits({ perKey: 300, perToken: 100, windowMs: 10_000, members: 1_000_000 });
});

describe("authentication", () => {
  it("accepts key and token as query parameters", async () => {
    const res = await get("/1/members/me");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const me = await json(res);
    expect(me).toMatchObject({ username: "ada", fullName: "Ada Lovelace" });
    expect(me.id).toMatch(/^[0-9a-f]{24}$/);
    expect(trello.requests.at(-1)).toMatchObject({
      method: "GET",
      path: "/1/members/me",
      status: 200,
      auth: "query",
    });
  });

  it("accepts the OAuth Authorization header", async () => {
    const res = await fetch(`${trello.url}/1/members/me`, {
      headers: { Authorization: `OAuth oauth_consumer_key="${KEY}", oauth_token="${TOKEN}"` },
    });
    expect(res.status).toBe(200);
    expect((await json(res)).username).toBe("ada");
    expect(trello.requests.at(-1)?.auth).toBe("header");
  });

  it("accepts credentials in a form body", async () => {
    // The body carries the credentials; the board's parameters stay in the query, where Trello reads them.
    const res = await fetch(`${trello.url}/1/boards?name=Form%20creds`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ key: KEY, token: TOKEN }).toString(),
    });
    expect(res.status).toBe(200);
    expect(trello.requests.at(-1)?.auth).toBe("body");
  });

  it("answers 401 in plain text for bad credentials", async () => {
    await expectText(await fetch(`${trello.url}/1/members/me`), 401, "invalid key");
    await expectText(await fetch(`${trello.url}/1/members/me?key=nope&token=${TOKEN}`), 401, "invalid key");
    await expectText(await fetch(`${trello.url}/1/members/me?key=${KEY}`), 401, "invalid token");
    await expectText(await fetch(`${trello.url}/1/members/me?key=${KEY}&token=nope`), 401, "invalid token");
    // A token issued for another key is not valid with this one.
    await expectText(
      await fetch(`${trello.url}/1/members/me?key=${KEY}&token=${GRACE_TOKEN}`),
      401,
      "invalid token",
    );
    const header = await fetch(`${trello.url}/1/members/me`, {
      headers: { Authorization: `OAuth oauth_consumer_key="${KEY}", oauth_token="wrong"` },
    });
    await expectText(header, 401, "invalid token");
    // 401s carry no rate-limit headers.
    expect(header.headers.get("x-rate-limit-api-key-remaining")).toBeNull();
  });

  it("keeps members apart", async () => {
    const grace = await json(await fetch(withAuth("/1/members/me", OTHER_KEY, GRACE_TOKEN)));
    expect(grace).toMatchObject({ id: "5f0000000000000000000001", username: "grace" });
    const board = await newBoard("Ada's");
    const res = await fetch(withAuth(`/1/boards/${board.id}/lists`, OTHER_KEY, GRACE_TOKEN));
    await expectText(res, 401, "unauthorized permission requested");
  });

  it("supports fields=", async () => {
    expect(await json(await get("/1/members/me?fields=username"))).toEqual({
      id: expect.any(String),
      username: "ada",
    });
  });
});

describe("boards, lists, labels, cards, checklists", () => {
  it("creates a whole board with query parameters", async () => {
    const res = await postQuery("/1/boards", {
      name: "Atomize: Web App!",
      defaultLists: "false",
      defaultLabels: "false",
      desc: "d",
    });
    expect(res.status).toBe(200);
    const board = await json(res);
    expect(board.id).toMatch(/^[0-9a-f]{24}$/);
    expect(board.name).toBe("Atomize: Web App!");
    expect(board.desc).toBe("d");
    expect(board.shortUrl).toMatch(/^https:\/\/trello\.com\/b\/[0-9A-Za-z]{8}$/);
    expect(board.url).toBe(`${board.shortUrl}/atomize-web-app`);

    const list = await json(await postQuery("/1/lists", { name: "Backlog", idBoard: board.id }));
    expect(list).toMatchObject({ name: "Backlog", idBoard: board.id, closed: false, pos: 16384 });
    const list2 = await json(await postQuery("/1/lists", { name: "Later", idBoard: board.id }));
    expect(list2.pos).toBe(32768);
    const first = await json(await postQuery("/1/lists", { name: "First", idBoard: board.id, pos: "top" }));
    expect(first.pos).toBe(8192);

    const label = await json(
      await postQuery("/1/labels", { name: "frontend", color: "sky", idBoard: board.id }),
    );
    expect(label).toMatchObject({ name: "frontend", color: "sky", idBoard: board.id });
    const plain = await json(
      await postQuery("/1/labels", { name: "misc", color: "null", idBoard: board.id }),
    );
    expect(plain.color).toBeNull();

    const card = await json(
      await postQuery("/1/cards", {
        idList: list.id,
        name: "Set up CI",
        desc: "GitHub Actions",
        idLabels: `${label.id},${plain.id}`,
      }),
    );
    expect(card).toMatchObject({
      name: "Set up CI",
      desc: "GitHub Actions",
      idList: list.id,
      idBoard: board.id,
      idLabels: [label.id, plain.id],
      idShort: 1,
    });
    expect(card.shortUrl).toMatch(/^https:\/\/trello\.com\/c\/[0-9A-Za-z]{8}$/);
    expect(card.url).toBe(`${card.shortUrl}/1-set-up-ci`);
    expect(card.labels.map((l: any) => l.name)).toEqual(["frontend", "misc"]);

    const checklist = await json(await postQuery("/1/checklists", { idCard: card.id, name: "Steps" }));
    expect(checklist).toMatchObject({ name: "Steps", idCard: card.id, checkItems: [] });
    const item = await json(
      await postQuery(`/1/checklists/${checklist.id}/checkItems`, { name: "Write workflow" }),
    );
    expect(item).toMatchObject({ name: "Write workflow", state: "incomplete", idChecklist: checklist.id });
    const done = await json(
      await postQuery(`/1/checklists/${checklist.id}/checkItems`, { name: "Add badge", checked: "true" }),
    );
    expect(done.state).toBe("complete");

    const lists = await json(await get(`/1/boards/${board.id}/lists`));
    expect(lists.map((l: any) => l.name)).toEqual(["First", "Backlog", "Later"]);
    const labels = await json(await get(`/1/boards/${board.id}/labels`));
    expect(labels.map((l: any) => l.name)).toEqual(["frontend", "misc"]);
    const cards = await json(await get(`/1/boards/${board.id}/cards`));
    expect(cards).toHaveLength(1);
    expect(cards[0]).toMatchObject({ id: card.id, idChecklists: [checklist.id] });
    const checklists = await json(await get(`/1/cards/${card.id}/checklists`));
    expect(checklists[0].checkItems.map((i: any) => [i.name, i.state])).toEqual([
      ["Write workflow", "incomplete"],
      ["Add badge", "complete"],
    ]);
    // Boards and cards are reachable by shortLink too.
    const shortLink = board.shortUrl.split("/").pop();
    expect((await json(await get(`/1/boards/${shortLink}`))).id).toBe(board.id);

    const snapshot = trello.boards().find((b) => b.id === board.id);
    expect(snapshot).toEqual({
      id: board.id,
      name: "Atomize: Web App!",
      url: board.url,
      lists: [
        { id: first.id, name: "First" },
        { id: list.id, name: "Backlog" },
        { id: list2.id, name: "Later" },
      ],
      labels: [
        { id: label.id, name: "frontend", color: "sky" },
        { id: plain.id, name: "misc", color: null },
      ],
      cards: [
        {
          id: card.id,
          name: "Set up CI",
          desc: "GitHub Actions",
          idList: list.id,
          idLabels: [label.id, plain.id],
          checklists: [{ name: "Steps", items: ["Write workflow", "Add badge"] }],
          comments: [],
        },
      ],
    });
  });

  it("reads a JSON body for POST /1/cards, as Trello documents, and query parameters elsewhere", async () => {
    const board = await newBoard("JSON card");
    const list = await json(await postQuery("/1/lists", { name: "Todo", idBoard: board.id, pos: "5" }));
    expect(list.pos).toBe(5);
    const a = await json(await postQuery("/1/labels", { name: "a", color: "green_dark", idBoard: board.id }));
    const b = await json(await postQuery("/1/labels", { name: "b", color: "null", idBoard: board.id }));
    expect([a.color, b.color]).toEqual(["green_dark", null]);
    const card = await json(
      await postJson("/1/cards", { idList: list.id, name: "Card", idLabels: [a.id, b.id, a.id] }),
    );
    expect(card.idLabels).toEqual([a.id, b.id]);
    // The body wins over the query for a card.
    const both = await json(
      await postJson(`/1/cards?${new URLSearchParams({ name: "from query" })}`, {
        idList: list.id,
        name: "from body",
      }),
    );
    expect(both.name).toBe("from body");
    const checklist = await json(await postQuery("/1/checklists", { idCard: card.id, name: "CL" }));
    const item = await json(
      await postQuery(`/1/checklists/${checklist.id}/checkItems`, { name: "x", checked: "true" }),
    );
    expect(item.state).toBe("complete");
    expect(trello.boards().find((x) => x.id === board.id)?.cards[0]?.checklists).toEqual([
      { name: "CL", items: ["x"] },
    ]);
  });

  it("does not see parameters sent only in a body where Trello documents query parameters", async () => {
    const board = await newBoard("Query only");
    const list = await json(await postQuery("/1/lists", { name: "L", idBoard: board.id }));
    const card = await json(await postQuery("/1/cards", { idList: list.id, name: "C" }));
    const checklist = await json(await postQuery("/1/checklists", { idCard: card.id, name: "CL" }));
    const before = trello.boards().length;
    for (const post of [postJson, postForm]) {
      await expectText(
        await post("/1/boards", { name: "Body board", defaultLists: "false" }),
        400,
        "invalid value for name",
      );
      await expectText(
        await post("/1/lists", { name: "L2", idBoard: board.id }),
        400,
        "invalid value for name",
      );
      await expectText(
        await post("/1/labels", { name: "l", color: "pink", idBoard: board.id }),
        400,
        "invalid value for name",
      );
      await expectText(
        await post("/1/checklists", { idCard: card.id, name: "CL2" }),
        400,
        "invalid value for idCard",
      );
      await expectText(
        await post(`/1/checklists/${checklist.id}/checkItems`, { name: "i" }),
        400,
        "invalid value for name",
      );
    }
    // A card reads a JSON body, but not a form one (no operation documents a form body).
    await expectText(
      await postForm("/1/cards", { idList: list.id, name: "F" }),
      400,
      "invalid value for idList",
    );
    expect(trello.boards()).toHaveLength(before);
    expect(trello.boards().find((b) => b.id === board.id)).toMatchObject({
      lists: [{ name: "L" }],
      labels: [],
      cards: [{ name: "C", checklists: [{ name: "CL", items: [] }] }],
    });
  });

  it("lists a member's boards, with fields= and filter=", async () => {
    const board = await json(
      await postQuery("/1/boards", { name: "Listed", desc: "a\nmarker-1", defaultLists: "false" }),
    );
    const mine = await json(await get("/1/members/me/boards?fields=name,desc&filter=open"));
    expect(mine).toContainEqual({ id: board.id, name: "Listed", desc: "a\nmarker-1" });
    expect(Object.keys(mine[0]).sort()).toEqual(["desc", "id", "name"]);
    expect((await json(await get("/1/members/ada/boards"))).map((b: any) => b.id)).toContain(board.id);
    expect(await json(await get("/1/members/me/boards?filter=closed"))).toEqual([]);
    await expectText(await get("/1/members/me/boards?filter=mine"), 400, "invalid value for filter");
    // Another member sees none of them.
    const grace = await json(await fetch(withAuth("/1/members/me/boards", OTHER_KEY, GRACE_TOKEN)));
    expect(grace.map((b: any) => b.id)).not.toContain(board.id);
  });

  it("creates Trello's default lists and labels unless told not to", async () => {
    const board = await json(await postQuery("/1/boards", { name: "Defaults" }));
    const snap = trello.boards().find((b) => b.id === board.id)!;
    expect(snap.lists.map((l) => l.name)).toEqual(["To Do", "Doing", "Done"]);
    expect(snap.labels.map((l) => [l.name, l.color])).toEqual([
      ["", "green"],
      ["", "yellow"],
      ["", "orange"],
      ["", "red"],
      ["", "purple"],
      ["", "blue"],
    ]);
  });

  it("answers validation errors in plain text", async () => {
    const board = await newBoard("Validation");
    const list = await json(await postQuery("/1/lists", { name: "L", idBoard: board.id }));
    const other = await newBoard("Other");
    const foreign = await json(await postQuery("/1/labels", { name: "x", color: "red", idBoard: other.id }));

    await expectText(await postQuery("/1/boards", {}), 400, "invalid value for name");
    await expectText(await postQuery("/1/boards", { name: "" }), 400, "invalid value for name");
    // Lengths, through the one operation that takes a JSON body (a query this long would pass Node's limit
    // on a request's head before it reached the fake), on another board so this one's cards stay empty.
    const otherList = await json(await postQuery("/1/lists", { name: "L", idBoard: other.id }));
    await expectText(
      await postJson("/1/cards", { idList: otherList.id, name: "x".repeat(16385) }),
      400,
      "invalid value for name",
    );
    expect((await postJson("/1/cards", { idList: otherList.id, name: "x".repeat(16384) })).status).toBe(200);
    await expectText(
      await postQuery("/1/boards", { name: "b", defaultLists: "maybe" }),
      400,
      "invalid value for defaultLists",
    );
    await expectText(await postQuery("/1/lists", { name: "L" }), 400, "invalid value for idBoard");
    await expectText(
      await postQuery("/1/lists", { name: "L", idBoard: board.id, pos: "-1" }),
      400,
      "invalid value for pos",
    );
    await expectText(
      await postQuery("/1/labels", { name: "x", color: "magenta", idBoard: board.id }),
      400,
      "invalid value for color",
    );
    await expectText(
      await postQuery("/1/labels", { name: "x", idBoard: board.id }),
      400,
      "invalid value for color",
    );
    await expectText(
      await postQuery("/1/cards", { idList: "0123456789abcdef01234567", name: "c" }),
      400,
      "invalid value for idList",
    );
    await expectText(
      await postQuery("/1/cards", { idList: "nope", name: "c" }),
      400,
      "invalid value for idList",
    );
    await expectText(
      await postJson("/1/cards", { idList: list.id, name: "c", desc: "d".repeat(16385) }),
      400,
      "invalid value for desc",
    );
    await expectText(
      await postQuery("/1/cards", { idList: list.id, name: "c", idLabels: foreign.id }),
      400,
      "invalid value for idLabels",
    );
    await expectText(await postQuery("/1/checklists", { idCard: list.id }), 400, "invalid value for idCard");
    await expectText(await postQuery("/1/checklists/nope/checkItems", { name: "x" }), 400, "invalid id");
    await expectText(
      await postQuery("/1/checklists/0123456789abcdef01234567/checkItems", { name: "x" }),
      404,
      "The requested resource was not found.",
    );
    await expectText(
      await get("/1/boards/0123456789abcdef01234567/lists"),
      404,
      "The requested resource was not found.",
    );
    await expectText(await get("/1/boards/not-an-id!/lists"), 400, "invalid id");
    await expectText(
      await fetch(withAuth("/1/cards"), {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: "{",
      }),
      400,
      "invalid json",
    );
    // Nothing was created by the failed card requests.
    expect(trello.boards().find((b) => b.id === board.id)?.cards).toEqual([]);
  });
});

describe("rate limits", () => {
  it("uses Trello's documented defaults", async () => {
    const res = await get("/1/members/me");
    expect(res.headers.get("x-rate-limit-api-token-max")).toBe("100");
    expect(res.headers.get("x-rate-limit-api-key-max")).toBe("300");
    expect(res.headers.get("x-rate-limit-api-token-interval-ms")).toBe("10000");
    expect(res.headers.get("x-rate-limit-api-key-interval-ms")).toBe("10000");
    expect(res.headers.get("x-rate-limit-api-token-remaining")).toBe("99");
    expect(res.headers.get("x-rate-limit-api-key-remaining")).toBe("299");
  });

  it("limits each token, without Retry-After, until the window resets", async () => {
    trello.setRateLimits({ perToken: 3, perKey: 100, windowMs: 400 });
    const remaining: Array<string | null> = [];
    for (let i = 0; i < 3; i++) {
      const res = await get("/1/members/me");
      expect(res.status).toBe(200);
      remaining.push(res.headers.get("x-rate-limit-api-token-remaining"));
    }
    expect(remaining).toEqual(["2", "1", "0"]);
    const refused = await get("/1/members/me");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBeNull();
    expect(refused.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await refused.json()).toEqual({
      error: "API_TOKEN_LIMIT_EXCEEDED",
      message: "Rate limit exceeded",
    });
    expect(refused.headers.get("x-rate-limit-api-token-remaining")).toBe("0");
    expect(refused.headers.get("x-rate-limit-api-key-remaining")).toBe("97");
    // Another token of the same key still has its own budget.
    expect((await get("/1/members/me", TOKEN2)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 450));
    const again = await get("/1/members/me");
    expect(again.status).toBe(200);
    expect(again.headers.get("x-rate-limit-api-token-remaining")).toBe("2");
  });

  it("limits each key across its tokens", async () => {
    trello.setRateLimits({ perToken: 100, perKey: 4, windowMs: 400 });
    expect((await get("/1/members/me", TOKEN)).status).toBe(200);
    expect((await get("/1/members/me", TOKEN2)).status).toBe(200);
    expect((await get("/1/members/me", TOKEN)).status).toBe(200);
    expect((await get("/1/members/me", TOKEN2)).status).toBe(200);
    const refused = await get("/1/members/me", TOKEN);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBeNull();
    expect(await refused.json()).toEqual({ error: "API_KEY_LIMIT_EXCEEDED", message: "Rate limit exceeded" });
    // Other keys are unaffected.
    expect((await fetch(withAuth("/1/members/me", OTHER_KEY, GRACE_TOKEN))).status).toBe(200);
    await new Promise((r) => setTimeout(r, 450));
    expect((await get("/1/members/me", TOKEN2)).status).toBe(200);
  });

  it("limits /1/members/ per token on its own, with the body Trello sends for it", async () => {
    trello.setRateLimits({ members: 2, membersWindowMs: 60_000 });
    expect((await get("/1/members/me", TOKEN)).status).toBe(200);
    expect((await get("/1/members/me/boards", TOKEN)).status).toBe(200);
    const refused = await get("/1/members/me", TOKEN);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({
      message: "Exceeded rate limit to /1/member",
      error: "RATE_LIMIT_EXCEEDED",
    });
    // Other routes and other tokens are not held back by it.
    expect((await get("/1/members/me", TOKEN2)).status).toBe(200);
    trello.setRateLimits({ members: 1_000_000 });
  });

  it("locks a key out for the rest of the window after more than 200 refusals", async () => {
    trello.setRateLimits({ perToken: 1, perKey: 100, windowMs: 60_000 });
    expect((await get("/1/members/me", TOKEN)).status).toBe(200);
    const statuses = await Promise.all(
      Array.from({ length: 201 }, () => get("/1/members/me", TOKEN).then((r) => r.status)),
    );
    expect(statuses.every((s) => s === 429)).toBe(true);
    // TOKEN2 has budget left, but the key is now locked.
    const locked = await get("/1/members/me", TOKEN2);
    expect(locked.status).toBe(429);
    expect((await locked.json()).error).toBe("API_KEY_LIMIT_EXCEEDED");
  });
});

describe("modes", () => {
  it("server_error for the next `times` requests", async () => {
    trello.setMode("server_error", { times: 2 });
    expect((await get("/1/members/me")).status).toBe(500);
    expect((await get("/1/members/me")).status).toBe(500);
    expect((await get("/1/members/me")).status).toBe(200);
  });

  it("unavailable only under a path prefix", async () => {
    const board = await newBoard("Modes");
    const list = await json(await postQuery("/1/lists", { name: "L", idBoard: board.id }));
    trello.setMode("unavailable", { path: "/1/cards", times: 1 });
    expect((await get("/1/members/me")).status).toBe(200);
    const res = await postQuery("/1/cards", { idList: list.id, name: "c" });
    expect(res.status).toBe(503);
    expect((await postQuery("/1/cards", { idList: list.id, name: "c" })).status).toBe(200);
    expect(trello.requests.slice(-2).map((r) => [r.path, r.status])).toEqual([
      ["/1/cards", 503],
      ["/1/cards", 200],
    ]);
  });

  it("rate_limit forces Trello's 429 without Retry-After", async () => {
    trello.setMode("rate_limit", { times: 1 });
    const res = await get("/1/members/me");
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBeNull();
    expect(await res.json()).toEqual({ error: "API_TOKEN_LIMIT_EXCEEDED", message: "Rate limit exceeded" });
    trello.setMode("rate_limit", { limit: "key" });
    expect((await json(await get("/1/members/me"))).error).toBe("API_KEY_LIMIT_EXCEEDED");
    trello.setMode("ok");
    expect((await get("/1/members/me")).status).toBe(200);
  });

  it("slow delays answers and tracks concurrency", async () => {
    trello.setMode("slow", { delayMs: 200, times: 3 });
    const started = Date.now();
    const statuses = await Promise.all([1, 2, 3].map(() => get("/1/members/me").then((r) => r.status)));
    expect(statuses).toEqual([200, 200, 200]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(trello.maxInFlight).toBeGreaterThanOrEqual(3);
    const fast = Date.now();
    expect((await get("/1/members/me")).status).toBe(200);
    expect(Date.now() - fast).toBeLessThan(150);
  });

  it("close() does not wait for slow requests", async () => {
    const fake = await startFakeTrello();
    fake.addCredentials({ key: KEY, token: TOKEN });
    fake.setMode("slow", { delayMs: 60_000 });
    const pending = fetch(`${fake.url}/1/members/me?key=${KEY}&token=${TOKEN}`).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 50));
    const started = Date.now();
    await fake.close();
    expect(await pending).toBeInstanceOf(Error);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe("tracker rules: labels one by one, long descriptions, edits delivered", () => {
  const put = (path: string, body: unknown) =>
    fetch(withAuth(path), {
      method: "PUT",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  async function cardOnBoard() {
    const board = await newBoard("Rules");
    const list = await json(await postQuery("/1/lists", { name: "To Do", idBoard: board.id }));
    const mk = async (name: string) =>
      json(await postQuery("/1/labels", { name, color: "red", idBoard: board.id }));
    const ours = await mk("Complexity: High");
    const theirs = await mk("Customer");
    const card = await json(
      await postJson("/1/cards", { idList: list.id, name: "Card", idLabels: [ours.id] }),
    );
    return { board, list, ours, theirs, card };
  }

  it("adds a label with POST .../idLabels (400 when it is there) and removes one with DELETE (404 when not)", async () => {
    const { ours, theirs, card } = await cardOnBoard();
    const added = await postQuery(`/1/cards/${card.id}/idLabels`, { value: theirs.id });
    expect(added.status).toBe(200);
    expect(await json(added)).toEqual([ours.id, theirs.id]);
    await expectText(
      await postQuery(`/1/cards/${card.id}/idLabels`, { value: theirs.id }),
      400,
      "that label is already on the card",
    );
    const removed = await fetch(withAuth(`/1/cards/${card.id}/idLabels/${ours.id}`), { method: "DELETE" });
    expect(removed.status).toBe(200);
    expect((await json(await get(`/1/cards/${card.id}`))).idLabels).toEqual([theirs.id]);
    const gone = await fetch(withAuth(`/1/cards/${card.id}/idLabels/${ours.id}`), { method: "DELETE" });
    expect(gone.status).toBe(404);
    // `idLabels` on an update replaces the set.
    expect((await json(await put(`/1/cards/${card.id}`, { idLabels: ours.id }))).idLabels).toEqual([ours.id]);
  });

  it("takes name and desc of an update from a JSON body, and refuses a request line past 8000 octets with 414", async () => {
    const { card } = await cardOnBoard();
    const desc = "é".repeat(16_384);
    const updated = await put(`/1/cards/${card.id}`, { name: "Renamed", desc });
    expect(updated.status).toBe(200);
    expect(await json(updated)).toMatchObject({ name: "Renamed", desc });
    const inQuery = await fetch(
      withAuth(`/1/cards/${card.id}?${new URLSearchParams({ desc: "é".repeat(1400) })}`),
      {
        method: "PUT",
      },
    );
    await expectText(inQuery, 414, "URI Too Long");
    expect((await put(`/1/cards/${card.id}`, { desc: "é".repeat(16_385) })).status).toBe(400);
  });

  it("delivers updateCard with data.old when a card is renamed or re-described through the API", async () => {
    const got: any[] = [];
    const receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        if (chunks.length) got.push(JSON.parse(Buffer.concat(chunks).toString()));
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    try {
      const { board, card } = await cardOnBoard();
      const callbackURL = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      expect((await postQuery("/1/webhooks", { callbackURL, idModel: board.id })).status).toBe(200);
      expect((await put(`/1/cards/${card.id}`, { name: "By a person" })).status).toBe(200);
      expect((await put(`/1/cards/${card.id}`, { desc: "New words" })).status).toBe(200);
      await trello.settleDeliveries();
      expect(got.map((d) => d.action.type)).toEqual(["updateCard", "updateCard"]);
      expect(got[0].action.data).toMatchObject({
        card: { id: card.id, name: "By a person" },
        old: { name: "Card" },
        board: { id: board.id },
      });
      expect(got[1].action.data).toMatchObject({
        card: { id: card.id, desc: "New words" },
        old: { desc: "" },
      });
    } finally {
      await new Promise((r) => receiver.close(r));
    }
  });
});
