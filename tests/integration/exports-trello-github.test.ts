import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeGitHub, startFakeGitHub } from "../fakes/github";
import { type FakeTrello, startFakeTrello } from "../fakes/trello";
import { waitForExport } from "../support/exports";
import { registerUser, TestClient } from "../support/http-client";
import { seedTree } from "../support/seed";
import { startTestServer, type TestServer } from "../support/server";

let trello: FakeTrello;
let github: FakeGitHub;
let server: TestServer;

beforeAll(async () => {
  trello = await startFakeTrello();
  trello.addCredentials({ key: "trello-key-1234", token: "trello-token-secret", username: "ada" });
  github = await startFakeGitHub();
  github.addRepo({ owner: "ada", name: "plans", readme: "# Plans", files: ["README.md"] });
  github.addRepo({ owner: "ada", name: "ordered", files: ["README.md"] });
  github.addRepo({ owner: "ada", name: "older", files: ["README.md"], dependencies: false });
  github.addToken({ token: "ghp_classic_ok", login: "ada", scopes: ["repo", "read:user"], publicRepos: 7 });
  github.addToken({ token: "ghp_no_repo", login: "bob", scopes: ["read:user"] });
  github.addToken({ token: "ghp_public_only", login: "cleo", scopes: ["public_repo"] });
  server = await startTestServer({
    TRELLO_API_URL: trello.url,
    GITHUB_API_URL: github.url,
    EXPORT_HTTP_RETRIES: "6",
    // Trello's real 100 requests / 10 s would make a 156-card export take half a minute; `npm run bench`
    // runs it at the real limit. Here both sides allow more, and one test forces 429s on purpose.
    TRELLO_REQUESTS_PER_10S: "5000",
  });
  trello.setRateLimits({ perToken: 5000, perKey: 5000, windowMs: 10_000 });
});
afterAll(async () => {
  // Every request this suite made to GitHub must follow GitHub's own OpenAPI description.
  expect(github?.openapiViolations ?? []).toEqual([]);
  await server?.stop();
  await trello?.close();
  await github?.close();
});

async function ownerWithTree(fanout = 5, depth = 3) {
  const client = new TestClient(server.url);
  const { user } = await registerUser(client);
  const { rootId } = await seedTree(server.deps.database, user.id, {
    fanout,
    depth,
    description: "Marketplace",
  });
  return { client, rootId, user };
}

describe("Trello export", () => {
  it("uses stored credentials: a board with three lists, complexity labels, a card per task and subtask checklists", async () => {
    const { client, rootId } = await ownerWithTree();
    const saved = await client.post("/api/trello/credentials", {
      api_key: "trello-key-1234",
      token: "trello-token-secret",
    });
    expect(saved.status).toBe(200);
    expect(saved.json).toMatchObject({ connected: true, api_key_hint: "••••1234", username: "ada" });
    expect(JSON.stringify(saved.json)).not.toContain("trello-token-secret");
    const started = await client.post("/api/trello/start-export", {
      config: { board_name: "Atomize Marketplace" },
      task_tree: { task_id: rootId },
    });
    expect(started.status).toBe(202);
    const done = await waitForExport(client, started.json.export_id);
    expect(done.status).toBe("completed");
    expect(done.result).toMatchObject({ cards_created: 155, board_name: "Atomize Marketplace" });
    const board = trello.boards().find((b) => b.name === "Atomize Marketplace")!;
    expect(done.result.board_url).toBe(board.url);
    expect(board.lists.map((l) => l.name)).toEqual(["To Do", "In Progress", "Done"]);
    expect(board.labels.map((l) => l.name).sort()).toEqual([
      "Complexity: High",
      "Complexity: Low",
      "Complexity: Medium",
    ]);
    expect(board.cards).toHaveLength(155);
    const done_ = board.lists.find((l) => l.name === "Done")!.id;
    expect(board.cards.filter((c) => c.idList === done_).length).toBeGreaterThan(0); // seeded completed tasks
    for (const c of board.cards) expect(c.idLabels).toHaveLength(1);
    const withChecklists = board.cards.filter((c) => c.checklists.length > 0);
    expect(withChecklists).toHaveLength(30); // every non-leaf subtask lists its 5 subtasks
    for (const c of withChecklists)
      expect(c.checklists[0]).toMatchObject({ name: "Subtasks", items: expect.any(Array) });
    expect(withChecklists.every((c) => c.checklists[0]!.items.length === 5)).toBe(true);
    // What now exists on the board is locked against re-plans.
    const tree = (await client.get(`/api/tasks/${rootId}/tree`)).json;
    const nodes = [
      tree,
      ...tree.children,
      ...tree.children.flatMap((c: { children: unknown[] }) => c.children),
    ];
    for (const n of nodes) {
      expect(n.locked).toContain("exported");
      expect(n.exported_at).not.toBeNull();
    }
  });

  it("backs off on Trello's 429s (no Retry-After) and still finishes without duplicates", async () => {
    trello.setRateLimits({ perToken: 10, perKey: 5000, windowMs: 1000 });
    const { client, rootId } = await ownerWithTree(3, 2); // 12 cards, 3 checklists, 9 items
    const started = await client.post("/api/trello/start-export", {
      config: {
        board_name: "Rate limited",
        trello_api_key: "trello-key-1234",
        trello_token: "trello-token-secret",
      },
      task_id: rootId,
    });
    const done = await waitForExport(client, started.json.export_id);
    expect(done.status).toBe("completed");
    expect(trello.requests.some((r) => r.status === 429)).toBe(true);
    const board = trello.boards().find((b) => b.name === "Rate limited")!;
    expect(board.cards).toHaveLength(12);
    trello.setRateLimits({ perToken: 5000, perKey: 5000, windowMs: 10_000 });
  });

  it("carries the order: a 'Blocked by' checklist on each card that waits, checked once its blocker is done", async () => {
    const { client, rootId } = await ownerWithTree(2, 2);
    const first = await server.deps.database.rows<{ id: string }>(
      sql`select id from tasks where parent_id = ${rootId} order by position`,
    );
    const [one, two] = first;
    expect((await client.post(`/api/tasks/${one!.id}/dependencies`, { depends_on: two!.id })).status).toBe(
      201,
    );
    const started = await client.post("/api/trello/start-export", {
      config: {
        board_name: "Ordered",
        trello_api_key: "trello-key-1234",
        trello_token: "trello-token-secret",
      },
      task_id: rootId,
    });
    const done = await waitForExport(client, started.json.export_id);
    expect(done.status).toBe("completed");
    const board = trello.boards().find((b) => b.name === "Ordered")!;
    const card = board.cards.find((c) => c.name === "Level 1 task 1")!;
    expect(card.checklists.find((l) => l.name === "Blocked by")).toEqual({
      name: "Blocked by",
      items: ["Level 1 task 2"],
    });
    const blocker = board.cards.find((c) => c.name === "Level 1 task 2")!;
    expect(blocker.checklists.some((l) => l.name === "Blocked by")).toBe(false);
  });

  it("asks for credentials when none are stored or given, and validates the board name", async () => {
    const { client, rootId } = await ownerWithTree(1, 1);
    const none = await client.post("/api/trello/start-export", {
      config: { board_name: "x" },
      task_id: rootId,
    });
    expect(none.status).toBe(422);
    expect(none.json.detail).toBe("Please add your Trello API key and token in the Settings page first.");
    const long = await client.post("/api/trello/start-export", {
      config: { board_name: "x".repeat(31) },
      task_id: rootId,
    });
    expect(long.json.detail).toBe("Board name must be at most 30 characters");
    const empty = await client.post("/api/trello/start-export", {
      config: { board_name: " " },
      task_id: rootId,
    });
    expect(empty.json.detail).toBe("Board name is required");
    const bad = await client.post("/api/trello/credentials", { api_key: "wrong", token: "nope" });
    expect(bad.status).toBe(400);
    expect(bad.json.detail).toBe(
      "Trello rejected the API key or token. Check both in your Trello developer settings.",
    );
  });

  it("stores credentials encrypted, never returns them, and removes them on request", async () => {
    const { client, user } = await ownerWithTree(1, 1);
    await client.post("/api/trello/credentials", {
      api_key: "trello-key-1234",
      token: "trello-token-secret",
    });
    const rows = await server.deps.database.rows<{ secret_ciphertext: string; public_data: unknown }>(
      sql`select secret_ciphertext, public_data from integration_credentials where user_id = ${user.id}`,
    );
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain("trello-token-secret");
    expect(JSON.stringify(rows)).not.toContain("trello-key-1234");
    const status = await client.get("/api/integrations");
    expect(JSON.stringify(status.json)).not.toContain("trello-token-secret");
    expect((await client.request("DELETE", "/api/trello/credentials")).json.trello.connected).toBe(false);
  });
});

describe("GitHub connection and GitHub Issues export", () => {
  it("connects with a token that has the scopes, reports status, and refuses one that lacks them", async () => {
    const client = new TestClient(server.url);
    await registerUser(client);
    expect((await client.get("/api/github/status")).json).toEqual({
      connected: false,
      user: null,
      missing_scopes: [],
    });
    const missing = await client.post("/api/github/connect", { access_token: "ghp_no_repo" });
    expect(missing.status).toBe(400);
    expect(missing.json.detail).toBe(
      "The token cannot write issues: it needs the repo scope (or public_repo, for public repositories only).",
    );
    // public_repo is enough to connect (an export into a private repository says what it lacks).
    const publicOnly = new TestClient(server.url);
    await registerUser(publicOnly);
    expect((await publicOnly.post("/api/github/connect", { access_token: "ghp_public_only" })).status).toBe(
      200,
    );
    const bad = await client.post("/api/github/connect", { access_token: "ghp_wrong" });
    expect(bad.json.detail).toBe("GitHub rejected the token (Bad credentials). Check it and try again.");
    const empty = await client.post("/api/github/connect", { access_token: " " });
    expect(empty.json.detail).toBe("Please enter your GitHub access token");
    const ok = await client.post("/api/github/connect", { access_token: "ghp_classic_ok" });
    expect(ok.json).toMatchObject({
      connected: true,
      username: "ada",
      user: { login: "ada", public_repos: 7 },
    });
    expect(JSON.stringify(ok.json)).not.toContain("ghp_classic_ok");
    expect((await client.get("/api/github/status")).json.user).toEqual({
      login: "ada",
      username: "ada",
      public_repos: 7,
    });
    expect((await client.request("DELETE", "/api/github/disconnect")).json.detail).toBe(
      "GitHub account disconnected",
    );
    expect((await client.get("/api/github/status")).json.connected).toBe(false);
    expect((await client.request("DELETE", "/api/github/disconnect")).status).toBe(404);
  });

  it("exports a tree as issues with labels and sub-issues", async () => {
    const { client, rootId } = await ownerWithTree(2, 2); // 6 issues
    await client.post("/api/github/connect", { access_token: "ghp_classic_ok" });
    const started = await client.post("/api/github/start-export", {
      task_id: rootId,
      config: { repository: "ada/plans" },
    });
    const done = await waitForExport(client, started.json.export_id);
    expect(done.status).toBe("completed");
    expect(done.result).toMatchObject({ issues_created: 6, repository: "ada/plans" });
    const issues = github.issues("ada", "plans");
    expect(issues).toHaveLength(6);
    for (const i of issues) {
      expect(i.labels).toContain("atomize");
      expect(i.labels.some((l) => l.startsWith("complexity: "))).toBe(true);
    }
    const parents = issues.filter((i) => i.subIssues.length > 0);
    expect(parents).toHaveLength(2);
    expect(parents.every((p) => p.subIssues.length === 2)).toBe(true);
    expect(parents[0]!.body).toContain("### Subtasks");
  });

  /** A 2x2 tree where "Level 1 task 1" waits for "Level 1 task 2": the export must create task 2 first. */
  async function orderedTree() {
    const owner = await ownerWithTree(2, 2);
    const first = await server.deps.database.rows<{ id: string; description: string }>(
      sql`select id, description from tasks where parent_id = ${owner.rootId} order by position`,
    );
    const [one, two] = first;
    const added = await owner.client.post(`/api/tasks/${one!.id}/dependencies`, { depends_on: two!.id });
    expect(added.status).toBe(201);
    await owner.client.post("/api/github/connect", { access_token: "ghp_classic_ok" });
    return owner;
  }

  it("carries the order: blockers are created first, named in the body, and linked as GitHub's 'blocked by'", async () => {
    const { client, rootId } = await orderedTree();
    const started = await client.post("/api/github/start-export", {
      task_id: rootId,
      config: { repository: "ada/ordered" },
    });
    const done = await waitForExport(client, started.json.export_id);
    expect(done.status).toBe("completed");
    expect(done.result).toMatchObject({ issues_created: 6, dependencies: 1, dependencies_linked: 1 });
    const issues = github.issues("ada", "ordered");
    const one = issues.find((i) => i.title === "Level 1 task 1")!;
    const two = issues.find((i) => i.title === "Level 1 task 2")!;
    expect(two.number).toBeLessThan(one.number);
    expect(one.body).toContain(`**Blocked by:** #${two.number}`);
    expect(one.blockedBy).toEqual([two.number]);
    expect(two.blockedBy).toEqual([]);
  });

  it("keeps the 'Blocked by #n' line where the server has no issue-dependencies API, and still completes", async () => {
    const { client, rootId } = await orderedTree();
    const started = await client.post("/api/github/start-export", {
      task_id: rootId,
      config: { repository: "ada/older" },
    });
    const done = await waitForExport(client, started.json.export_id);
    expect(done.status).toBe("completed");
    expect(done.result).toMatchObject({ issues_created: 6, dependencies: 1, dependencies_linked: 0 });
    const issues = github.issues("ada", "older");
    const one = issues.find((i) => i.title === "Level 1 task 1")!;
    const two = issues.find((i) => i.title === "Level 1 task 2")!;
    expect(one.body).toContain(`**Blocked by:** #${two.number}`);
    expect(one.blockedBy).toEqual([]);
    // One attempt found the API missing; the exporter did not try again for every pair.
    expect(
      github.requests.filter(
        (r) =>
          r.method === "POST" &&
          r.path.startsWith("/repos/ada/older/") &&
          r.path.includes("/dependencies/blocked_by"),
      ),
    ).toHaveLength(1);
  });
});
